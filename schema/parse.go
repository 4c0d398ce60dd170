package schema

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// keywords are reserved: never a name.
var keywords = []string{
	"and", "const", "count", "delete", "domain", "else", "emit", "entity", "event",
	"extern", "false", "from", "join", "match", "not", "on", "or", "ref", "resource", "set",
	"struct", "system", "table", "true",
}

var schemaLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "Float", Pattern: `[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "At", Pattern: `@[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Keyword", Pattern: `\b(?:` + strings.Join(keywords, "|") + `)\b`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Punct", Pattern: `=>|==|!=|<=|>=|\+=|-=|\*=|[-+*/%<>=(){}\[\]:,.]`},
})

var parser = participle.MustBuild[File](
	participle.Lexer(schemaLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.UseLookahead(0),
)

// Limits of the schema text Parse accepts: its size in bytes; how deep
// brackets and prefix operators (-, not) may nest, which bounds the
// parser's recursion; and how many operators one expression may have
// (a chain a + b + c ... is as deep as it is long in the tree, and
// go/format, which prints the generated code, is quadratic in that depth).
const (
	MaxSize      = 1 << 20
	MaxDepth     = 64
	MaxOperators = 1024
)

// Parse parses the schema text src of the file named filename (used in
// positions only). It returns the syntax tree, or an [ErrorList] holding
// one *Error of KindSyntax (errors.Is [ErrSyntax]). It does not check
// names or types: see [Check] and [Load]. Safe for concurrent use.
func Parse(filename string, src []byte) (*File, error) {
	if len(src) > MaxSize {
		return nil, ErrorList{{Pos: Pos{File: filename}, Kind: KindSyntax,
			Msg: fmt.Sprintf("schema is %d bytes, more than the limit of %d; split it", len(src), MaxSize)}}
	}
	if !utf8.Valid(src) {
		return nil, ErrorList{{Pos: firstInvalid(filename, src), Kind: KindSyntax, Msg: "invalid UTF-8; save the schema as UTF-8"}}
	}
	if e := tooDeep(filename, src); e != nil {
		return nil, ErrorList{e}
	}
	f, err := parser.ParseBytes(filename, src)
	if err != nil {
		return nil, ErrorList{syntaxError(filename, src, err)}
	}
	return f, nil
}

// syntaxError turns a participle or lexer error into an *Error with a
// message in the schema's terms.
func syntaxError(filename string, src []byte, err error) *Error {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &Error{Pos: Pos{File: filename}, Kind: KindSyntax, Msg: err.Error()}
	}
	p := perr.Position()
	e := &Error{Pos: Pos{File: filename, Line: p.Line, Col: p.Column}, Kind: KindSyntax}
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) {
		e.Msg = lexMessage(perr.Message())
		return e
	}
	t := ute.Unexpected
	want := expectation(ute.Message())
	if want == "" {
		want = "a declaration (const, domain, table, event table, lifecycle, struct, resource, index, extern system, system or query)"
	}
	e.Msg = "unexpected " + describe(t) + "; expected " + want
	switch t.Value {
	case "=", "+=", "-=", "*=":
		if !strings.Contains(want, "+=") {
			e.Msg += "; only set assigns (== compares; a when condition only reads: a hand-written system writes a resource)"
		}
	case "==":
		if strings.Contains(want, "+=") {
			e.Msg += "; set assigns with =, == compares"
		} else if compared(src, t) {
			e.Msg += "; " + chainHint
		}
	case "<", ">":
		if shift(src, t) {
			if o := t.Pos.Offset; o > 0 && src[o-1] == t.Value[0] {
				e.Pos.Col-- // the shift's first character
			}
			e.Msg = "unexpected \"" + t.Value + t.Value + "\"; " + shiftHint
			break
		}
		fallthrough
	case "!=", "<=", ">=":
		if compared(src, t) {
			e.Msg += "; " + chainHint
		}
	case "and":
		if afterChangeFilter(src, t) {
			e.Msg += "; " + changeAndHint
		}
	}
	if t.Type == symKeyword && nextIs(src, t, ":") {
		e.Msg += "; " + t.Value + " is a reserved word: choose another name"
	}
	return e
}

var (
	symKeyword = schemaLexer.Symbols()["Keyword"]
	symIdent   = schemaLexer.Symbols()["Ident"]
	symInt     = schemaLexer.Symbols()["Int"]
	symFloat   = schemaLexer.Symbols()["Float"]
	symAt      = schemaLexer.Symbols()["At"]
	symComment = schemaLexer.Symbols()["Comment"]
	symSpace   = schemaLexer.Symbols()["Whitespace"]
)

// describe names a token as a schema author sees it.
func describe(t lexer.Token) string {
	switch {
	case t.EOF():
		return "end of file"
	case t.Type == symKeyword:
		return "keyword " + t.Value
	case t.Type == symIdent:
		return "name " + t.Value
	case t.Type == symInt, t.Type == symFloat:
		return "number " + t.Value
	case t.Type == symAt:
		return t.Value
	}
	return strconv.Quote(t.Value)
}

// productions names the grammar's productions as a schema author knows
// them, for "expected ..." (the grammar is in syntax.go).
var productions = map[string]string{
	"SynIdent": "a name", "SynOptKey": "an option name", "SynTypeExpr": "a type (int32, int64, float32, float64, bool, ref TABLE, a struct or [N]TYPE)",
	"SynExpr": "an expression", "SynAndExpr": "an expression", "SynNotExpr": "an expression", "SynCmpExpr": "an expression",
	"SynAddExpr": "an expression", "SynMulExpr": "an expression", "SynUnary": "an expression", "SynPrimary": "an expression",
	"SynNameExpr": "an expression", "SynOptValue": "a value", "SynOption": "an option NAME: VALUE",
	"SynBody": "from TABLE VAR (a system body starts with the rows it runs over)", "SynFromClause": "from TABLE VAR",
	"SynColExpr": "VAR.COLUMN", "SynChange": "changed(VAR.COLUMN) or added(VAR)", "SynResField": "NAME: TYPE", "SynAssign": "VAR.COLUMN = EXPR", "SynField": "NAME: TYPE", "SynFieldInit": "FIELD: EXPR",
	"SynStmt": "a statement (set, match, emit, delete or count)", "SynArm": "a match arm COND => { ... }",
	"SynDecl": "a declaration (const, domain, table, event table, lifecycle, struct, resource, index, extern system, system or query)",
	"<ident>": "a name", "<int>": "an integer", "<float>": "a number", "<at>": "@dt or @tick",
}

// expectation rewrites the first term of participle's "(expected X)"
// tail, or returns "" when there is none.
func expectation(msg string) string {
	i := strings.LastIndex(msg, "(expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return ""
	}
	terms := firstTerms(msg[i+len("(expected ") : len(msg)-1])
	if len(terms) == 0 {
		return ""
	}
	for i, t := range terms {
		if d, ok := productions[t]; ok {
			terms[i] = d
		}
	}
	terms = slices.Compact(terms)
	if len(terms) == 1 {
		return terms[0]
	}
	return strings.Join(terms[:len(terms)-1], ", ") + " or " + terms[len(terms)-1]
}

// firstTerms returns the alternatives that may start an EBNF sequence:
// its first term, or the first term of each alternative of a leading
// group.
func firstTerms(ebnf string) []string {
	toks := ebnfTokens(ebnf)
	if len(toks) == 0 {
		return nil
	}
	if toks[0] != "(" {
		return toks[:1]
	}
	var out []string
	depth, start := 0, true
	for _, t := range toks {
		switch t {
		case "(":
			depth++
			continue
		case ")":
			depth--
			if depth == 0 {
				return out
			}
			continue
		case "|":
			if depth == 1 {
				start = true
			}
			continue
		}
		if start && depth >= 1 {
			out = append(out, t)
			start = false
		}
	}
	return out
}

// ebnfTokens splits participle's EBNF text into quoted literals, names,
// parentheses and operators.
func ebnfTokens(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return append(toks, s[i:])
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		case strings.IndexByte("()|*?+!", c) >= 0:
			toks = append(toks, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && strings.IndexByte(" ()|*?+!\"", s[j]) < 0 {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

// lexMessage rewrites a lexer error's message.
func lexMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "lexer: ")
	if rest, ok := strings.CutPrefix(msg, "invalid input text "); ok {
		if text, err := strconv.Unquote(rest); err == nil && text != "" {
			r, _ := utf8.DecodeRuneInString(text)
			rest = strconv.QuoteRune(r)
		}
		return "unexpected character " + rest + "; names are ASCII letters, digits and _, comments start with //"
	}
	return msg
}

// nextIs reports whether the token after t in src is the punctuation p.
// shiftHint is the message of a << or >> in a schema.
const shiftHint = "shifts are not in the language: multiply or divide by a power of two instead " +
	"(x * 16 for x << 4; x / 16 for x >> 4 when x is not negative, since / truncates toward zero), " +
	"or compute the value in a hand-written (extern) system"

// changeAndHint is the message of an and after a change filter.
const changeAndHint = "change filters are joined only by or: a filter selects the chunks changed since the " +
	"system's last run, and two columns changed in one chunk need not have changed in one row, so and " +
	"could not be kept; write where changed(x.A) or changed(x.B) (docs/architecture.md, Change detection)"

// shift reports whether t, a "<" or ">", is half of a << or >>: the same
// character right before or after it.
func shift(src []byte, t lexer.Token) bool {
	o := t.Pos.Offset
	return o > 0 && src[o-1] == t.Value[0] || o+1 < len(src) && src[o+1] == t.Value[0]
}

// chainHint follows an unexpected comparison operator that comes after
// another comparison (compared).
const chainHint = "comparisons do not chain: join them with and"

// compared reports whether a comparison operator (==, !=, <, <=, >, >=)
// comes before t in its operand run: the text back to the last {, }, ;,
// (, , or the word and, or, where, on or when.
func compared(src []byte, t lexer.Token) bool {
	before := src[:min(t.Pos.Offset, len(src))]
	if i := bytes.LastIndexAny(before, "{};(,"); i >= 0 {
		before = before[i+1:]
	}
	for _, w := range []string{"and", "or", "where", "on", "when"} {
		if i := lastWord(before, w); i >= 0 {
			before = before[i+len(w):]
		}
	}
	before = bytes.ReplaceAll(before, []byte("=>"), nil)
	return bytes.ContainsAny(before, "<>") || bytes.Contains(before, []byte("==")) || bytes.Contains(before, []byte("!="))
}

// lastWord is the offset of the last whole word w in b, -1 when none.
func lastWord(b []byte, w string) int {
	for end := len(b); ; {
		i := bytes.LastIndex(b[:end], []byte(w))
		if i < 0 {
			return -1
		}
		if (i == 0 || !identByte(b[i-1])) && (i+len(w) == len(b) || !identByte(b[i+len(w)])) {
			return i
		}
		end = i
	}
}

func identByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// afterChangeFilter reports whether t follows a change filter of a
// from clause: the text before it ends in ")" and, back to the last
// where, starts with changed( or added( and holds no {, } or ;.
func afterChangeFilter(src []byte, t lexer.Token) bool {
	before := bytes.TrimRight(src[:min(t.Pos.Offset, len(src))], " \t\r\n")
	if !bytes.HasSuffix(before, []byte(")")) {
		return false
	}
	i := bytes.LastIndex(before, []byte("where"))
	if i < 0 {
		return false
	}
	clause := bytes.TrimLeft(before[i+len("where"):], " \t\r\n")
	return (bytes.HasPrefix(clause, []byte("changed")) || bytes.HasPrefix(clause, []byte("added"))) &&
		!bytes.ContainsAny(clause, "{};")
}

func nextIs(src []byte, t lexer.Token, p string) bool {
	rest := src[min(t.Pos.Offset+len(t.Value), len(src)):]
	rest = bytes.TrimLeft(rest, " \t\r\n")
	return bytes.HasPrefix(rest, []byte(p))
}

// tooDeep reports the first bracket or prefix operator nested deeper than
// MaxDepth, or nil. Lexing errors are left to the parser.
func tooDeep(filename string, src []byte) *Error {
	lx, err := schemaLexer.LexString(filename, string(src))
	if err != nil {
		return nil
	}
	depth, prefix, ops := 0, 0, 0
	var start lexer.Position // of the expression ops counts in
	prev := ""
	for {
		t, err := lx.Next()
		if err != nil || t.EOF() {
			return nil
		}
		switch t.Type {
		case symComment, symSpace:
			continue
		}
		braces := false
		switch t.Value {
		case "(", "[", "{":
			depth++
			braces = t.Value == "{"
		case ")", "]", "}":
			depth--
		}
		if t.Value == "-" || t.Value == "not" {
			prefix++
		} else if t.Value != "(" {
			prefix = 0
		}
		switch {
		case exprOperators[t.Value] && (t.Type != symIdent):
			if ops == 0 {
				start = t.Pos
			}
			ops++
		case t.Type == symIdent, t.Type == symInt, t.Type == symFloat, t.Type == symAt,
			t.Value == "(", t.Value == ")", t.Value == ".", t.Value == "true", t.Value == "false":
			// an operand: the expression goes on
		default: // anything else ends an expression
			ops = 0
		}
		switch {
		case braces && depth > MaxDepth:
			what := "blocks ({ }: a table's, a system's, each match's and each arm's)"
			if prev == "match" || prev == "=>" {
				what = "match blocks (a match and each of its arms are one level each)"
			}
			return &Error{Pos: pos(filename, t.Pos), Kind: KindSyntax,
				Msg: fmt.Sprintf("nesting deeper than %d %s; flatten the matches: combine their conditions with and", MaxDepth, what)}
		case depth > MaxDepth || prefix > MaxDepth:
			return &Error{Pos: pos(filename, t.Pos), Kind: KindSyntax,
				Msg: fmt.Sprintf("nesting deeper than %d brackets or prefix operators; simplify the expression", MaxDepth)}
		case ops > MaxOperators:
			return &Error{Pos: pos(filename, start), Kind: KindSyntax,
				Msg: fmt.Sprintf("expression with more than %d operators; split it: set a column in several steps, or name parts as constants", MaxOperators)}
		}
		prev = t.Value
	}
}

// exprOperators are the tokens tooDeep counts as an expression's
// operators.
var exprOperators = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true, "and": true, "or": true, "not": true}

// firstInvalid is the position of the first invalid UTF-8 byte of src.
func firstInvalid(filename string, src []byte) Pos {
	p := Pos{File: filename, Line: 1, Col: 1}
	for len(src) > 0 {
		r, n := utf8.DecodeRune(src)
		if r == utf8.RuneError && n <= 1 {
			return p
		}
		if r == '\n' {
			p.Line, p.Col = p.Line+1, 1
		} else {
			p.Col += n
		}
		src = src[n:]
	}
	return p
}

// pos converts a participle position.
func pos(filename string, p lexer.Position) Pos {
	return Pos{File: filename, Line: p.Line, Col: p.Column}
}
