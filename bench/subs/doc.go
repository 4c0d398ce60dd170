// Package subs is the world of the subscription benchmark
// (BenchmarkSubscription): its schema subs.tw, generated into subs_gen.go
// by go generate, declares one table of units, four queries of the four
// kinds a subscription keeps (a count, a grouped sum, a top-10, a box)
// and a subscription of each, so that keeping a result by deltas is
// measured against the declared query's own compiled Run
// (docs/benchmarks.md, Subscriptions in bench/).
package subs

//go:generate go tool tickwork-gen -o subs_gen.go subs.tw
