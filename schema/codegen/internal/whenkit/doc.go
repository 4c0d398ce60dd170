// Package whenkit is a schema whose systems have run conditions
// (when.tw: option when over a resource, a constant, @tick and @dt),
// generated, for the tests of the generated tickwork.Decl.RunIf. Only
// tests use it.
package whenkit

//go:generate go run ../../../../cmd/tickwork-gen -o when_gen.go when.tw
