package ephemeral

// Test hooks: names the tests of package ephemeral_test check that no
// caller needs.

// The handle layout's tag width and largest tag (docs/architecture.md,
// Handle layout).
const (
	HandleTagBits = handleTagBits
	MaxHandleTag  = maxHandleTag
)

// The definition errors the package does not export (errors.go).
var (
	ErrEmptyName = errEmptyName
	ErrNilTable  = errNilTable
)
