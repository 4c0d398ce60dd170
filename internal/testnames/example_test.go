package testnames_test

import (
	"fmt"
	"testing/fstest"

	"github.com/tickwork/tickwork/internal/testnames"
)

// Check names the test files that are not named after a source of their
// directory.
func ExampleCheck() {
	bad, err := testnames.Check(fstest.MapFS{
		"runtime/world.go":              {},
		"runtime/world_zero_test.go":    {},
		"runtime/trial9_rest_test.go":   {},
		"runtime/example_build_test.go": {},
		"events/table.go":               {},
		"events/table_reader_test.go":   {},
		"events/reader_test.go":         {},
	})
	fmt.Println(bad, err)
	// Output: [events/reader_test.go runtime/trial9_rest_test.go] <nil>
}
