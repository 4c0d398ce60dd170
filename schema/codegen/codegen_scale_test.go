package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// chain is a schema whose one assignment is a left-deep sum of n terms
// (t.X + 1 + 1 ...), in a float or an int column.
func chain(n int, typ string) []byte {
	return []byte(fmt.Sprintf("table T(capacity: 10) { X: %s }\nsystem S(phase: update) { from T t set t.X = t.X%s }\n",
		typ, strings.Repeat(" + 1", n-1)))
}

// BenchmarkGenerateChain shows how generation scales with one
// expression's size: the time per term should stay flat.
func BenchmarkGenerateChain(b *testing.B) {
	for _, n := range []int{64, 256, schema.MaxOperators + 1} {
		src := chain(n, "float32")
		s, err := schema.Load("c.tw", src)
		require.NoError(b, err)
		cfg := codegen.Config{Package: "c", Command: "c", Source: "c.tw"}
		b.Run(fmt.Sprintf("main/terms=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := codegen.Generate(s, cfg)
				require.NoError(b, err)
			}
		})
		b.Run(fmt.Sprintf("simd/terms=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := codegen.GenerateSIMD(s, cfg)
				require.NoError(b, err)
			}
		})
	}
}

// TestGenerateAtLimit: an expression of schema.MaxOperators operators
// generates (both files; TestGeneratedCompiles builds them), and one more
// is refused by the parser with its position, before any generation.
func TestGenerateAtLimit(t *testing.T) {
	for _, typ := range []string{"float32", "int32"} {
		t.Run(typ, func(t *testing.T) {
			s, err := schema.Load("c.tw", chain(schema.MaxOperators+1, typ))
			require.NoError(t, err)
			cfg := codegen.Config{Package: "c", Command: "c", Source: "c.tw"}
			main, err := codegen.Generate(s, cfg)
			require.NoError(t, err)
			require.Contains(t, string(main), strings.Repeat(" + 1", schema.MaxOperators))
			simd, err := codegen.GenerateSIMD(s, cfg)
			require.NoError(t, err)
			require.Contains(t, string(simd), "func (k *S) simd16(lo, hi int) int {")
			_, err = schema.Load("c.tw", chain(schema.MaxOperators+2, typ))
			require.ErrorIs(t, err, schema.ErrSyntax)
			require.EqualError(t, err, "c.tw:2:50: expression with more than 1024 operators; split it: set a column in several steps, or name parts as constants")
		})
	}
}
