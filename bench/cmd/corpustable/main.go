// Command corpustable reads `go test -bench BenchmarkCorpus` output
// (package bench/corpus) on standard input and prints the query corpus's
// table: per case its family, the median µs of the generated query, the
// hand loop, SQLite's scan and SQLite with its index, and the ratios over
// the hand loop; then the index-served cases' table (corpus.WriteIndexTable:
// the indexed query against SQLite with the same index and its own scan),
// and the runq lane's (corpus.WriteRunqTable: each case's query text
// prepared at run time against the generated query and SQLite's scan).
// With -plot FILE.png it also draws the ratios (log scale).
// It exits with status 1 when a BenchmarkCorpus line cannot be read or
// there is none.
//
//	cd bench && go test -run '^$' -bench '^BenchmarkCorpus$' -benchmem ./corpus | go run ./cmd/corpustable -plot ../docs/corpus.png
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tickwork/tickwork/bench/corpus"
)

func main() {
	plotFile := flag.String("plot", "", "also draw the ratios over the hand loop into this PNG file")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *plotFile); err != nil {
		fmt.Fprintln(os.Stderr, "corpustable:", err)
		os.Exit(1)
	}
}

// errNoResults: the input had no BenchmarkCorpus result line.
var errNoResults = errors.New("no BenchmarkCorpus results in the input")

// run reads bench output from in, writes the table to out and, when
// plotFile is not empty, the plot.
func run(in io.Reader, out io.Writer, plotFile string) error {
	rs, err := corpus.ParseResults(in)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return errNoResults
	}
	sums := corpus.Summarize(rs)
	if err := corpus.WriteTable(out, sums); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(out, "\nindex-served cases (issue 23): the indexed query against SQLite with the same index, its own scan and the hand-kept index"); err != nil {
		return err
	}
	if err := corpus.WriteIndexTable(out, sums); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(out, "\nthe runq lane (issue 25): each case's query text prepared at run time, against the generated query and SQLite's scan"); err != nil {
		return err
	}
	if err := corpus.WriteRunqTable(out, sums); err != nil {
		return err
	}
	if plotFile != "" {
		return writePlot(plotFile, sums)
	}
	return nil
}
