package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const input = `BenchmarkCorpus/count_units/hand-2         	42123892	        15.58 ns/op	         1.000 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/count_units/sqlite-2       	   10000	     54192 ns/op	         1.000 rows	     488 B/op	      16 allocs/op
BenchmarkCorpus/count_units/sqlite_index-2 	    5575	     43015 ns/op	         1.000 rows	     488 B/op	      16 allocs/op
BenchmarkCorpus/weakest_units/hand-2       	    2263	    245779 ns/op	        10.00 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/weakest_units/sqlite-2     	      13	  40243786 ns/op	        10.00 rows	     857 B/op	      41 allocs/op
BenchmarkCorpus/ix_top_scores/generated-2  	  100000	       500 ns/op	        20.00 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/ix_top_scores/scan-2       	    1000	     90000 ns/op	        20.00 rows	       0 B/op	       0 allocs/op
BenchmarkCorpus/ix_top_scores/sqlite_index-2	   10000	     60000 ns/op	        20.00 rows	     900 B/op	      40 allocs/op
`

func TestRun(t *testing.T) {
	var out strings.Builder
	png := filepath.Join(t.TempDir(), "corpus.png")
	require.NoError(t, run(strings.NewReader(input), &out, png))
	assert.Contains(t, out.String(), "weakest_units")
	assert.Contains(t, out.String(), "164×", "40243786 / 245779")
	assert.Contains(t, out.String(), "index-served cases")
	assert.Contains(t, out.String(), "the runq lane")
	assert.Contains(t, out.String(), "120× (120–120)", "ix_top_scores: sqlite_index / indexed")
	assert.Contains(t, out.String(), "180× (180–180)", "ix_top_scores: scan / indexed")
	st, err := os.Stat(png)
	require.NoError(t, err)
	assert.Positive(t, st.Size())
}

func TestRunNoResults(t *testing.T) {
	require.ErrorIs(t, run(strings.NewReader("PASS\n"), &strings.Builder{}, ""), errNoResults)
}
