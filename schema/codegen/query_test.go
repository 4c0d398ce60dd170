package codegen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// TestQueryParamsKeepTheirNames: a query's parameters keep their schema
// names in Run's signature when no local of Run holds the name (t and d
// name the constructors' parameters, not Run's locals); a name a local
// of Run holds (lo) is renamed.
func TestQueryParamsKeepTheirNames(t *testing.T) {
	const src = `table Item(capacity: 64) {
	Owner: ref Item
	Score: int32
}
query ByOwner(t: ref Item, d: int32) { from Item i where i.Owner == t and i.Score > d select i }
query Above(lo: int32) { from Item i where i.Score > lo select i }
`
	s, err := schema.Load("x.tw", []byte(src))
	require.NoError(t, err)
	out, err := codegen.Generate(s, codegen.Config{Package: "x", Command: "tickwork-gen", Source: "x.tw"})
	require.NoError(t, err)
	assert.Contains(t, string(out), "func (q *ByOwner) Run(dst []ByOwnerRow, t tickwork.Handle, d int32) []ByOwnerRow {")
	assert.Contains(t, string(out), "func (q *Above) Run(dst []AboveRow, lo2 int32) []AboveRow {")
}
