package memory

import (
	"errors"
	"strconv"
)

// ErrBudget: a definition whose memory does not fit in what is left of its
// budget. Returned as a *BudgetError. Packages ephemeral and events return
// it as it is; runtime re-exports it as ErrMemoryBudget.
var ErrBudget = errors.New("memory budget exceeded")

// BudgetError reports a definition refused by its budget; nothing was
// allocated or charged for it. errors.Is(err, ErrBudget) is true.
//
// Its message ends with advice that fits the definition and the budget's
// Owner: what to lower (the capacity; for per-worker definitions, also the
// worker count; for command buffers, the records per buffer) and which
// budget to raise (the world's runtime.WithMemoryBudget, or a spec's
// Budget).
type BudgetError struct {
	Definition       // what asked: kind, table (or domain, event table), column and workers
	Bytes      int64 // bytes the definition asked for (math.MaxInt64 when the size saturated)
	Used       int64 // bytes charged to the budget before it
	Budget     int64 // the budget's limit, bytes
	Owner      Owner // who made the budget: which limit to raise
}

func (e *BudgetError) Error() string {
	s := "memory: " + e.Kind
	switch {
	case e.Column != "":
		s = "memory: table " + strconv.Quote(e.Name) + " column " + strconv.Quote(e.Column)
	case e.Name != "":
		s += " " + strconv.Quote(e.Name)
	}
	switch {
	case e.Workers == 1:
		s += " for 1 worker"
	case e.Workers > 1:
		s += " for " + strconv.Itoa(e.Workers) + " workers"
	}
	return s + " asks for " + bytesText(e.Bytes) + ", but the memory budget of " + bytesText(e.Budget) +
		" has " + bytesText(max(e.Budget-e.Used, 0)) + " left (" + bytesText(e.Used) +
		" used); " + e.lower() + ", or " + e.raise()
}

// lower is the advice on the definition's side: what makes it smaller.
func (e *BudgetError) lower() string {
	s := "lower the capacity"
	if e.Kind == "command buffer" {
		s = "lower the records per command buffer"
		if e.Owner == OwnerWorld {
			s += " (WithCommandRecords)"
		}
	}
	if e.Workers > 1 {
		s += " or use fewer workers"
		if e.Owner == OwnerWorld {
			s += " (WithWorkers)"
		}
	}
	return s
}

// raise is the advice on the budget's side: which limit to raise.
func (e *BudgetError) raise() string {
	switch e.Owner {
	case OwnerWorld:
		return "raise the world's budget (WithMemoryBudget)"
	case OwnerPrivate:
		return "give the spec a larger Budget (memory.NewBudget; the default is memory.DefaultBudget)"
	}
	return "raise the limit of the Budget given to the spec (memory.NewBudget)"
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
