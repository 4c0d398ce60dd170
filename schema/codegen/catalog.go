package codegen

import (
	"path/filepath"
	"strconv"

	"github.com/tickwork/tickwork/schema"
)

// catalog writes the run-time query catalog of -catalog: the schema's
// file name and text, and Tables.BindCatalog, which hands every table and
// column to a tickwork.CatalogBinder by its schema name (package runq
// reads them: docs/architecture.md, Run-time queries).
func (g *gen) catalog() {
	g.p("// SchemaFile is the schema's file name, for the positions of a run-time")
	g.p("// query catalog's errors (runq.NewCatalogOf).")
	g.p("const SchemaFile = %q", filepath.Base(g.cfg.Source))
	g.p("")
	g.p("// SchemaText is the schema's source text, which a run-time query catalog")
	g.p("// checks queries against (runq.NewCatalogOf(SchemaFile, SchemaText,")
	g.p("// t.BindCatalog)).")
	g.p("const SchemaText = %s", strconv.Quote(string(g.cfg.Text)))
	g.p("")
	g.p("// BindCatalog binds every table and column of t to b by its schema name")
	g.p("// (tickwork.CatalogBinder: a runq.Catalog), and returns b's first error.")
	g.p("// Set-up only, from one goroutine.")
	g.p("func (t *Tables) BindCatalog(b tickwork.CatalogBinder) error {")
	g.p("for _, err := range [...]error{")
	for _, tb := range g.s.Tables {
		g.p("b.BindTable(%q, t.%s.Table),", tb.Name, exported(tb.Name))
		for _, c := range tb.Columns {
			g.p("b.Bind%s(%q, %q, %s),", binderKind(c.Type), tb.Name, c.Name, columnRef(c))
		}
	}
	g.p("} {")
	g.p("if err != nil {")
	g.p("return err")
	g.p("}")
	g.p("}")
	g.p("return nil")
	g.p("}")
	g.p("")
}

// binderKind is the CatalogBinder method suffix of a column's type.
func binderKind(t schema.Type) string {
	switch t.Kind {
	case schema.Int32:
		return "Int32"
	case schema.Int64:
		return "Int64"
	case schema.Float32:
		return "Float32"
	case schema.Float64:
		return "Float64"
	case schema.Bool:
		return "Bool"
	}
	return "Handle"
}
