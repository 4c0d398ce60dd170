package index

import "fmt"

// checkRow panics when row is not in 0..capacity-1 (programmer misuse:
// package doc, Contract). Small enough to inline into every method.
func checkRow(method string, row int32, capacity int) {
	if uint(row) >= uint(capacity) { // a negative row converts to a huge uint
		rowPanic(method, row, capacity)
	}
}

//go:noinline
func rowPanic(method string, row int32, capacity int) {
	panic(fmt.Sprintf("index: %s of row %d out of range 0..%d: pass a row of the indexed table", method, row, capacity-1))
}
