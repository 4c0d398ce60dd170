// Package changed is a schema whose systems filter their rows by change
// (changed.tw: `where changed(u.HP) or added(u)`), generated, for the test
// of the generated kernels' chunk skipping. Only tests use it.
package changed

//go:generate go run ../../../../cmd/tickwork-gen -o changed_gen.go changed.tw
