package codegen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tickwork/tickwork/schema"
)

// exported is the Go name of a schema name: its first letter upper-cased,
// so that every generated type, field and constant is exported (and never
// a Go keyword or predeclared name, which are all lower-case).
func exported(name string) string { return mapFirst(name, unicode.ToUpper) }

// goCol is the Go name of a column in the generator's locals and fields:
// exported(C), or for field F of struct column C, exported(C)+exported(F)
// ("Pos.X" is PosX).
func goCol(c *schema.Column) string {
	if c.Group != nil {
		return exported(c.Group.Name) + exported(c.Field.Name)
	}
	return exported(c.Name)
}

// unexported lower-cases the first letter.
func unexported(name string) string { return mapFirst(name, unicode.ToLower) }

// mapFirst is name with f applied to its first rune.
func mapFirst(name string, f func(rune) rune) string {
	r, n := utf8.DecodeRuneInString(name)
	if n == 0 {
		return name
	}
	return string(f(r)) + name[n:]
}

// generatedNames are the package-level names the generator itself
// defines (and STRUCTColumns for each struct); a schema name that maps to
// one of them is refused.
var generatedNames = []string{"Sizes", "DefaultSizes", "Tables", "Declare", "Systems", "NewSystems", "Queries", "NewQueries"}

// The exported members the generator defines on the types it emits; a
// schema name that becomes a field of one of them is refused: type
// Systems (a field per system) has the methods All and SetLane, a
// system's type (a field per counter) the method System, a table's type
// (a field per column) the field Table.
var (
	systemsMembers = []string{"All", "SetLane"}
	systemMembers  = []string{"System"}
	tableMembers   = []string{"Table"}
	// The generated STRUCTColumns type (a field per field) has Get and Set.
	structColumnsMembers = []string{"Get", "Set"}
)

// scope records Go names and refuses two schema names that map to one.
type scope struct {
	what  string
	names map[string]schema.Pos
	errs  *schema.ErrorList
}

func newScope(what string, errs *schema.ErrorList, reserved ...string) *scope {
	s := &scope{what: what, names: map[string]schema.Pos{}, errs: errs}
	for _, n := range reserved {
		s.names[n] = schema.Pos{}
	}
	return s
}

// add records the Go name of a schema name declared at p.
func (s *scope) add(goName, schemaName string, p schema.Pos) {
	prev, dup := s.names[goName]
	switch {
	case strings.HasPrefix(schemaName, "_"):
		// _ is Go's blank identifier, and _x stays unexported: the host
		// could not name it.
		*s.errs = append(*s.errs, &schema.Error{Pos: p, Kind: schema.KindValue,
			Msg: fmt.Sprintf("%q starts with _, so its Go name %s would be blank or unexported (the host could not use it); start it with a letter", schemaName, goName)})
	case !dup:
		s.names[goName] = p
	case prev.Line == 0:
		*s.errs = append(*s.errs, &schema.Error{Pos: p, Kind: schema.KindDuplicate,
			Msg: fmt.Sprintf("%q becomes the Go name %s, which the generator defines in %s; rename it", schemaName, goName, s.what)})
	default:
		*s.errs = append(*s.errs, &schema.Error{Pos: p, Kind: schema.KindDuplicate,
			Msg: fmt.Sprintf("%q becomes the Go name %s in %s, as the name declared at %s does; rename one of them", schemaName, goName, s.what, prev)})
	}
}

// locals hands out local variable names that collide with nothing in
// scope: Go keywords and predeclared names, the imported packages and
// the generated package-level names.
type locals struct {
	used map[string]bool
	next map[string]int // per base, the first suffix not yet tried: name stays linear
}

var predeclared = strings.Fields(`any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64
	rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag
	len make max min new panic print println real recover
	tickwork`)

func newLocals(taken ...string) *locals {
	l := &locals{used: map[string]bool{}, next: map[string]int{}}
	for _, n := range predeclared {
		l.used[n] = true
	}
	for _, n := range taken {
		l.used[n] = true
	}
	return l
}

// name returns base, or base2, base3, ... if it is taken, and takes it.
func (l *locals) name(base string) string {
	if token.IsKeyword(base) {
		base += "_"
	}
	n := base
	i := max(l.next[base], 2)
	for ; l.used[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	l.next[base] = i
	l.used[n] = true
	return n
}
