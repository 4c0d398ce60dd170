// Package querykit is a schema with a declared query of each operator
// family (querykit.tw: filter and projection, probe by handle, aggregates
// ungrouped and grouped by one or two keys of each kind, top-N, sort,
// distinct, inner, left and entity joins with has, event tables),
// generated, for the tests of the generated queries against a
// hand-written model. Only tests use it.
package querykit

//go:generate go run ../../../../cmd/tickwork-gen -catalog -o querykit_gen.go querykit.tw
