package memory

import (
	"errors"
	"strconv"
)

// ErrBudget: a definition whose memory does not fit in what is left of its
// budget. Returned as a *BudgetError. Packages ephemeral, events and
// runtime re-export it as ErrMemoryBudget.
var ErrBudget = errors.New("memory budget exceeded")

// BudgetError reports a definition refused by its budget; nothing was
// allocated or charged for it. errors.Is(err, ErrBudget) is true.
type BudgetError struct {
	Definition       // what asked: kind, table (or domain, event table) and column
	Bytes      int64 // bytes the definition asked for (math.MaxInt64 when the size saturated)
	Used       int64 // bytes charged to the budget before it
	Budget     int64 // the budget's limit, bytes
}

func (e *BudgetError) Error() string {
	s := "memory: " + e.Kind + " " + strconv.Quote(e.Name)
	if e.Column != "" {
		s = "memory: table " + strconv.Quote(e.Name) + " column " + strconv.Quote(e.Column)
	}
	return s + " asks for " + bytesText(e.Bytes) + ", but the memory budget of " + bytesText(e.Budget) +
		" has " + bytesText(max(e.Budget-e.Used, 0)) + " left (" + bytesText(e.Used) +
		" used); lower the capacity, or raise the budget (runtime.WithMemoryBudget, or the spec's Budget)"
}

// Is reports whether target is ErrBudget.
func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

// bytesText is "n bytes", followed by the size in MiB or GiB when it is at
// least 1 MiB: "17179869184 bytes (16.0 GiB)".
func bytesText(n int64) string {
	s := strconv.FormatInt(n, 10) + " bytes"
	switch {
	case n >= 1<<30:
		s += " (" + strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB)"
	case n >= 1<<20:
		s += " (" + strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB)"
	}
	return s
}
