package schema

import "strconv"

// TypeKind is the kind of a [Type].
type TypeKind uint8

// The kinds of types. UntypedInt and UntypedFloat are the types of
// literals (and of @dt) before their context gives them one; no column,
// field or constant has them.
const (
	Invalid TypeKind = iota // an expression whose error was reported
	Int32
	Int64
	Float32
	Float64
	Bool
	Ref        // a generational handle of an entity of Type.Table's domain
	StructKind // a declared struct, Type.Struct: a column or resource field only, never a value
	ArrayKind  // [Type.Len]Type.Elem: a resource field only, whose elements a body reads
	UntypedInt
	UntypedFloat
)

// Type is the type of a column, field, constant or expression.
type Type struct {
	Kind   TypeKind
	Table  *Table  // Ref: the table named by `ref T`
	Struct *Struct // StructKind
	Elem   *Type   // ArrayKind: the element type (a basic type)
	Len    int     // ArrayKind: the number of elements
}

var basicTypes = map[string]TypeKind{"int32": Int32, "int64": Int64, "float32": Float32, "float64": Float64, "bool": Bool}

// String is the type as the schema writes it: "int32", "ref Body", ...
func (t Type) String() string {
	switch t.Kind {
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Bool:
		return "bool"
	case Ref:
		if t.Table == nil {
			return "ref"
		}
		return "ref " + t.Table.Name
	case StructKind:
		if t.Struct == nil {
			return "struct"
		}
		return t.Struct.Name
	case ArrayKind:
		if t.Elem == nil {
			return "array"
		}
		return "[" + strconv.Itoa(t.Len) + "]" + t.Elem.String()
	case UntypedInt:
		return "untyped integer"
	case UntypedFloat:
		return "untyped float"
	}
	return "invalid type"
}

// IsInteger reports int32, int64 and untyped integers.
func (t Type) IsInteger() bool { return t.Kind == Int32 || t.Kind == Int64 || t.Kind == UntypedInt }

// IsFloat reports float32, float64 and untyped floats.
func (t Type) IsFloat() bool { return t.Kind == Float32 || t.Kind == Float64 || t.Kind == UntypedFloat }

// IsNumeric reports integer and float types.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// IsUntyped reports the types of literals before their context.
func (t Type) IsUntyped() bool { return t.Kind == UntypedInt || t.Kind == UntypedFloat }

// Identical reports whether values of t and u mix: the same kind, and for
// refs tables of one domain (a handle names an entity of the domain, so it
// is valid in each of the domain's tables).
func (t Type) Identical(u Type) bool {
	if t.Kind != u.Kind {
		return false
	}
	if t.Kind == StructKind {
		return t.Struct == u.Struct
	}
	if t.Kind == ArrayKind {
		return t.Len == u.Len && t.Elem != nil && u.Elem != nil && t.Elem.Identical(*u.Elem)
	}
	if t.Kind != Ref || t.Table == u.Table {
		return true
	}
	return t.Table != nil && u.Table != nil && t.Table.Domain != nil && t.Table.Domain == u.Table.Domain
}
