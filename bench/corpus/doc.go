// Package corpus is the query corpus of issue 22: the questions a game
// asks between frames, each run four ways over the same data in one
// process, so that the declared queries (docs/schema.md) are measured
// against the floor and against an embedded database.
//
// # Data
//
// [New] builds two data sets at a [Size]: the arena's state ([Full]:
// 100 000 units after 200 frames, read through arena.Sim.Tables) and the
// shop (package bench/shop: 50 000 players, 5 000 products, 50 000 orders,
// seeded, and a sale event per order, readable after one frame), and picks the cases' parameters ([Params]). [OpenDB] loads the
// same rows into SQLite in memory twice ([DB]: Scan without secondary
// indexes, Index with every case's), through modernc.org/sqlite.
//
// # Cases
//
// [Cases] returns the corpus, at least one case per operator family of
// the issue. A case ([Kase]) has a name, a family, the query in the
// schema's query syntax ([Info].TW; declared in arena/arena.tw or
// bench/shop/shop.tw when the generator has its family, else kept as
// text), the SQL (prepared once), the hand-written Go loop
// over the tables' columns (the floor: caller-owned buffers, scratch made
// once, 0 B per call once grown) and a slot for the generated query
// ([Kase].NewGen, in generated.go: wired for every declared case, nil for
// the others). The index-served cases of issue 23 (cases_index.go: a
// unique key's lookup, a hash key's equality and group by (of a table
// and of an event table), an event table's equality, a sorted index's
// range and top-N, a grid's box and disc over the shop's stores) run their query as
// served by a declared index ([Info].Index), the same query `using scan`
// ([Kase].NewScan) and a hand loop over a plain-Go index of the same kind
// (a map, a sorted slice of rows, a grid of row lists) built once; where
// one of their indexes would serve an issue 22 case's query, that query
// is `using scan` (TestIndexCasesPlans checks the planner's choices).
// Result order is the query contract's
// (ascending entity index without order by; order by keys, then the
// index), and the SQL says it with ORDER BY, so rows compare one for one;
// floats compare bit for bit except where [Info].Tolerance says why not.
//
// The runq lane ([Kase].Runq, runq.go) prepares each case's [Info].TW
// once at run time with package runq against its data set's catalog
// ([Data.Catalog]: the generated Tables.BindCatalog of arena and
// bench/shop) and runs it with the generated lane's arguments
// ([Kase].Vals, or Args converted), its rows read into the case's row
// type; TestRunqAgrees checks them against the generated rows bit for
// bit, and the cases runq refuses (ErrUnsupported: the three over an
// event table) are skipped with the reason.
//
// # Benchmark and table
//
// BenchmarkCorpus/<case>/{generated,parallel,scan,runq,hand,sqlite,sqlite_index}
// runs every case at [Full] (-corpus.size=small: [Small]); [ParseResults],
// [Summarize], [WriteTable], [WriteIndexTable] (the index-served
// cases against their targets) and [WriteRunqTable] (the runq lane
// against its targets) make its output tables, which
// cmd/corpustable prints and plots:
//
//	cd bench && go test -run '^$' -bench '^BenchmarkCorpus$' -benchmem ./corpus | go run ./cmd/corpustable
//
// # Concurrency
//
// A [Data]'s tables are read-only once New returns: cases may read them
// from many goroutines. A runner returned by Case.Hand, Case.Generated,
// Case.Parallel, Case.Scan, Case.Runq or Case.SQL, and a [DB], are for one goroutine at a time. [Cases],
// [ParseResults], [Summarize], [WriteTable] and [WriteIndexTable] are
// safe for concurrent use.
package corpus
