package systems

// Test hooks: what the tests of package systems_test check that no caller
// needs.

// ErrEmptyName is the sentinel of a system without a name (errors.go).
var ErrEmptyName = errEmptyName
