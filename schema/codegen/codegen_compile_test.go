package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// compileCorpus are accepted schemas at the edges of the language; each
// must generate Go that builds and is go vet clean, scalar and SIMD.
var compileCorpus = []struct{ name, src string }{
	{"query_unused_param", "table T(capacity: 10) { X: int32 }\nquery A(x: int32) { from T t select t }\nquery B(x: int32, y: int32) { from T t where t.X > x select max(t.X) }"},
	{"self_set_simd", "table T(capacity: 10) { X: int32 }\nsystem S(phase: update) { from T t set t.X = t.X }"},
	{"self_set_simd_float", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t set t.X = t.X }"},
	{"self_set_in_arm", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t match { t.X > 0 => { set t.X = t.X } } }"},
	{"self_set_ref", "table T(capacity: 10) { R: ref T  X: int32 }\nsystem S(phase: update) { from T t join T u on t.R set t.R = u }"},
	{"other_set_simd", "table T(capacity: 10) { X: float32 Y: float32 }\nsystem S(phase: update) { from T t set t.X = t.Y }"},
	{"const_set_simd", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t set t.X = 1 }"},
	{"empty_body", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t }"},
	{"empty_body_join", "table T(capacity: 10) { R: ref T }\nsystem S(phase: update) { from T t join T u on t.R }"},
	{"count_only", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t count n }"},
	{"count_only_event", "event table E(capacity: 10, lifetime: next_frame) { A: int32 }\nsystem S(phase: update) { from E e count n }"},
	{"blank_row_var", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T _  set _.X = 1 }"},
	{"empty_body_event", "event table E(capacity: 10, lifetime: next_frame) { A: int32 }\nsystem S(phase: update) { from E e }"},
	{"empty_event_table", "event table E(capacity: 10, lifetime: next_frame) { }\ntable T(capacity: 10) { X: int32 }\nsystem S(phase: update) { from T t emit E { } }"},
	{"empty_event_consume", "event table E(capacity: 10, lifetime: next_frame) { }\ntable T(capacity: 10) { X: int32 }\nsystem S(phase: update) { from E e  count n }"},
	{"unused_join", "table T(capacity: 10) { R: ref T  X: int32 }\nsystem S(phase: update) { from T t join T u on t.R set t.X = 1 }"},
	{"unused_join_event", "table T(capacity: 10) { X: int32 }\nevent table E(capacity: 10, lifetime: next_frame) { R: ref T }\nsystem S(phase: update) { from E e join T u on e.R count n }"},
	{"table_no_columns", "table T(capacity: 10) { }\nsystem S(phase: update) { from T t delete t }"},
	{"lower_counter", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T t  match { t.X > 0 => { count declare } else => { count run } } }"},
	{"lifecycle_tables", "domain D(capacity: 10)\ntable T(domain: D) { X: float32  n: int32  R: ref T }\ntable G(domain: D) { }\n" +
		"lifecycle TL of T(capacity: 4) { X n R }\nlifecycle GL of G(capacity: 2, on: [attached]) { }\nsystem S(phase: update) { from T t set t.X = 1 }"},
	{"group_no_aggregates", "table T(capacity: 10) { B: bool  R: ref T  N: int32 }\nquery G() { from T x group by x.B select x.B }\n" +
		"query H() { from T x group by x.R select x.R }\nquery I() { from T x group by x.N, x.B select x.N, x.B }"},
	// Subscriptions of every kind at the edges: parameters named like the
	// generated locals, no where, no column read, a select of the handle
	// only, bool and ref group keys without a sum, ref and float top-N keys.
	{"subscriptions", "struct V { X: float32  Y: float32 }\ntable T(capacity: 10) { P: V  a: int32  R: ref T  B: bool  F: float64 }\n" +
		"query Q1(b: int32, t: int32, sub: int32, r: int32, e: int32, gr: int32, s: int32, n: int32, SubFilter: int32, Result: int32) { from T x where x.a > b + t + sub + r + e + gr + s + n + SubFilter + Result select x, x.a - n as D, x.P.Y }\n" +
		"query Q2() { from T x select x }\nquery Q3() { from T x where x.B select index(x) as I }\nquery Q4() { from T x group by x.B select count() as N, x.B }\n" +
		"query Q5(n: int64) { from T x where x.P.X < 1 group by x.R select x.R, sum(x.a) }\nquery Q6(n: int32) { from T x select x.R order by x.R desc limit n }\n" +
		"query Q7() { from T x select x.F order by x.F limit 2 }\nquery Q8() { from T x select count() }\n" +
		"subscription S1 of Q1\nsubscription S2 of Q2\nsubscription S3 of Q3\nsubscription S4 of Q4\nsubscription S5 of Q5\nsubscription S6 of Q6\nsubscription S7 of Q7\nsubscription S8 of Q8"},
	// Index-served queries that name nothing of package index (a grid's
	// disc or box, a sorted range): the import of index must go.
	{"grid_disc_only", "table T(capacity: 100) { H: int32  F: float32  G: float32 }\nindex I on T(F, G) grid(cell: 2)\n" +
		"query Q(px: float32) { from T x where (x.F - px) * (x.F - px) + (x.G - 1) * (x.G - 1) <= 4 select x }"},
	{"grid_box_sorted_range", "table T(capacity: 100) { H: int32  F: float32  G: float32 }\nindex I on T(F, G) grid(cell: 2)\nindex ByH on T(H) sorted\n" +
		"query B(a: float32) { from T x where x.F >= a and x.F <= 3 and x.G >= 0 and x.G <= 1 select x }\n" +
		"query M(lo: int32) { from T x where x.H >= lo select x }\nquery C(lo: int32) { from T x where x.H >= lo select count() }"},
	{"row_var_names", "table T(capacity: 10) { X: float32 }\nsystem S(phase: update) { from T i  set i.X = 1 }"},
	{"struct_every_type", "struct V { A: int32  B: int64  C: float32  D: float64  E: bool  R: ref T }\ntable T(capacity: 10) { P: V  Q: V }\n" +
		"system S(phase: update) { from T t set t.P = t.Q, t.Q.A += 1 }"},
	{"struct_simd_resource", "struct V { X: float32  N: int32 }\nresource R { K: float32 = 2  W: V }\ntable T(capacity: 10) { P: V }\n" +
		"system S(phase: update) { from T t set t.P += R.W, t.P.X -= R.K * @dt }"},
	{"struct_join_event", "struct V { X: float32  Y: float32 }\nresource R { K: float32 = 2  W: V }\ntable T(capacity: 10) { P: V }\n" +
		"event table E(capacity: 10, lifetime: next_frame) { Who: ref T  X: float32 }\n" +
		"system S(phase: update) { from E e join T t on e.Who match { found(t) => { set t.P = t.P * R.K + R.W, t.P.X += e.X * R.W.Y } } }"},
	{"struct_ref_join", "struct L { Who: ref T  W: float32 }\ntable T(capacity: 10) { Link: L  X: float32 }\n" +
		"system S(phase: update) { from T t join T u on t.Link.Who match { found(u) => { set t.Link.W = u.X * 2 } } }"},
	{"resource_masked", "resource R { Lim: int64 = 3  On: bool = true  F: float64 = 0.25 }\ntable T(capacity: 10) { X: int64  F: float64 }\n" +
		"system S(phase: update) { from T t match { R.On and t.X > R.Lim => { delete t  count big } else => { set t.X += R.Lim * 2, t.F = t.F * R.F } } }"},
	{"untyped_consts", "const A = 0.1\nconst B = A * 3\nconst C = 7\nconst D = C / 2\nconst E = true\ntable T(capacity: 10) { X: float32  N: int32  F: float64 }\n" +
		"system S(phase: update) { from T t set t.X = B, t.F = B, t.N = D match { E => { set t.N += C } } }"},
	{"resource_arrays", "resource R { A: [5]int64  B: [8]bool  F: [3]float64 }\ntable T(capacity: 10) { N: int32  M: int64  X: float64 }\n" +
		"event table E(capacity: 10, lifetime: next_frame) { K: int32 }\n" +
		"system S(phase: update) { from T t match { R.B[t.N] => { set t.M = R.A[t.M] + R.A[-1] + int64(floor(2.5)), t.N = floor(t.X * R.F[t.N]) } } }\n" +
		"system V(phase: update, after: S) { from E e match { R.B[e.K] and R.F[e.K * 2] > float64(floor(R.F[0])) => { count hit } } }"},
	{"struct_names", "struct V { Table: float32 }\ntable T(capacity: 10) { Table2: V  V: V }\nsystem S(phase: update) { from T t set t.Table2 = t.V }"},
	{"indexes_unwalked", "table T(capacity: 10) { A: int32  B: ref T  C: bool  X: float32  Y: float32 }\n" +
		"event table E(capacity: 10, lifetime: next_frame) { W: ref T  K: int32 }\n" +
		"index TAB on T(A, B) unique\nindex TC on T(C, A) hash\nindex TX on T(X) sorted\nindex TP on T(X, Y) grid(cell: 0.5)\nindex EW on E(W, K) hash\n" +
		"query G() { from T t group by t.A select t.A, count() }"},
	{"indexes_walked_upkeep", "table T(capacity: 10) { A: int32  B: ref T  X: float32  Z: float32  Y: float64 }\n" +
		"event table E(capacity: 10, lifetime: next_frame) { W: ref T  K: int32 }\n" +
		"index TAB on T(A, B) unique\nindex TY on T(Y) sorted\nindex TP on T(X, Z) grid(cell: 3)\nindex EW on E(W, K) hash\n" +
		"query U(a: int32, b: ref T) { from T t where t.B == b and t.A == a select t }\nquery R(y: float64) { from T t where t.Y < y select t.Y order by t.Y desc }\n" +
		"query V(w: ref T) { from E e where e.K == 2 and e.W == w select e.K }\n" +
		"system S(phase: update) { from T t set t.A += 1, t.Y *= 2, t.X -= 1 }\nsystem D(phase: update, after: M) { from T t set t.X += 0.5, t.Z -= t.X }\nsystem M(phase: update, after: S) { from E e join T t on e.W match { missing(t) => {} else => { set t.A = e.K } } }"},
}

// TestGeneratedCompiles writes each corpus schema's generated files into
// a package of a temporary directory inside the module (testdata, so no
// ./... pattern sees it) and runs go vet on them, which type-checks
// them: once as built everywhere, once with GOEXPERIMENT=simd (amd64).
func TestGeneratedCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages with the go command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	dir, err := os.MkdirTemp("testdata", "compile-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	corpus := append(slices.Clone(compileCorpus),
		struct{ name, src string }{"chain_float", string(chain(schema.MaxOperators+1, "float32"))},
		struct{ name, src string }{"chain_int", string(chain(schema.MaxOperators+1, "int32"))})
	// The seeds of FuzzParse that check: every accepted schema generates
	// code that builds.
	seeds, err := filepath.Glob("../testdata/fuzz/FuzzParse/*")
	require.NoError(t, err)
	require.NotEmpty(t, seeds)
	for _, f := range seeds {
		src := fuzzSeed(t, f)
		if _, err := schema.Load("seed.tw", src); err == nil {
			corpus = append(corpus, struct{ name, src string }{"seed_" + strings.ReplaceAll(filepath.Base(f), "-", "_"), string(src)})
		}
	}
	var pkgs []string
	for _, tc := range corpus {
		s, err := schema.Load(tc.name+".tw", []byte(tc.src))
		require.NoError(t, err, tc.name)
		cfg := codegen.Config{Package: tc.name, Command: "tickwork-gen " + tc.name + ".tw", Source: tc.name + ".tw"}
		main, err := codegen.Generate(s, cfg)
		require.NoError(t, err, tc.name)
		simd, err := codegen.GenerateSIMD(s, cfg)
		require.NoError(t, err, tc.name)
		pd := filepath.Join(dir, tc.name)
		require.NoError(t, os.Mkdir(pd, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(pd, "gen.go"), main, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(pd, "gen_simd.go"), simd, 0o644))
		pkgs = append(pkgs, "./"+filepath.ToSlash(pd))
	}
	envs := [][]string{nil}
	if runtime.GOARCH == "amd64" {
		envs = append(envs, []string{"GOEXPERIMENT=simd"})
	}
	for _, env := range envs {
		cmd := exec.Command(goTool, append([]string{"vet"}, pkgs...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("go vet %s of the generated packages: %v\n%s", strings.Join(env, " "), err, out)
		}
	}
}

// fuzzSeed reads a go test fuzz v1 file of one []byte value.
func fuzzSeed(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", 2)
	require.Len(t, lines, 2, path)
	require.Equal(t, "go test fuzz v1", lines[0], path)
	q, ok := strings.CutPrefix(lines[1], "[]byte(")
	require.True(t, ok, path)
	v, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
	require.NoError(t, err, path)
	return []byte(v)
}
