package memory

// Test hooks: what the tests of package memory_test check that no caller
// needs (a refusal's BudgetError.Owner says who made the budget).

// Owner is who made the budget; OwnerHost for a nil *Budget.
func (b *Budget) Owner() Owner {
	if b == nil {
		return OwnerHost
	}
	return b.owner
}
