// Command arena-headless runs the arena (arena rules v1,
// ../shared/arena-spec.md) without a window and measures it: the runtime's
// implementation, the hand-written struct-of-arrays baseline (package
// arena/soa), or both in the same process.
//
// # Usage
//
//	arena-headless [-units 100000] [-shots 256] [-seed 42] [-warmup 120]
//	               [-frames 600] [-workers N|N,M,...] [-impl runtime|soa|both]
//	               [-lane scalar|avx2|avx512] [-json]
//	               [-rollback N] [-save FILE] [-load FILE] [-queries]
//	               [-query 'TEXT' ...]
//
// -frames counts measured frames per implementation; the digest is taken
// after -warmup + -frames frames. -workers sets rules.Config.Workers, the
// goroutines of the runtime's kernels (the baseline ignores it); it
// defaults to GOMAXPROCS (each kernel run uses as many as its work pays
// for: package kernels, "Worker policy"; -workers 1 runs every kernel
// inline). A list such as -workers 1,2 runs the runtime once per count
// (named runtime-w1, runtime-w2, ...) and reports each count's frame p50
// speed-up over the first count. -lane sets rules.Config.Lane, the lane of
// the runtime's streaming kernels (tickwork.ParseLane's names, in any
// case); by default the best this build and CPU run, and a lane they
// cannot run exits with status 2. The
// other defaults are those of arena rules v1 (package arena/rules).
//
// Ranges: -units 1..rules.MaxUnits (16 777 216), -shots 0..rules.MaxShots
// (65 536), -workers 1..rules.MaxWorkers (256, the same as
// kernels.MaxWorkers), -frames 1..10 000 000 and -warmup 0..10 000 000. A
// value out of range exits with status 2 and a message that names the flag
// and its range; nothing is allocated first.
//
// # Snapshots
//
// -save writes the runtime's snapshot after the measured frames with
// tickwork.SaveFile, -load starts every runtime Sim from one with
// tickwork.LoadFile (what a crash during a save leaves, and which files a
// load refuses before reading them: docs/state.md, "Save games"). Before
// any Sim is built, the -load file must open and the -save file's
// directory must take a new file (one is created and removed), else exit
// status 1; an empty -load or -save value exits with status 2. -rollback N
// runs the SyncTest (state.go) and needs -frames N or more, else exit
// status 2: the first rollback comes once the ring holds N frames.
//
// # Measurement
//
// Each implementation first runs its warm-up frames. The measured frames then
// run in blocks of 60; with -impl both the two implementations, and with a
// -workers list the runtime's worker counts, alternate block by block, so
// that drift of the machine (frequency, other load) hits them alike. For each implementation the command records every frame's wall
// time (reported as p50, p99 and mean in µs), the mean of each system's wall
// time from Sim.SystemTimes, the bytes allocated per measured frame and the GC
// cycles completed during its measured blocks (runtime.ReadMemStats, read only
// at block boundaries because it stops the world). For the runtime it also
// sums its systems' counters over every frame's frame report, warm-up
// included (FrameReport's SystemReport.Counters; package systems,
// Counters).
//
// # Output
//
// By default a human report: the host (Go version, GOMAXPROCS, CPU brand,
// cores and features, the lanes available), then per implementation the
// frame times, the per-system means with the lane each system ran ("-"
// when it does not say) and the most workers its kernels were given in a
// measured frame (SystemReport.Workers; "-" for none), allocation, GC cycles, counters, for the runtime
// a "report" line with its frame reports' counters summed over every frame
// (Fire shots, Collision lost, hits and expired, ApplyHits deaths) and
// whether they equal the counters, and the digest, then
// whether the digests match and the p50 ratio runtime/soa (the runtime at
// the first worker count), and with a -workers list each count's
// speed-up. With -json, the one object described at the end of the rules,
// with the fields in the order shown there; a system's entry also has
// "lane" when the implementation says which lane it ran and "workers"
// when its kernels ran on the pool, and a -workers
// list adds two keys after the spec's: "worker_counts" (the list) and
// "speedups_p50" ({"workers", "speedup"} per count: the first count's frame
// p50 over this count's). The runtime's entry of "impls" adds, after the
// spec's keys, "report_counters" ({"system", "name", "total"} per counter,
// in report order) and, when some differ from "counters",
// "counter_mismatches" (one message each).
//
// With one implementation (-impl runtime or -impl soa) the object keeps
// every key of the spec, in the spec's order and with the spec's types:
// "impls" has one entry, "ratio_p50" is 0 (there is no ratio), and
// "digest_match" is true. That true is a deliberate reading: the field says
// that no two digests of the run differ, and with one digest none can, so
// the exit status stays 0 and a script that checks digest_match does not
// fail a single-implementation run. It does not say that a comparison was
// made: to know that, check that "impls" has two entries (the human report
// prints "one implementation, nothing to compare").
//
// # Queries
//
// -queries runs, after the measured frames, the arena's four declared
// queries (arena/arena.tw; docs/schema.md, Queries) on each runtime Sim:
// CountUnits, WeakestUnits(10), BodiesInBox(±50 around the centre: x and y
// in W/2-50..W/2+50) and HitTotalsByTarget, each once to grow its buffer
// and then 101 timed calls, and prints a "queries" table after the
// runtime's digest: query, µs p50, bytes allocated per call
// (runtime.ReadMemStats around the calls) and result rows, and under each
// query its plan ("plan: ...", the generated Plan: the index and its walk,
// e.g. WeakestUnits on index UnitsByHealth, or the scan; docs/schema.md,
// Indexes). With -json the runtime's entry of "impls" adds "queries"
// ({"query", "plan", "p50_us", "bytes_per_call", "rows", "result"} per
// query; "result" holds the rows, handles as {"index", "generation"}). It needs the runtime (exit status 2
// with -impl soa); without it the output is unchanged.
//
// -query 'TEXT' (repeatable) runs a query given at run time (package
// runq; the rules: docs/architecture.md, Run-time queries): a declaration
// without parameters, `query Q() { from ... select ... }`, or its body
// alone, `from Unit u where u.Health < 3 select u, u.Health` (run as
// query Console). Before any frame each text is prepared against a
// one-unit arena's catalog: a bad one (unknown names, syntax, nesting,
// parameters, bad UTF-8, ...) stops the command with exit status 2 and
// runq's message on stderr, positioned in the text as given
// ("query:LINE:COL"). After the measured frames (and -queries) each text
// is prepared against each runtime Sim's catalog (arena.Tables.BindCatalog),
// run once, then 11 timed runs, and the report prints per text "query
// TEXT", its plan ("plan: ..."), the median µs, the row count and the rows
// visited, the column names and the first 20 rows ("... N more rows").
// With -json the runtime's entry adds "query_texts" ({"text", "plan",
// "columns", "p50_us", "rows", "result", "rows_visited"} per text;
// "result" holds the first 20 rows as lists of values, handles as
// {"index", "generation"}, non-finite floats as strings).
//
// # Exit status
//
// 0 on success (and for -h); 1 when the digests differ, an implementation
// breaks the counter invariant shots_fired == hits + lost + expired +
// live_projectiles (or reports a frame count other than -warmup + -frames),
// the runtime's frame report counters summed over every frame differ from
// its counters,
// an implementation fails, or the report cannot be written; 2 for bad flags
// or values (out of the ranges above), including an implementation this
// build does not have.
//
// # Implementations
//
// Implementations come from the factories map (factories.go): "runtime"
// (package arena) and "soa" (package arena/soa). -impl accepts runtime, soa
// or both.
package main
