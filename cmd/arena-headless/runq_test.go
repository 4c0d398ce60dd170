package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryFlag: -query (twice: a bare body and a declaration) prints each
// text's plan, median time, row count, columns and first 20 rows after
// the runtime's report; -json carries the same under "query_texts", the
// count of live units equal to -queries' CountUnits.
func TestQueryFlag(t *testing.T) {
	args := append(smallArgs, "-impl", "runtime",
		"-query", "from Unit u where u.Health >= 0 select u, u.Health order by u.Health desc",
		"-query", "query Live() { from Unit u select count() }")
	code, out, errOut := runArgs(args...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "\nquery     from Unit u where u.Health >= 0 select u, u.Health order by u.Health desc\n            plan: scan Unit (ascending index)")
	assert.Regexp(t, `\n {12}p50 [0-9.]+ µs, 1000 rows \(1000 rows visited\)\n {12}Unit\tHealth\n`, out)
	assert.Contains(t, out, "\n            ... 980 more rows\n")
	assert.Contains(t, out, "\nquery     query Live() { from Unit u select count() }\n            plan: count the live rows of Unit (Table.Len)\n")
	assert.Regexp(t, `\n {12}Count\n {12}1000\n`, out)

	code, out, errOut = runArgs(append(args, "-json")...)
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Impls []struct {
			QueryTexts []struct {
				Text    string            `json:"text"`
				Plan    string            `json:"plan"`
				Columns []string          `json:"columns"`
				P50US   float64           `json:"p50_us"`
				Rows    int               `json:"rows"`
				Result  []json.RawMessage `json:"result"`
			} `json:"query_texts"`
		} `json:"impls"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	qs := rep.Impls[0].QueryTexts
	require.Len(t, qs, 2)
	assert.Equal(t, []string{"Unit", "Health"}, qs[0].Columns)
	assert.Equal(t, 1000, qs[0].Rows)
	require.Len(t, qs[0].Result, 20, "the first 20 rows")
	var row []json.RawMessage
	require.NoError(t, json.Unmarshal(qs[0].Result[0], &row))
	require.Len(t, row, 2)
	var h handleJSON
	require.NoError(t, json.Unmarshal(row[0], &h))
	assert.Positive(t, h.Generation)
	var prev int32 = 1 << 30
	for _, raw := range qs[0].Result {
		var r []json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &r))
		var hp int32
		require.NoError(t, json.Unmarshal(r[1], &hp))
		assert.LessOrEqual(t, hp, prev, "order by u.Health desc")
		prev = hp
	}
	assert.Equal(t, "[1000]", string(qs[1].Result[0]))
	assert.Positive(t, qs[1].P50US+1)
}

// TestQueryFlagBadText: a bad -query text stops the command before any
// frame with exit status 2 and the error, positioned in the text as
// written (a bare body's columns are its own), on stderr; so do a text
// with parameters, an empty one and -impl soa. Never a panic.
func TestQueryFlagBadText(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"from Unit u where u.Mana < 3 select u", `-query 2 ("from Unit u where u.Mana < 3 select u"): query:1:21: unknown column "Mana"`},
		{"query Q() { from Unit u where u.Mana < 3 select u }", `query:1:33: unknown column "Mana"`},
		{"from Nowhere n select n", `query:1:6: `},
		{"query Q(n: int32) { from Unit u select u limit n }", "query:1:1: -query runs a query without parameters, this one has (n int32): write their values into the text"},
		{"\x01\xff garbage", "query:1:2: invalid UTF-8"},
		{"from Unit u select", `query:1:20: unexpected "}"`},
		{strings.Repeat("(", 5000), "query:1:"},
		{"   ", "-query needs a query text, got an empty one"},
	} {
		code, out, errOut := runArgs(append(smallArgs, "-impl", "runtime", "-query", "from Unit u select u", "-query", c.text)...)
		assert.Equal(t, 2, code, "%q: %s", c.text, errOut)
		assert.Contains(t, errOut, c.want, c.text)
		assert.NotContains(t, errOut, "panic", c.text)
		assert.NotContains(t, out, "digest", "%q: no frame runs", c.text)
	}
	code, _, errOut := runArgs(append(smallArgs, "-impl", "soa", "-query", "from Unit u select u")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-query needs the runtime")
}
