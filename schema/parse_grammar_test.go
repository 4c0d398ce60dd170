package schema

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// grammar is the EBNF of the parser, with the syntax tree's type names as
// production names.
func grammar() string { return strings.ReplaceAll(parser.String(), "Syn", "") }

// TestGrammarDoc: docs/schema.md carries the parser's grammar exactly.
func TestGrammarDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/schema.md")
	require.NoError(t, err)
	require.Contains(t, string(doc), "```ebnf\n"+grammar()+"\n```",
		"docs/schema.md's grammar is stale: paste the output of `go test ./schema -run TestGrammarDoc -v` into its ebnf block")
}

func TestPrintGrammar(t *testing.T) {
	if testing.Verbose() {
		t.Log("\n" + grammar())
	}
}
