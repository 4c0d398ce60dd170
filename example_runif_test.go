package tickwork_test

import (
	"fmt"

	"github.com/tickwork/tickwork"
)

// A system that runs only while the match is on: its run condition reads
// the resource Match, which the host flips between frames. The report
// counts the skipped runs. A system writing Match in Update, unordered
// with "score", would be refused by Build: the condition's read is the
// system's.
func ExampleDecl_RunIf() {
	type Match struct{ On bool }
	b := tickwork.NewBuilder()
	match := tickwork.AddResource(b, "match", Match{On: true})
	points := 0
	b.System("score", tickwork.Update, func(d *tickwork.Decl) tickwork.RunFunc {
		d.RunIf(func(c *tickwork.Decl) tickwork.CondFunc {
			m := tickwork.ReadResource(c, match)
			return func(*tickwork.Context) bool { return m.On }
		})
		return func(*tickwork.Context) { points++ }
	})
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for frame := range 4 {
		match.Get().On = frame != 2 // paused in frame 2
		if err := w.Frame(1.0 / 60); err != nil {
			panic(err)
		}
		s := w.Report().System("score")
		fmt.Println("frame", frame, "runs", s.Runs, "skips", s.Skips)
	}
	fmt.Println(points, "points")
	// Output:
	// frame 0 runs 1 skips 0
	// frame 1 runs 1 skips 0
	// frame 2 runs 0 skips 1
	// frame 3 runs 1 skips 0
	// 3 points
}
