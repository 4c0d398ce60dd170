package codegen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
	"github.com/tickwork/tickwork/schema/codegen"
)

// TestCatalogBindsEveryColumn: with Catalog set, the generated file holds
// the schema's text and a BindCatalog that binds each table and column,
// struct fields by their "Pos.X" names, through the method of its type;
// without it, none of them.
func TestCatalogBindsEveryColumn(t *testing.T) {
	src := "struct Vec2 { X: float32 Y: float32 }\ndomain D(capacity: 8)\ntable Body(domain: D) {\n\tPos: Vec2\n\tN: int64\n\tOn: bool\n\tT: ref Body\n}\n"
	s, err := schema.Load("c.tw", []byte(src))
	require.NoError(t, err)
	out, err := codegen.Generate(s, codegen.Config{Package: "c", Command: "tickwork-gen -catalog", Source: "dir/c.tw", Catalog: true, Text: []byte(src)})
	require.NoError(t, err)
	for _, want := range []string{
		`const SchemaFile = "c.tw"`,
		`const SchemaText = "struct Vec2 { X: float32 Y: float32 }\ndomain D(capacity: 8)\n`,
		`b.BindTable("Body", t.Body.Table),`,
		`b.BindFloat32("Body", "Pos.X", t.Body.Pos.X),`,
		`b.BindFloat32("Body", "Pos.Y", t.Body.Pos.Y),`,
		`b.BindInt64("Body", "N", t.Body.N),`,
		`b.BindBool("Body", "On", t.Body.On),`,
		`b.BindHandle("Body", "T", t.Body.T),`,
		`func (t *Tables) BindCatalog(b tickwork.CatalogBinder) error {`,
	} {
		require.Contains(t, string(out), want)
	}
	plain, err := codegen.Generate(s, codegen.Config{Package: "c", Command: "tickwork-gen", Source: "c.tw"})
	require.NoError(t, err)
	require.False(t, strings.Contains(string(plain), "BindCatalog"))
}
