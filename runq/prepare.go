package runq

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// MaxText bounds a run-time query's text, bytes. Nesting and operator
// counts are bounded by the schema front end (schema.MaxDepth,
// schema.MaxOperators).
const MaxText = 8 << 10

// textFile is the file name of a query text's positions.
const textFile = "query"

// Prepare parses text, one query declaration `query NAME(PARAMS) { ... }`
// of the schema language (docs/schema.md, Queries), checks and plans it
// against the catalog's schema with the schema package's checker and
// planner (so it means what the same text declared in the .tw file
// means; NAME must not be a name of the schema), and compiles it once
// into a [*Query] bound to the catalog's columns. Errors are [*Error]s
// positioned in text (file "query"): ErrQuery (too long, not one query
// declaration, or refused by the checker: then also the schema sentinel,
// e.g. schema.ErrUnknown, with the checker's message), ErrUnsupported (a
// family the interpreter does not run yet: docs/architecture.md,
// Run-time queries) and ErrCatalog (a table or column it reads is not
// bound, or cat is nil). Never panics on any text. Safe for concurrent use once the
// catalog is bound.
func Prepare(cat *Catalog, text string) (*Query, error) {
	if cat == nil {
		return nil, &Error{Kind: ErrCatalog, Msg: "runq: the catalog is nil; make one with NewCatalogOf (or NewCatalog and BindColumn) and pass it"}
	}
	if len(text) > MaxText {
		return nil, &Error{Pos: schema.Pos{File: textFile, Line: 1, Col: 1}, Kind: ErrQuery,
			Msg: fmt.Sprintf("query text is %d bytes, more than the limit of %d; shorten it", len(text), MaxText)}
	}
	f, err := schema.Parse(textFile, []byte(text))
	if err != nil {
		return nil, fromSchema(err, textFile, 0)
	}
	if len(f.Decls) != 1 || f.Decls[0].Query == nil {
		p := schema.Pos{File: textFile, Line: 1, Col: 1}
		if len(f.Decls) > 1 {
			p.Line, p.Col = declPos(f, 1)
		}
		return nil, &Error{Pos: p, Kind: ErrQuery,
			Msg: fmt.Sprintf("want exactly one query declaration, `query NAME(PARAMS) { from ... select ... }`; found %s", describeDecls(f))}
	}
	full := cat.src + "\n" + text
	s, err := schema.Load(cat.file, []byte(full))
	if err != nil {
		return nil, fromSchema(err, cat.file, cat.lines+1)
	}
	def := s.Queries[len(s.Queries)-1]
	return compile(cat, def, cat.lines+1)
}

// fromSchema maps the first schema error in the query's lines (those
// after skip lines of the catalog's source file) to an *Error of the text,
// positions in its message included.
func fromSchema(err error, file string, skip int) error {
	var list schema.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return &Error{Pos: schema.Pos{File: textFile}, Kind: ErrQuery, Msg: err.Error()}
	}
	pick := list[0]
	for _, e := range list {
		if e.Pos.Line > skip {
			pick = e
			break
		}
	}
	msg := regexp.MustCompile(regexp.QuoteMeta(file)+`:(\d+):(\d+)`).ReplaceAllStringFunc(pick.Msg, func(m string) string {
		var line, col int
		fmt.Sscanf(m[len(file):], ":%d:%d", &line, &col)
		if line <= skip {
			return m
		}
		return fmt.Sprintf("%s:%d:%d", textFile, line-skip, col)
	})
	if rest, ok := strings.CutPrefix(msg, opsLimit); ok && strings.HasPrefix(rest, "; split it:") {
		// the schema's fix sets a column in steps, which a query cannot
		msg = opsLimit + "; split the expression (into several select items, or a part kept in a column) or simplify it"
	}
	return &Error{Pos: textPos(pick.Pos, skip), Kind: ErrQuery, Msg: msg, cause: pick}
}

// opsLimit begins the schema's error of an expression past
// schema.MaxOperators.
var opsLimit = fmt.Sprintf("expression with more than %d operators", schema.MaxOperators)

// textPos is p, a position of the catalog's source followed by the query
// text, in the text (skip: the source's lines).
func textPos(p schema.Pos, skip int) schema.Pos {
	return schema.Pos{File: textFile, Line: max(p.Line-skip, 1), Col: max(p.Col, 1)}
}

func declPos(f *schema.File, i int) (line, col int) {
	d := f.Decls[i]
	switch {
	case d.Query != nil:
		return d.Query.Pos.Line, d.Query.Pos.Column
	}
	return 1, 1
}

// describeDecls names the declarations of f, for the error of a text that
// is not one query.
func describeDecls(f *schema.File) string {
	if len(f.Decls) == 0 {
		return "nothing"
	}
	var words []string
	for _, d := range f.Decls {
		w := "a declaration"
		switch {
		case d.Query != nil:
			w = "a query"
		case d.System != nil:
			w = "a system (a run-time query only reads)"
		case d.Table != nil, d.Event != nil, d.Domain != nil:
			w = "a table or domain (the catalog's schema is fixed)"
		case d.Const != nil:
			w = "a constant"
		case d.Index != nil:
			w = "an index"
		}
		words = append(words, w)
	}
	return strings.Join(words, ", ")
}
