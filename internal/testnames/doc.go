// Package testnames checks the rule that a test file is named after the
// source file it tests; the rule's one home is docs/architecture.md,
// "Test files".
//
// # Outline
//
//   - The check: [Check] walks a tree (a module, with the modules nested
//     in it) and returns the test files whose names break the rule.
//   - One name: [Named] says whether one test file's name keeps the rule
//     among the source files of its directory.
//   - The module's own check: TestModuleTestFileNames (testnames_test.go)
//     runs [Check] from the root module's directory and fails naming each
//     badly named test file; go test ./... runs it.
//
// Only tests use this package; it imports nothing of Tickwork.
package testnames
