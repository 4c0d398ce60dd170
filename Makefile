# Tickwork build and test entry points. `make` (= `make test`) is what CI runs
# through .ci/run; it installs the Debian packages the tests need when they
# are missing, then runs every check over both modules (the root module and
# the nested cmd/arena-viewer module, which alone depends on ebiten and cgo).

SHELL := /bin/bash
GO ?= go

# Packages whose tests also run under the race detector: the ones that start
# goroutines. Patterns that match no directory yet are skipped.
RACE_PKGS ?= . ./examples/... ./memory/... ./kernels/... ./systems/... ./scheduler/... ./runtime/... ./events/... ./commands/... ./arena/... ./schema/... ./journal/...
BENCHTIME ?= 1s
FUZZTIME ?= 30s
# make debug: the timeout of the debug build's test run (it takes 1 to
# 4 minutes on 2 shared cores, as the load goes).
DEBUG_TIMEOUT ?= 20m
FUZZMINIMIZETIME ?= 10x
# Extra flags for `make headless`, e.g. HEADLESS_FLAGS='-json'.
HEADLESS_FLAGS ?=
# The SIMD lane (package lanes): the packages whose results depend on the
# lane, tested again with GOAMD64=v3 (where Go may fuse x*y + z into an
# FMA), and the arena-headless run whose digests every build must share.
# The generated SIMD variants (schema/codegen/internal/simdkit, and
# package arena's arena_gen_simd.go) are among them.
LANE_PKGS ?= ./lanes/... ./arena/... ./cmd/arena-headless/... ./schema/codegen/internal/...
LANE_DIGEST_FLAGS ?= -units 20000 -shots 256 -warmup 20 -frames 100 -json
# staticcheck, pinned: `go run` fetches this exact version through the module
# proxy, so no install step is needed on a fresh machine.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

VIEWER_DIR := cmd/arena-viewer
# The journal's stores (SQLite through modernc.org/sqlite, the conformance
# suite): their own module, so the SQLite driver stays out of the root
# module's graph.
STORES_DIR := stores
# make stores: the crash test's seeded trials (each kills its child 3
# times; 50 take about 35 s on 2 cores).
CRASH_TRIALS ?= 50
# The scaling plot's drawing program: its own module, so that gonum/plot
# stays out of the root module's graph.
PLOT_DIR := tools/benchplot
# The arena on Ark beside the runtime and the baseline (BenchmarkArena):
# its own module, so that Ark stays out of the root module's graph.
BENCH_DIR := bench
# make bench: the arena benchmark's -bench pattern.
ARENA_BENCH ?= ^BenchmarkArena$$
# make corpus (and make bench): the query corpus's -bench pattern, rounds
# (-count) and time per sub-benchmark.
CORPUS_BENCH ?= ^BenchmarkCorpus$$
CORPUS_COUNT ?= 3
CORPUS_BENCHTIME ?= 500ms
# make scaling-campaign: runs per unit count, unit counts (comma-separated), extra flags.
CAMPAIGN_RUNS ?= 7
CAMPAIGN_UNITS ?= 100000,1000000
CAMPAIGN_FLAGS ?=
# make plot: unit counts, and worker counts 1..NumCPU.
PLOT_UNITS ?= 100000 1000000
PLOT_WORKERS ?= $(shell seq -s, 1 $$(nproc))
PLOT_FLAGS ?= -frames 1200

# Debian packages the tests need: a C toolchain for cgo (race detector,
# ebiten), the X11/GL/ALSA headers ebiten v2.8 builds against on Linux
# (ebitengine.org install page, "Debian / Ubuntu"), and an X server without
# a display (xvfb, xauth) so that the viewer's tests can open a window. The
# software GL driver libgl1-mesa-dri (llvmpipe) draws under Xvfb.
APT_PKGS := gcc libc6-dev pkg-config \
	libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev \
	libxxf86vm-dev libasound2-dev \
	libgl1-mesa-dri xvfb xauth qemu-user-static

.DEFAULT_GOAL := test
.NOTPARALLEL:
.PHONY: test deps fmt vet lint unit debug race lanes fma arm64 stress viewer tools stores plot bench corpus fuzz headless screenshot scaling-campaign

## test: install missing system packages, then gofmt, vet, staticcheck, tests, the tests of the checking debug build, race tests, the SIMD lane, the FMA build, the arm64 build under qemu, pool stress, viewer, tools and stores tests
test: deps fmt vet lint unit debug race lanes fma arm64 stress viewer tools stores

## deps: apt-get install the packages of APT_PKGS that are not installed yet
deps:
	@if ! command -v dpkg >/dev/null 2>&1; then \
		echo "deps: no dpkg here; install by hand: $(APT_PKGS)"; exit 0; \
	fi; \
	missing=""; \
	for p in $(APT_PKGS); do \
		dpkg -s "$$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing="$$missing $$p"; \
	done; \
	if ! command -v xvfb-run >/dev/null 2>&1; then \
		case " $$missing " in *" xvfb "*) ;; *) missing="$$missing xvfb";; esac; \
	fi; \
	if [ -z "$$missing" ]; then echo "deps: system packages present"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	sudo=""; if [ "$$(id -u)" != 0 ]; then sudo="sudo"; fi; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing

## fmt: fail, listing the files, if any Go file of either module is not gofmt'd
fmt:
	@files="$$(find . -path ./.git -prune -o -path '*/testdata' -prune -o -name '*.go' -print | xargs -r gofmt -l)"; \
	if [ -n "$$files" ]; then echo "gofmt: these files need gofmt -w:"; echo "$$files"; exit 1; fi; \
	echo "gofmt: ok"

## vet: go vet over the root module
vet:
	$(GO) vet ./...

## lint: staticcheck (pinned) over the five modules; any finding fails
lint:
	$(GO) run $(STATICCHECK) ./...
	cd $(VIEWER_DIR) && $(GO) run $(STATICCHECK) ./...
	cd $(PLOT_DIR) && $(GO) run $(STATICCHECK) ./...
	cd $(BENCH_DIR) && $(GO) run $(STATICCHECK) ./...
	cd $(STORES_DIR) && $(GO) run $(STATICCHECK) ./...

## unit: go test over the root module
unit:
	$(GO) test ./...

## debug: go vet and go test of the root module in the checking debug build
## (build tag tickwork_debug, no -race: docs/architecture.md, Debug build),
## then arena-headless in that build, whose digests must be the normal
## build's
debug:
	$(GO) vet -tags tickwork_debug ./...
	$(GO) test -tags tickwork_debug -count=1 -timeout $(DEBUG_TIMEOUT) ./...
	@set -e; \
	n="$$($(GO) run ./cmd/arena-headless $(LANE_DIGEST_FLAGS) | grep -o '"digest":"[0-9a-f]*"' | sort -u | tr '\n' ' ')"; \
	d="$$($(GO) run -tags tickwork_debug ./cmd/arena-headless $(LANE_DIGEST_FLAGS) | grep -o '"digest":"[0-9a-f]*"' | sort -u | tr '\n' ' ')"; \
	echo "debug: arena-headless digests: normal build $$n, debug build $$d"; \
	[ -n "$$n" ] && [ "$$n" = "$$d" ] || { echo "debug: the debug build changed the arena's digest"; exit 1; }

## race: go test -race over the packages of RACE_PKGS that exist
race:
	@pkgs=""; \
	for p in $(RACE_PKGS); do \
		found="$$($(GO) list "$$p" 2>/dev/null)" && pkgs="$$pkgs $$found"; \
	done; \
	if [ -z "$$pkgs" ]; then echo "race: none of RACE_PKGS exists yet"; exit 0; fi; \
	echo "$(GO) test -race$$pkgs"; \
	$(GO) test -race $$pkgs

## lanes: the second lane. Under GOEXPERIMENT=simd: go vet, staticcheck of
## package lanes, of the generator and the generated SIMD files (schema/...,
## arena/...), and every test
## of the root module (the generated variants' bit-identity tests among
## them: schema/codegen/internal/simdkit, arena); then LANE_PKGS with
## GOAMD64=v3 in both builds (skipped on a CPU below x86-64-v3); then
## arena-headless in every build and lane, whose digests (runtime and
## baseline) must all be the same.
lanes:
	GOEXPERIMENT=simd $(GO) vet ./...
	GOEXPERIMENT=simd $(GO) run $(STATICCHECK) ./lanes/... ./schema/... ./arena/...
	GOEXPERIMENT=simd $(GO) test ./...
	@v3=1; for f in avx2 fma bmi2 movbe f16c abm; do grep -qw $$f /proc/cpuinfo 2>/dev/null || v3=0; done; \
	if [ $$v3 = 1 ]; then \
		echo "GOAMD64=v3 $(GO) test $(LANE_PKGS)"; GOAMD64=v3 $(GO) test $(LANE_PKGS) && \
		echo "GOEXPERIMENT=simd GOAMD64=v3 $(GO) test $(LANE_PKGS)"; GOEXPERIMENT=simd GOAMD64=v3 $(GO) test $(LANE_PKGS); \
	else echo "lanes: this CPU is below x86-64-v3; GOAMD64=v3 runs skipped"; fi
	@set -e; v3=1; for f in avx2 fma bmi2 movbe f16c abm; do grep -qw $$f /proc/cpuinfo 2>/dev/null || v3=0; done; \
	builds="GOEXPERIMENT= GOEXPERIMENT=simd"; \
	if [ $$v3 = 1 ]; then builds="$$builds GOAMD64=v3 GOEXPERIMENT=simd,GOAMD64=v3"; fi; \
	first=""; \
	for b in $$builds; do \
		for lane in "" scalar; do \
			out="$$(env $${b/,/ } $(GO) run ./cmd/arena-headless $(LANE_DIGEST_FLAGS) $${lane:+-lane $$lane})"; \
			ds="$$(echo "$$out" | grep -o '"digest":"[0-9a-f]*"' | cut -d'"' -f4 | sort -u | tr '\n' ' ')"; \
			ran="$$(echo "$$out" | grep -o '"name":"IntegrateBodies","mean_us":[0-9.]*,"lane":"[a-z0-9]*"' | cut -d'"' -f10)"; \
			echo "lanes: $$b lane=$${lane:-default}: IntegrateBodies ran $$ran, digests $$ds"; \
			[ -n "$$ds" ] || { echo "lanes: no digest"; exit 1; }; \
			[ -n "$$first" ] || first="$$ds"; \
			[ "$$ds" = "$$first" ] || { echo "lanes: digests differ between builds or lanes"; exit 1; }; \
		done; \
	done; \
	echo "lanes: every build and lane has digest $$first"

## stress: the kernel pool's hand-off stress test (kernels.TestStressHandOff,
## under a watchdog) at GOMAXPROCS 1, 2, 4 and 8: a million Runs, then
## 400 000 under the race detector (unit and race run it once more each, at
## the machine's GOMAXPROCS); then every zero-allocation test (ALLOC_TESTS) 20 times
stress:
	$(GO) test -count=1 -run '^TestStressHandOff$$' -cpu 1,2,4,8 ./kernels/
	$(GO) test -race -count=1 -run '^TestStressHandOff$$' -cpu 1,2,4,8 ./kernels/
	$(GO) test -count=20 -run '^($(ALLOC_TESTS))$$' ./...

# ALLOC_TESTS are the tests that assert zero allocation (testing.AllocsPerRun,
# internal/testkit/allockit): make stress runs each 20 times in a row, so
# that one the Go runtime's background can tip shows up.
ALLOC_TESTS = TestQueryInsertAndWalk|TestIndexFramesAllocateNothing|TestWorldReport|TestHandKernelsWriteInside|TestFrameAllocatesNothing|TestSteadyStateAllocatesZeroBytes|TestSnapshotEveryFrameAllocates0|TestPresentLanes|TestDigestAllocatesNothing|TestNoAllocationPerFrame|TestSystemTimes|TestSteadyStateAllocs|TestFirstPlaybackAllocatesNothing|TestSetNSteadyStateAllocs|TestReserve|TestReserveCoversSetN|TestZeroAllocs|TestQueryAllocs|TestEmitSwapAllocs|TestReaderAllocs|TestNextIsPermutation|TestSteadyStateAllocatesNothing|TestRunAllocatesNothing|TestRunAllocatesNothingInline|TestParkWakeAllocatesZeroBytes|TestChunkOrderAllocatesNothing|TestSnapshotRestoreAllocs|TestRollbackAllocs|TestEventDeliveryZeroAlloc|TestChurnZeroAlloc|TestParallelKernelZeroAlloc|TestParallelState|TestFirstWorkerPlaybackAllocatesNothing|TestCounters|TestFrameAllocs|TestAllocMeterNoAlloc|TestKernelsAllocateNothing|TestChunkKernel|TestRecorder|TestErrorFramesAllocateNothing|TestJoinAllocatesNothing|TestLongFrameAllocatesNothing|TestObserveAllocatesNothing|TestPassThroughAllocs|TestQueriesAllocateNothing|TestQueryInsertAllocs|TestQueryWideIterationAllocs|TestRunCostAllocatesNothing|TestSemiQueriesAllocateNothing|TestWindowQueriesAllocateNothing|TestFrameWithJournalAllocatesNothing

## fma: the generated kernels' tests and the arena's (its five generated systems) built with GOAMD64=v3, where the compiler fuses x*y + z into
## one multiply-add unless the generator wrapped the product (docs/schema.md, the arithmetic rule);
## skipped on a CPU without FMA, which cannot run a v3 binary
fma:
	@if grep -qw fma /proc/cpuinfo 2>/dev/null; then \
		echo "GOAMD64=v3 $(GO) test -count=1 ./schema/codegen/internal/... ./arena/"; \
		GOAMD64=v3 $(GO) test -count=1 ./schema/codegen/internal/... ./arena/; \
	else echo "fma: this CPU has no FMA; skipped"; fi

## arm64: cross-build for linux/arm64 (where Go fuses x*y + z into one FMA
## unless the product is converted) and run under qemu user-mode emulation:
## arena-headless must print the native build's digest at 1 and 2 workers,
## and the generated kernels' tests (simdkit: the scalar loops against its
## model), the arena's golden and baseline digests, the arena rules' tests,
## the kernel pool's store-fence litmus test and the runtime's snapshot
## tests (an amd64 snapshot restores and replays alike) must pass
arm64:
	@set -e; dir="$$(mktemp -d)"; trap 'rm -rf "$$dir"' EXIT; \
	GOARCH=arm64 $(GO) build -o "$$dir/ah-arm64" ./cmd/arena-headless; \
	$(GO) build -o "$$dir/ah-native" ./cmd/arena-headless; \
	for w in 1 2; do \
		flags="-units 20000 -frames 100 -warmup 20 -impl runtime -json -workers $$w"; \
		a="$$(qemu-aarch64-static "$$dir/ah-arm64" $$flags | grep -o '"digest": *"[0-9a-f]*"')"; \
		n="$$("$$dir/ah-native" $$flags | grep -o '"digest": *"[0-9a-f]*"')"; \
		echo "arm64: workers $$w: arm64 $$a, native $$n"; \
		if [ -z "$$a" ] || [ "$$a" != "$$n" ]; then echo "arm64: digests differ"; exit 1; fi; \
	done; \
	for spec in ./schema/codegen/internal/kitchen:. ./schema/codegen/internal/fused:. ./schema/codegen/internal/simdkit:. ./schema/codegen/internal/changed:. './arena:^(TestGolden|TestSameDigestAsBaseline)$$' ./arena/rules:. './kernels:^TestHandOffStoresFence$$'; do \
		pkg="$${spec%%:*}"; run="$${spec#*:}"; \
		GOARCH=arm64 $(GO) test -c -o "$$dir/t.test" $$pkg; \
		echo "arm64: qemu-aarch64-static $$pkg tests -test.run '$$run'"; \
		(cd $$pkg && qemu-aarch64-static "$$dir/t.test" -test.count=1 -test.short -test.run "$$run"); \
	done; \
	GOARCH=arm64 $(GO) test -c -o "$$dir/t.test" ./runtime; \
	echo "arm64: qemu-aarch64-static ./runtime snapshot tests"; \
	(cd runtime && qemu-aarch64-static "$$dir/t.test" -test.count=1 -test.run '^(TestGoldenSnapshot|TestRestore|TestRollback|FuzzRestore)')

## viewer: go vet and go test of the viewer module, under a virtual X server
viewer:
	cd $(VIEWER_DIR) && $(GO) vet ./...
	cd $(VIEWER_DIR) && xvfb-run -a $(GO) test ./...

## tools: go vet and go test of the plot module, and of the bench module
## (short mode: the default-config digest test is skipped; the query
## corpus's agreement test runs at its small size)
tools:
	cd $(PLOT_DIR) && $(GO) vet ./...
	cd $(PLOT_DIR) && $(GO) test ./...
	cd $(BENCH_DIR) && $(GO) vet ./...
	cd $(BENCH_DIR) && $(GO) test -short ./...

## stores: go vet and go test of the stores module (the conformance suite
## on SQLite and the memory store, the SQLite crash test with CRASH_TRIALS
## seeded trials, docs/journal.md), then its journal tests under the race
## detector (the crash test's children excepted: 3 trials)
stores:
	cd $(STORES_DIR) && $(GO) vet ./...
	cd $(STORES_DIR) && TICKWORK_CRASH_TRIALS=$(CRASH_TRIALS) $(GO) test -count=1 ./...
	cd $(STORES_DIR) && TICKWORK_CRASH_TRIALS=3 $(GO) test -race -count=1 ./...

## plot: run arena-headless at each of PLOT_UNITS with -workers PLOT_WORKERS
## (1..NumCPU) and -impl both, keep its -json reports as docs/scaling-<units>.json,
## then draw docs/scaling.png and print the Markdown table of docs/benchmarks.md
plot:
	@set -e; files=""; \
	for u in $(PLOT_UNITS); do \
		echo "$(GO) run ./cmd/arena-headless -impl both -workers $(PLOT_WORKERS) -units $$u $(PLOT_FLAGS) -json > docs/scaling-$$u.json"; \
		$(GO) run ./cmd/arena-headless -impl both -workers $(PLOT_WORKERS) -units $$u $(PLOT_FLAGS) -json > docs/scaling-$$u.json; \
		files="$$files ../../docs/scaling-$$u.json"; \
	done; \
	cd $(PLOT_DIR) && $(GO) run . -o ../../docs/scaling.png -table $$files

## bench: every benchmark of the root module, BENCHTIME each; then the
## arena (ARENA_BENCH) on the runtime, the baseline and Ark at 10 000,
## 100 000 and 1 000 000 units, printed side by side by bench/cmd/benchtable;
## then make corpus
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...
	@set -eo pipefail; out="$$(mktemp)"; trap 'rm -f "$$out"' EXIT; \
	cd $(BENCH_DIR); \
	echo "cd $(BENCH_DIR) && $(GO) test -run '^$$' -bench '$(ARENA_BENCH)' -benchmem -benchtime $(BENCHTIME) ."; \
	$(GO) test -run '^$$' -bench '$(ARENA_BENCH)' -benchmem -benchtime $(BENCHTIME) . | tee "$$out"; \
	echo; $(GO) run ./cmd/benchtable < "$$out"
	@$(MAKE) --no-print-directory corpus

## corpus: the query corpus (bench/corpus, BenchmarkCorpus: every case
## generated, its run-time query (runq), hand-written, SQLite's scan and
## SQLite with its index, at
## 100 000 units and 50 000 players), CORPUS_COUNT interleaved rounds (one
## go test run each, every case and way in turn) of
## CORPUS_BENCHTIME each; prints the table (bench/cmd/corpustable) and
## draws docs/corpus.png
corpus:
	@set -eo pipefail; out="$$(mktemp)"; trap 'rm -f "$$out"' EXIT; \
	cd $(BENCH_DIR); \
	echo "cd $(BENCH_DIR) && for i in \$$(seq $(CORPUS_COUNT)); do $(GO) test -run '^$$' -bench '$(CORPUS_BENCH)' -benchmem -benchtime $(CORPUS_BENCHTIME) -count 1 -timeout 60m ./corpus; done"; \
	for i in $$(seq $(CORPUS_COUNT)); do \
		$(GO) test -run '^$$' -bench '$(CORPUS_BENCH)' -benchmem -benchtime $(CORPUS_BENCHTIME) -count 1 -timeout 60m ./corpus | tee -a "$$out"; \
	done; \
	echo; $(GO) run ./cmd/corpustable -plot ../docs/corpus.png < "$$out"

## fuzz: every Fuzz target of the root module, FUZZTIME each, minimising a
## new input for FUZZMINIMIZETIME at most (Go's default, 60 s, spent the
## whole slot on the first input: 13 executions in 60 s); prints each
## target's executions per second
fuzz:
	@set -e; \
	for pkg in $$($(GO) list ./...); do \
		list="$$($(GO) test -list '^Fuzz' "$$pkg")"; \
		for f in $$(echo "$$list" | grep '^Fuzz' || true); do \
			echo "$(GO) test -run '^$$' -fuzz '^$$f$$' -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg"; \
			out="$$(mktemp)"; \
			$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) "$$pkg" 2>&1 | tee "$$out"; \
			rc=$${PIPESTATUS[0]}; \
			last="$$(grep -o 'elapsed: [0-9]*s, execs: [0-9]*' "$$out" | tail -1)"; rm -f "$$out"; \
			s="$$(echo "$$last" | sed 's/elapsed: \([0-9]*\)s.*/\1/')"; n="$$(echo "$$last" | sed 's/.*execs: //')"; \
			if [ -n "$$n" ] && [ "$${s:-0}" -gt 0 ]; then echo "fuzz: $$f: $$n executions in $$s s, $$((n / s)) per second"; fi; \
			[ "$$rc" = 0 ] || exit "$$rc"; \
		done; \
	done

## scaling-campaign: 2 workers against 1 on the arena (tools/campaign): CAMPAIGN_RUNS
## runs at each of CAMPAIGN_UNITS, first on the machine as it is, then with one core kept
## busy by a spinning process; per run p50/p99 at 1 and 2 workers, their ratios, the medians
scaling-campaign:
	$(GO) run ./tools/campaign -runs $(CAMPAIGN_RUNS) -units $(CAMPAIGN_UNITS) $(CAMPAIGN_FLAGS)
	$(GO) run ./tools/campaign -runs $(CAMPAIGN_RUNS) -units $(CAMPAIGN_UNITS) -busy $(CAMPAIGN_FLAGS)

## headless: run the arena on the runtime and on the baseline and compare digests
headless:
	$(GO) run ./cmd/arena-headless $(HEADLESS_FLAGS)

## screenshot: regenerate docs/arena-viewer.png (200 ticks, default units)
screenshot: deps
	cd $(VIEWER_DIR) && xvfb-run -a $(GO) run . -frames 200 -screenshot ../../docs/arena-viewer.png
