// Package lifekit is a schema with lifecycle event tables (lifekit.tw):
// one of a table of every column kind a lifecycle event keeps (a name
// that is not Go's exported form among them), one of a tag table with an
// on list, generated, for the tests of what the generator declares. Only
// tests use it.
package lifekit

//go:generate go run ../../../../cmd/tickwork-gen -o lifekit_gen.go lifekit.tw
