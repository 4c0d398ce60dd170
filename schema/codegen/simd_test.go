package codegen_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// TestSIMDNotes: which systems get a SIMD variant, and the reason of each
// that does not, with its position.
func TestSIMDNotes(t *testing.T) {
	const tables = "table T(capacity: 64) { F: float32  G: float32  I: int32  L: int64  D: float64  B: bool  R: ref T }\n" +
		"event table E(capacity: 8, lifetime: next_frame) { I: int32 }\n"
	// at is the text the note points at (its first occurrence in body).
	cases := []struct{ name, body, at, reason string }{
		{"float set", "from T t  set t.F += t.G * @dt", "", ""},
		{"int set", "from T t  set t.I -= 1, t.I = -t.I * 3", "", ""},
		{"match", "from T t  match { t.F < 0 and not (t.G >= 1) => { set t.F = -t.F } t.I == 2 or t.F != t.F => {} else => { set t.G = t.G / 2 } }", "", ""},
		{"conversion", "from T t  set t.F = float32(t.I) * 0.5", "", ""},
		{"event table", "from E e  count n", "e ", "it runs over event table E (one event at a time, in emission order)"},
		{"join", "from T t  join T u on t.R  set t.F = 1", "T u", "it joins table T (a probe per row)"},
		{"int64", "from T t  set t.L += 1", "t.L", "column T.L is int64 (SIMD variants take float32 and int32)"},
		{"float64 read", "from T t  set t.F = float32(t.D)", "t.D", "column T.D is float64 (SIMD variants take float32 and int32)"},
		{"bool", "from T t  match { t.B => { set t.F = 0 } }", "t.B", "column T.B is bool (SIMD variants take float32 and int32)"},
		{"delete", "from T t  match { t.F > 1 => { delete t } }", "delete", "it deletes rows"},
		{"count", "from T t  count n", "count", "it counts n"},
		{"emit", "from T t  emit E { I: t.I }", "emit", "it emits E events"},
		{"tick", "from T t  set t.I = int32(@tick)", "@tick", "@tick is int64 (SIMD variants take float32 and int32)"},
		{"int division", "from T t  set t.I = t.I / 2", "t.I /", "integer / has no SIMD instruction"},
		{"handle", "from T t  set t.I = index(t)", "index", "it uses its row's handle"},
		{"float64 conversion", "from T t  set t.F = float32(float64(t.F) * 2)", "float64(", "a conversion to float64 (SIMD variants take float32 and int32)"},
	}
	const head = "system S(phase: update) { "
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.Load("x.tw", []byte(tables+head+tc.body+" }"))
			require.NoError(t, err)
			notes := codegen.SIMDNotes(s)
			require.Len(t, notes, 1)
			n := notes[0]
			if tc.reason == "" {
				assert.True(t, n.SIMD, n.String())
				assert.Equal(t, "S: SIMD variant (8 rows a vector for avx2, 16 for avx512)", n.String())
				return
			}
			assert.False(t, n.SIMD)
			col := len(head) + strings.Index(tc.body, tc.at) + 1
			assert.Equal(t, fmt.Sprintf("S: no SIMD variant: x.tw:3:%d: %s", col, tc.reason), n.String())
		})
	}
}

// TestMainSIMD: the command writes the SIMD file beside the main one (or
// at -simd) and prints a note per system to stderr.
func TestMainSIMD(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "x.tw")
	require.NoError(t, os.WriteFile(in, []byte(tiny+"system U(phase: update) { from T t  count n }\n"), 0o644))
	var stderr bytes.Buffer
	require.Equal(t, 0, codegen.Main([]string{"-pkg", "x", in}, &stderr), stderr.String())
	simd := filepath.Join(dir, "x_gen_simd.go")
	out, err := os.ReadFile(simd)
	require.NoError(t, err)
	assert.Contains(t, string(out), "func (k *S) simd8(lo, hi int) int {")
	assert.Equal(t, "tickwork-gen: "+simd+": S: SIMD variant (8 rows a vector for avx2, 16 for avx512)\n"+
		"tickwork-gen: "+simd+": U: no SIMD variant: "+in+":3:37: it counts n\n", stderr.String())

	other := filepath.Join(dir, "other.go")
	stderr.Reset()
	require.Equal(t, 0, codegen.Main([]string{"-pkg", "x", "-simd", other, in}, &stderr), stderr.String())
	_, err = os.Stat(other)
	require.NoError(t, err)

	stderr.Reset()
	assert.Equal(t, 2, codegen.Main([]string{"-pkg", "x", "-o", other, "-simd", other, in}, &stderr))
	assert.Contains(t, stderr.String(), "-simd and -o name the same file")
}
