package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/runq"
	"github.com/tickwork/tickwork/schema"
)

// textCalls is how many timed runs -query makes of each text, after one
// run that grows its buffers; the report gives their median.
const textCalls = 11

// textRows is how many result rows -query prints (the count says the
// rest).
const textRows = 20

// consoleName is the name a -query text without its declaration gets:
// `from ... select ...` runs as `query Console() { from ... select ... }`.
const consoleName = "Console"

// consolePrefix is what wraps a bare text (its first line's columns
// shift by its length).
const consolePrefix = "query " + consoleName + "() { "

// queryTexts is -query: repeatable, one query text a use.
type queryTexts struct{ texts *[]string }

func (f queryTexts) String() string {
	if f.texts == nil {
		return ""
	}
	return strings.Join(*f.texts, "; ")
}

func (f queryTexts) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return &usageError{"-query needs a query text, got an empty one"}
	}
	*f.texts = append(*f.texts, v)
	return nil
}

// textReport is one -query text's entry: its plan, the median of
// textCalls timed runs, the result's columns, row count and first
// textRows rows (each a list of values; a handle as {"index",
// "generation"}, a float that is not finite as a string).
type textReport struct {
	Text    string       `json:"text"`
	Plan    string       `json:"plan"`
	Columns []string     `json:"columns"`
	P50US   float64      `json:"p50_us"`
	Rows    int          `json:"rows"`
	Result  [][]any      `json:"result"`
	Visited int64        `json:"rows_visited"`
	query   *runq.Query  // prepared once
	values  []runq.Value // the last run's
}

// wrapText returns text as Prepare takes it: unchanged when it is a query
// declaration, else wrapped in consolePrefix ... " }" (the brace on a
// line of its own after a text with a comment), and whether it was.
func wrapText(text string) (string, bool) {
	if t := strings.TrimLeft(text, " \t\r\n"); strings.HasPrefix(t, "query") && len(t) > 5 && (t[5] == ' ' || t[5] == '\t' || t[5] == '\n') {
		return text, false
	}
	if strings.Contains(text, "//") {
		return consolePrefix + text + "\n}", true
	}
	return consolePrefix + text + " }", true
}

// textPos matches a position of the query text in a message.
var textPos = regexp.MustCompile(`\bquery:1:(\d+)`)

// prepareText prepares one -query text against cat: a bare text is
// wrapped (wrapText) and the positions of its errors moved back to its
// own columns; a text with parameters is refused (the command line gives
// no arguments: write the values into the text). The error is Prepare's
// message, or the parameters'.
func prepareText(cat *runq.Catalog, text string) (*runq.Query, error) {
	full, wrapped := wrapText(text)
	q, err := runq.Prepare(cat, full)
	if err != nil {
		msg := err.Error()
		if wrapped {
			msg = textPos.ReplaceAllStringFunc(msg, func(m string) string {
				col, _ := strconv.Atoi(m[len("query:1:"):])
				return "query:1:" + strconv.Itoa(max(col-len(consolePrefix), 1))
			})
		}
		return nil, errors.New(msg)
	}
	if ps := q.Params(); len(ps) > 0 {
		names := make([]string, len(ps))
		for i, p := range ps {
			names[i] = p.Name + " " + p.Type.String()
		}
		return nil, fmt.Errorf("query:1:1: -query runs a query without parameters, this one has (%s): write their values into the text", strings.Join(names, ", "))
	}
	return q, nil
}

// checkTexts prepares every -query text against the catalog of a
// one-unit arena, before any frame runs, so that a bad text stops the
// command at once (exit status 2). The error names the text.
func checkTexts(texts []string) error {
	if len(texts) == 0 {
		return nil
	}
	sim, err := arena.New(rules.Config{Units: 1, Seed: rules.DefaultSeed, Workers: 1})
	if err != nil {
		return err
	}
	defer sim.Close()
	cat, err := arenaCatalog(sim)
	if err != nil {
		return err
	}
	for i, t := range texts {
		if _, err := prepareText(cat, t); err != nil {
			return &usageError{fmt.Sprintf("-query %d (%s): %v", i+1, quoteShort(t), err)}
		}
	}
	return nil
}

// quoteShort quotes t, its first 60 bytes and "..." when it is longer.
func quoteShort(t string) string {
	if len(t) > 60 {
		return strconv.Quote(t[:60]) + "..."
	}
	return strconv.Quote(t)
}

// arenaCatalog is the run-time query catalog of s's tables (the
// generated arena.Tables.BindCatalog).
func arenaCatalog(s *arena.Sim) (*runq.Catalog, error) {
	return runq.NewCatalogOf(arena.SchemaFile, arena.SchemaText, s.Tables().BindCatalog)
}

// runTexts prepares each -query text against s's catalog and runs it
// once (growing its buffers), then textCalls times, timed.
func runTexts(s *arena.Sim, texts []string) ([]textReport, error) {
	cat, err := arenaCatalog(s)
	if err != nil {
		return nil, err
	}
	ns := make([]int64, textCalls)
	var out []textReport
	for i, t := range texts {
		q, err := prepareText(cat, t)
		if err != nil {
			return nil, fmt.Errorf("-query %d: %w", i+1, err)
		}
		r := textReport{Text: t, Plan: q.Plan(), query: q}
		for _, c := range q.Columns() {
			r.Columns = append(r.Columns, c.Name)
		}
		if r.values, err = q.Run(nil, nil); err != nil {
			return nil, fmt.Errorf("-query %d: %w", i+1, err)
		}
		for j := range ns {
			t0 := time.Now()
			r.values, err = q.Run(r.values[:0], nil)
			ns[j] = time.Since(t0).Nanoseconds()
			if err != nil {
				return nil, fmt.Errorf("-query %d: %w", i+1, err)
			}
		}
		slices.Sort(ns)
		r.P50US = round3(micros(ns[len(ns)/2]))
		r.Visited = q.Visited()
		w := max(len(r.Columns), 1)
		r.Rows = len(r.values) / w
		r.Result = [][]any{}
		for k := 0; k < min(r.Rows, textRows); k++ {
			row := make([]any, len(r.Columns))
			for c := range row {
				row[c] = jsonValue(r.values[k*w+c])
			}
			r.Result = append(r.Result, row)
		}
		out = append(out, r)
	}
	return out, nil
}

// jsonValue is v as -json writes it: a number, a bool, a handle as
// {"index", "generation"}, a float that is not finite as "NaN", "+Inf" or
// "-Inf" (JSON has no such numbers).
func jsonValue(v runq.Value) any {
	switch v.Kind() {
	case schema.Int32:
		return v.Int32()
	case schema.Int64:
		return v.Int64()
	case schema.Bool:
		return v.Bool()
	case schema.Ref:
		return handleOf(v.Handle())
	case schema.Float32, schema.Float64:
		f := v.Float64()
		if v.Kind() == schema.Float32 {
			f = float64(v.Float32())
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return v.String()
		}
		return json.Number(v.String())
	}
	return v.String()
}

// writeTexts writes the -query section of the human report: per text, the
// text, its plan, the median time and row count, the column names and
// the first textRows rows.
func writeTexts(w io.Writer, ts []textReport) {
	for _, t := range ts {
		fmt.Fprintf(w, "query     %s\n", strings.Join(strings.Fields(t.Text), " "))
		fmt.Fprintf(w, "            plan: %s\n", t.Plan)
		fmt.Fprintf(w, "            p50 %.1f µs, %d rows (%d rows visited)\n", t.P50US, t.Rows, t.Visited)
		fmt.Fprintf(w, "            %s\n", strings.Join(t.Columns, "\t"))
		cols := max(len(t.Columns), 1)
		for k := 0; k < min(t.Rows, textRows); k++ {
			parts := make([]string, len(t.Columns))
			for c := range parts {
				parts[c] = t.values[k*cols+c].String()
			}
			fmt.Fprintf(w, "            %s\n", strings.Join(parts, "\t"))
		}
		if t.Rows > textRows {
			fmt.Fprintf(w, "            ... %d more rows\n", t.Rows-textRows)
		}
	}
}
