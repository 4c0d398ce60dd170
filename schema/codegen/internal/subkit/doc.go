// Package subkit is a schema with a subscription of a declared query of
// each shape a subscription keeps (subkit.tw: a box, counts, grouped sums
// by an int, a bool and a ref key, top-N by int, float and ref keys, asc
// and desc, with parameters and a constant limit, over a standalone table
// and a domain's member table), generated, for the
// tests of the generated subscriptions against the queries' own Run. Only
// tests use it.
package subkit

//go:generate go run ../../../../cmd/tickwork-gen -o subkit_gen.go subkit.tw
