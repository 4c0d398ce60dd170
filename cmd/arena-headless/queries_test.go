package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueriesFlag: -queries prints the table of the arena's four declared
// queries after the runtime's report, with -json their figures and rows
// (handles as index and generation); without it neither appears; it needs
// the runtime.
func TestQueriesFlag(t *testing.T) {
	code, out, errOut := runArgs(append(smallArgs, "-impl", "runtime")...)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "queries")

	code, out, errOut = runArgs(append(smallArgs, "-impl", "runtime", "-queries")...)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `queries   query +p50 µs +bytes/call +rows\n`, out)
	for _, q := range []string{"CountUnits", "WeakestUnits", "BodiesInBox", "HitTotalsByTarget"} {
		assert.Regexp(t, `\n {10}`+q+` +[0-9.]+ +[0-9.]+ +[0-9]+\n`, out)
	}
	assert.Regexp(t, `\n {10}CountUnits +[0-9.]+ +[0-9.]+ +1\n`, out)
	assert.Regexp(t, `\n {10}WeakestUnits +[0-9.]+ +[0-9.]+ +10\n`, out)
	assert.Contains(t, out, "\n            plan: index UnitsByHealth (sorted on Unit(Health)): ascending walk in (Health, index), first n\n")
	assert.Contains(t, out, "\n            plan: scan Body (ascending index); filter\n", "BodiesInBox: arena.tw declares no grid")
	assert.Contains(t, out, "\n            plan: index HitsByTarget (hash on HitEvent(Target)): a walk per group of Target")
	assert.Contains(t, out, "\n            plan: count the live rows of Unit (Table.Len)\n")

	code, out, errOut = runArgs(append(smallArgs, "-impl", "runtime", "-queries", "-json")...)
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Impls []struct {
			Queries []struct {
				Query        string            `json:"query"`
				Plan         string            `json:"plan"`
				P50US        float64           `json:"p50_us"`
				BytesPerCall float64           `json:"bytes_per_call"`
				Rows         int               `json:"rows"`
				Result       []json.RawMessage `json:"result"`
			} `json:"queries"`
		} `json:"impls"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	qs := rep.Impls[0].Queries
	require.Len(t, qs, 4)
	assert.Contains(t, qs[1].Plan, "index UnitsByHealth (sorted", "-json carries each plan")
	assert.Equal(t, "scan Body (ascending index); filter", qs[2].Plan, "-json carries each plan")
	for _, q := range qs {
		assert.NotEmpty(t, q.Plan, q.Query)
		assert.Len(t, q.Result, q.Rows, q.Query)
		assert.Zero(t, q.BytesPerCall, "%s allocates", q.Query)
	}
	var count []struct{ Count int64 }
	require.NoError(t, json.Unmarshal([]byte("["+string(qs[0].Result[0])+"]"), &count))
	assert.Equal(t, int64(1000), count[0].Count, "every slot holds a unit after the frame's respawns")
	var weak struct {
		Unit struct {
			Index      uint32 `json:"index"`
			Generation uint32 `json:"generation"`
		} `json:"unit"`
		Health int32 `json:"health"`
	}
	require.NoError(t, json.Unmarshal(qs[1].Result[0], &weak))
	assert.Positive(t, weak.Unit.Generation)
	assert.Less(t, weak.Unit.Index, uint32(1000))

	code, _, errOut = runArgs(append(smallArgs, "-impl", "soa", "-queries")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-queries needs the runtime")
}
