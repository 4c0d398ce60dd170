package codegen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// TestSubscribeTopNDocNamesTheLimitParameter: the generated SubscribeS of
// a top-N whose limit is a parameter says that parameter below 1 is the
// root's error; with a constant limit (the checker refuses one below 1)
// the doc does not.
func TestSubscribeTopNDocNamesTheLimitParameter(t *testing.T) {
	const src = `table Unit(capacity: 64) { Hp: int32 }
query ByN(n: int32) { from Unit u select u.Hp order by u.Hp limit n }
query By3() { from Unit u select u.Hp order by u.Hp limit 3 }
subscription TopN of ByN
subscription Top3 of By3
`
	s, err := schema.Load("x.tw", []byte(src))
	require.NoError(t, err)
	out, err := codegen.Generate(s, codegen.Config{Package: "x", Command: "tickwork-gen", Source: "x.tw"})
	require.NoError(t, err)
	doc := strings.ReplaceAll(string(out), "\n// ", " ")
	assert.Contains(t, doc, "A limit n below 1 records that error too (TopSpec needs N of at least 1)")
	assert.Equal(t, 1, strings.Count(doc, "below 1 records"), "only the parameter limit's SubscribeS names it")
}
