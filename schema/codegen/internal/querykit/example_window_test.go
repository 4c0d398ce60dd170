package querykit_test

import (
	"fmt"
	"math"

	"github.com/tickwork/tickwork"
	kit "github.com/tickwork/tickwork/schema/codegen/internal/querykit"
)

// newExample builds a querykit world with five persons (ages, W) and three
// badges, for the examples.
func newExample() (*tickwork.World, *kit.Tables) {
	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	tabs, err := kit.Declare(b, kit.DefaultSizes())
	if err != nil {
		panic(err)
	}
	w, err := b.Build()
	if err != nil {
		panic(err)
	}
	ages := []int32{20, 31, 20, 42, 31}
	ws := []float32{1.5, 3, 1.5, -2, 0}
	for i := range ages {
		h, err := tabs.Person.Table.Insert()
		if err != nil {
			panic(err)
		}
		tabs.Person.Age.Set(h, ages[i])
		tabs.Person.W.Set(h, ws[i])
		tabs.Person.V.Set(h, float64(i)+0.5)
		tabs.Person.On.Set(h, true)
	}
	for _, code := range []int64{7, 12, 7} {
		h, err := tabs.Badge.Table.Insert()
		if err != nil {
			panic(err)
		}
		tabs.Badge.Code.Set(h, code)
		tabs.Badge.Weight.Set(h, float32(code)/2)
	}
	return w, tabs
}

// Window functions: a rank within a partition (ties by entity index) and a
// running sum in the order by's order, the rows in the query's order.
func ExampleAgeRanks() {
	w, tabs := newExample()
	defer w.Close()
	q := kit.NewQueries(tabs)
	for _, r := range q.AgeRanks.Run(nil, 0) {
		fmt.Printf("slot %d: band %d, W %v, rank %d\n", r.Person.Index(), r.Band, r.W, r.N)
	}
	for _, r := range q.RunningV.Run(nil) {
		fmt.Printf("age %d: running V %v\n", r.Age, r.Run)
	}
	fmt.Println(q.AgeRanks.Plan())
	// Output:
	// slot 0: band 0, W 1.5, rank 1
	// slot 1: band 1, W 3, rank 1
	// slot 2: band 0, W 1.5, rank 2
	// slot 3: band 2, W -2, rank 1
	// slot 4: band 1, W 0, rank 2
	// age 20: running V 0.5
	// age 20: running V 3
	// age 31: running V 4.5
	// age 31: running V 9
	// age 42: running V 12.5
	// scan Person (ascending index); filter; window N row_number() over (partition by key order by W desc): sort its entries by (partition, order, index), then walk
}

// Keyset pagination: each page starts after the last row of the one
// before (its W and entity index), by (W desc, index); NaN, the greatest,
// comes first, so (NaN, -1) is before every row.
func ExamplePageW() {
	w, tabs := newExample()
	defer w.Close()
	q := kit.NewQueries(tabs)
	var page []kit.PageWRow
	lastW, lastIx := float32(math.NaN()), int32(-1)
	for n := 1; ; n++ {
		page = q.PageW.Run(page, lastW, lastIx, 2)
		if len(page) == 0 {
			break
		}
		fmt.Print("page ", n, ":")
		for _, r := range page {
			fmt.Printf(" slot %d (W %v)", r.Person.Index(), r.W)
		}
		fmt.Println()
		last := page[len(page)-1]
		lastW, lastIx = last.W, int32(last.Person.Index())
	}
	fmt.Println(q.PageW.Plan())
	// Output:
	// page 1: slot 1 (W 3) slot 0 (W 1.5)
	// page 2: slot 2 (W 1.5) slot 4 (W 0)
	// page 3: slot 3 (W -2)
	// scan Person (ascending index); keyset: the rows after (w, ix) in the order by's order, one packed range test a row (cursor, heap's worst); top-n heap by (W desc, index asc, index)
}

// A unique key lookup stops at the first row of its key; when the data
// holds duplicates (code 7 twice here), that is the lowest entity index.
func ExampleBadgeByCode() {
	w, tabs := newExample()
	defer w.Close()
	q := kit.NewQueries(tabs)
	for _, code := range []int64{7, 12, 99} {
		rows := q.BadgeByCode.Run(nil, code)
		fmt.Printf("code %d: %d row(s)", code, len(rows))
		for _, r := range rows {
			fmt.Printf(", slot %d, weight %v", r.Badge.Index(), r.Weight)
		}
		fmt.Println()
	}
	fmt.Println(q.BadgeByCode.Plan())
	// Output:
	// code 7: 1 row(s), slot 0, weight 3.5
	// code 12: 1 row(s), slot 1, weight 6
	// code 99: 0 row(s)
	// unique key lookup: scan Badge (ascending index) for Code, stop at the first match (limit 1); filter
}
