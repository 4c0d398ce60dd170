package systems

// Resource is a typed datum outside tables (a random stream, counters, a
// configuration) that systems declare read or written like a column
// (ReadResource, WriteResource) and that the scheduler conflict-checks by
// identity. Make it on the world's builder (runtime.AddResource).
type Resource[T any] struct {
	name  string
	v     T
	state resourceState // how a snapshot holds v (resource_state.go)
	spare *T            // a codec's (or a checked resource's) scratch value for CheckState, made on first use
	// Declared at set-up (SetLenBounds, SetCheck; docs/state.md, "Sizes"):
	// a slice resource's length bounds in elements, and the host's check
	// of a restored value.
	lens   [2]int
	hasLen bool
	check  func(*T) error
	enc    []byte // a codec's encoding for StateSize, kept
}

// NewResource returns a resource named name (for conflict messages)
// holding v. It allocates; call it at set-up.
func NewResource[T any](name string, v T) *Resource[T] {
	return &Resource[T]{name: name, v: v, state: stateOf[T]()}
}

// Name is the resource's name.
func (r *Resource[T]) Name() string { return r.name }

// Get returns a pointer to the value, for the host between frames (set-up,
// reading results). Systems use the pointer their declaration gave.
func (r *Resource[T]) Get() *T { return &r.v }

// ReadResource declares that the system reads r and returns a pointer to
// its value. The pointer of a read must not be written through
// (docs/architecture.md, Access rules). A nil r fails the declaration.
func ReadResource[T any](s *Decl, r *Resource[T]) *T {
	return resourceAccess(s.use("ReadResource"), "ReadResource", r, false)
}

// WriteResource declares that the system reads and writes r and returns a
// pointer to its value. A nil r fails the declaration.
func WriteResource[T any](s *Decl, r *Resource[T]) *T {
	return resourceAccess(s.use("WriteResource"), "WriteResource", r, true)
}

func resourceAccess[T any](d *Decl, call string, r *Resource[T], write bool) *T {
	if r == nil {
		d.fail(call, "nil resource (the AddResource that made it failed: its error comes first)")
		return new(T)
	}
	d.man.Use(r, write)
	return &r.v
}
