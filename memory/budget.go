package memory

import (
	"math"
	"math/bits"
	"reflect"
	"strconv"
	"sync/atomic"
)

// DefaultBudget is the budget, in bytes, of a world without
// runtime.WithMemoryBudget and of a standalone table, domain or event table
// whose spec names no Budget: 8 GiB, the same on every machine (why:
// docs/architecture.md, memory budget).
const DefaultBudget int64 = 8 << 30

// Budget counts the bytes charged to it against a fixed limit. A world
// (runtime.Builder) has one for all its definitions; a standalone table or
// event table has a private one unless its spec names a Budget to share.
// Charges are never refunded: storage lives as long as its table.
//
// The zero Budget, and a nil *Budget, have a limit of 0 and refuse every
// nonzero charge; make one with NewBudget. Safe for concurrent use.
type Budget struct {
	limit int64
	owner Owner
	used  atomic.Int64
}

// Owner says who made a budget, so that a refusal can say which limit to
// raise (BudgetError.Error). It changes nothing else. Exported as the type
// of BudgetError.Owner (tickwork.BudgetError), which a host compares with
// the constants below.
type Owner uint8

const (
	// OwnerHost: a budget the host made with NewBudget and passes in specs
	// (ephemeral.TableSpec.Budget, events.Spec.Budget, ...). The zero Owner;
	// a BudgetError of such a budget carries it.
	OwnerHost Owner = iota
	// OwnerPrivate: the private budget of DefaultBudget bytes that a
	// standalone domain, table, event table or command playback makes
	// when its spec names none.
	OwnerPrivate
	// OwnerWorld: a world's budget, made by runtime.NewBuilder from
	// runtime.WithMemoryBudget.
	OwnerWorld
)

// String returns "host", "private", "world" or "Owner(n)".
func (o Owner) String() string {
	switch o {
	case OwnerHost:
		return "host"
	case OwnerPrivate:
		return "private"
	case OwnerWorld:
		return "world"
	}
	return "Owner(" + strconv.Itoa(int(o)) + ")"
}

// NewBudget returns a budget of limit bytes with nothing charged, owned by
// the host (OwnerHost). A limit of 0 or less admits no nonzero charge.
// Allocates one small object. Exported for a host that charges standalone
// tables, event tables and playbacks to one budget of its own
// (ExampleBudget); a world makes its own (tickwork.WithMemoryBudget).
func NewBudget(limit int64) *Budget { return NewOwnedBudget(limit, OwnerHost) }

// NewOwnedBudget is NewBudget for a budget whose owner is not the host:
// the packages that make private budgets (OwnerPrivate) and
// runtime.NewBuilder (OwnerWorld) call it.
func NewOwnedBudget(limit int64, owner Owner) *Budget {
	return &Budget{limit: max(limit, 0), owner: owner}
}

// Limit is the budget's limit in bytes. Fixed at NewBudget.
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// Used is the number of bytes charged so far.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// Left is Limit - Used, in bytes: the largest charge that still fits.
func (b *Budget) Left() int64 { return b.Limit() - b.Used() }

// Charge adds bytes to the budget's use when they fit in what is left, and
// returns nil; otherwise it charges nothing and returns a *BudgetError
// (errors.Is ErrBudget) naming what (the definition, as its Kind, Name,
// Column and Workers), the bytes asked, the bytes already used, the limit
// and the budget's Owner. A
// negative bytes is charged as 0. Safe for concurrent use: of two charges
// that together do not fit, one fails.
func (b *Budget) Charge(what Definition, bytes int64) error {
	bytes = max(bytes, 0)
	if b == nil {
		if bytes == 0 {
			return nil
		}
		return &BudgetError{Definition: what, Bytes: bytes}
	}
	for {
		used := b.used.Load()
		if bytes > b.limit-used {
			return &BudgetError{Definition: what, Bytes: bytes, Used: used, Budget: b.limit, Owner: b.owner}
		}
		if b.used.CompareAndSwap(used, used+bytes) {
			return nil
		}
	}
}

// Definition names what a charge is for, for the error that refuses it.
type Definition struct {
	// Kind is "domain", "table", "column", "event table", "event staging"
	// (an event table's per-worker staging, events.Table.Parallel) or
	// "command buffer" (commands.Playback.NewBuffer: records and their
	// resolutions) or "snapshot ring" (runtime.NewRollback: its
	// preallocated snapshots).
	Kind string
	// Name is the table's, domain's or event table's name (for a column,
	// its table's; for command buffers, the system's, or empty).
	Name string
	// Column is the column's name for Kind "column", else empty.
	Column string
	// Workers is, for a per-worker definition (event staging, a parallel
	// kernel's command buffers), the number of workers the per-worker
	// bytes are multiplied by; 0 otherwise. Above 1, the refusal's advice
	// says to use fewer workers.
	Workers int
}

// Size is n elements of elem bytes each, in bytes, saturating at
// math.MaxInt64 rather than wrapping; 0 when n or elem is not positive.
func Size(n, elem int64) int64 {
	if n <= 0 || elem <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(elem))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// SizeOf is Size(n, sizeof(T)): the bytes of n elements of T, saturating
// at math.MaxInt64; 0 when n <= 0 or T has size 0. Pure; safe from any
// goroutine.
func SizeOf[T any](n int64) int64 { return Size(n, int64(reflect.TypeFor[T]().Size())) }

// Sum adds byte counts, saturating at math.MaxInt64 rather than wrapping;
// negative parts count as 0.
func Sum(parts ...int64) int64 {
	var s int64
	for _, p := range parts {
		if p <= 0 {
			continue
		}
		if p > math.MaxInt64-s {
			return math.MaxInt64
		}
		s += p
	}
	return s
}
