package shop

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tickwork/tickwork/schema/codegen"
)

// TestGeneratedFresh: shop_gen.go and shop_gen_simd.go are what the
// generate line of doc.go writes from shop.tw today (a stale one fails:
// run go generate ./shop in bench/).
func TestGeneratedFresh(t *testing.T) {
	files, _, err := codegen.Files([]string{"-catalog", "-o", "shop_gen.go", "shop.tw"}, "shop", os.ReadFile)
	require.NoError(t, err)
	require.Len(t, files, 2)
	for _, f := range files {
		committed, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		require.Equal(t, string(committed), string(f.Src), "%s is stale: run go generate ./shop in bench/", f.Path)
	}
}
