// Command benchtable reads `go test -bench` output on standard input and
// prints BenchmarkArena's results side by side (package bench,
// WriteTable): runtime, baseline and Ark at each unit count. It exits
// with status 1 when the input has a BenchmarkArena line it cannot read
// or no BenchmarkArena result at all.
//
//	cd bench && go test -run '^$' -bench '^BenchmarkArena$' -benchmem . | go run ./cmd/benchtable
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tickwork/tickwork/bench"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// errNoResults: the input had no BenchmarkArena result line.
var errNoResults = errors.New("no BenchmarkArena results in the input")

// run reads bench output from in and writes the table to out.
func run(in io.Reader, out io.Writer) error {
	results, err := bench.ParseResults(in)
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return errNoResults
	}
	return bench.WriteTable(out, results)
}
