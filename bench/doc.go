// Package bench sets the arena (arena rules v1, docs/arena-spec.md) on the
// Tickwork runtime beside the hand-written baseline and beside a port to
// Ark (github.com/mlange-42/ark, package bench/ark), in one benchmark. It
// is its own module, so that Ark stays out of the root module's graph.
//
// # Benchmark
//
// BenchmarkArena (bench_test.go) runs each of [Impls] at 10 000, 100 000
// and 1 000 000 units: the runtime's arena at 1 worker and at GOMAXPROCS
// workers, package arena/soa and package bench/ark, one frame per op after
// the default warm-up, with B/op, allocs/op and the frame time's p50 and
// p99 ([FrameTimes]). All three end in the same digest (bench/ark's
// tests).
//
// # Table
//
// [ParseResults] reads `go test -bench` output and [WriteTable] prints
// the arena's results side by side, each implementation's p50 over soa's;
// cmd/benchtable is the two as a filter, which `make bench` runs.
//
// # Query corpus
//
// Package bench/corpus is the query corpus of issue 22: 37 questions over
// the arena's state and the shop (package bench/shop, Players / Orders /
// Products), each run as the generated query (27 cases wired), its
// parallel lane (10 of them), a hand-written loop, SQLite's scan and
// SQLite with its index (modernc.org/sqlite, in memory). One command runs it and prints the table (cmd/corpustable; `make
// corpus` also draws docs/corpus.png):
//
//	cd bench && go test -run '^$' -bench '^BenchmarkCorpus$' -benchmem ./corpus | go run ./cmd/corpustable
//
// Its agreement test (TestCorpusAgrees, at the small size) is among the
// module's tests, which `make tools` runs.
//
// # Concurrency
//
// [Impls], [ParseResults] and [WriteTable] are safe for concurrent use; a
// [FrameTimes] is not.
package bench
