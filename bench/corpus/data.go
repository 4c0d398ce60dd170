package corpus

import (
	"fmt"
	goruntime "runtime"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/bench/shop"
	"github.com/tickwork/tickwork/runq"
)

// Size sizes the two data sets.
type Size struct {
	Units  int         // arena units (rules.Config.Units)
	Frames int         // arena frames run before the state is read
	Shop   shop.Config // the shop's rows and seed
}

// Full is the corpus's size: the arena at 100 000 units after 200
// frames, and the shop at 50 000 players, 5 000 products, 50 000 orders
// and 100 000 stores.
func Full() Size { return Size{Units: 100000, Frames: 200, Shop: shop.DefaultConfig()} }

// Small is the agreement test's size: the arena at 5 000 units after 200
// frames, the shop at 2 000 / 200 / 2 000 / 5 000.
func Small() Size { return Size{Units: 5000, Frames: 200, Shop: shop.SmallConfig()} }

// Data is the two data sets in their worlds, and the parameters the
// cases pass (chosen from the data, the same for every run of one Size).
// Its tables are read-only for the cases: Data is safe for concurrent
// readers; Close ends both worlds.
type Data struct {
	Size  Size
	Arena *arena.Sim
	A     *arena.Tables // the arena's tables
	Shop  *shop.Tables
	shopW *tickwork.World
	P     Params
	// the run-time query catalogs of the two worlds (Catalog)
	arenaCat, shopCat *runq.Catalog
}

// Params are the cases' parameters, read from the data by [New].
type Params struct {
	Body    tickwork.Handle // a live Body: the point lookup by handle
	Product tickwork.Handle // a live Product: the point lookup by handle
	Account int64           // a live player's Account: the point lookup by unique key
	SKU     int64           // a live product's SKU
	Player  tickwork.Handle // a live player with orders: the running sum
	Score   int64           // a Score threshold (the median)
	Box     [4]float32      // x0, y0, x1, y1: a box of side 100 around the centre of the arena (and of the stores' map)
	Day     int32           // the keyset page's key: (Day, index) after (Day, AfterIndex)
	AfterIx int32
	// the index-served cases' (cases_index.go)
	Item             tickwork.Handle // the Product of Player's order: the grouped aggregate over OrdersByItem
	LevelLo, LevelHi int32           // the level range [LevelLo, LevelHi]: 59, 60 (a 30th of the levels)
	Centre           [2]float32      // the radius query's centre: the stores' map's centre
	Radius           float32         // the radius query's r: 50
}

// New builds both data sets at sz: the arena (rules.DefaultShots and
// rules.DefaultSeed, 1 worker) run for sz.Frames frames, and the shop
// filled by shop.Fill. It returns the arena's or the shop's error.
func New(sz Size) (*Data, error) {
	// GOMAXPROCS workers: the parallel lanes' (the state is the same at any count)
	sim, err := arena.New(rules.Config{Units: sz.Units, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: goruntime.GOMAXPROCS(0)})
	if err != nil {
		return nil, err
	}
	for range sz.Frames {
		if err := sim.Frame(); err != nil {
			sim.Close()
			return nil, err
		}
	}
	d := &Data{Size: sz, Arena: sim, A: sim.Tables()}
	b := tickwork.NewBuilder()
	if d.Shop, err = shop.Declare(b, sz.Shop.Sizes()); err == nil {
		if d.shopW, err = b.Build(); err == nil {
			err = shop.Fill(d.Shop, sz.Shop)
		}
	}
	if err == nil {
		// the sales of the orders, readable after one frame (ix_sales_of_buyer)
		if _, err = shop.EmitSales(d.Shop); err == nil {
			err = d.shopW.Frame(1.0 / 60)
		}
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("corpus: the shop: %w", err)
	}
	d.params()
	if err := d.catalogs(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// ShopWorld is the shop's world (GOMAXPROCS workers): the parallel
// lanes of its queries run on its workers.
func (d *Data) ShopWorld() *tickwork.World { return d.shopW }

// Close ends both worlds.
func (d *Data) Close() error {
	err := d.Arena.Close()
	if d.shopW != nil {
		err = d.shopW.Close()
	}
	return err
}

// params picks the parameters: rows a third of the way into their tables.
func (d *Data) params() {
	p := &d.P
	p.Body = liveAt(d.A.Body.Table, d.A.Body.Table.Cap()/3)
	p.Product = liveAt(d.Shop.Product.Table, d.Shop.Product.Table.Cap()/3)
	p.SKU, _ = d.Shop.Product.SKU.Get(p.Product)
	pl := liveAt(d.Shop.Player.Table, d.Shop.Player.Table.Cap()/3)
	p.Account, _ = d.Shop.Player.Account.Get(pl)
	// the buyer of the order a third of the way in, alive
	for row := d.Shop.Order.Table.Cap() / 3; row < d.Shop.Order.Table.Cap(); row++ {
		if h, ok := d.Shop.Order.Table.HandleAt(row); ok {
			if b, _ := d.Shop.Order.Buyer.Get(h); d.Shop.Player.Table.IsAlive(b) {
				p.Player = b
				p.Item, _ = d.Shop.Order.Item.Get(h)
				break
			}
		}
	}
	p.Score = 500_000_000
	c := rules.W / 2 // the arena's and the stores' map's centre (shop.MapSide == rules.W)
	p.Box = [4]float32{c - 50, c - 50, c + 50, c + 50}
	p.Centre, p.Radius = [2]float32{c, c}, 50
	p.LevelLo, p.LevelHi = 59, 60
	p.Day, p.AfterIx = 500, int32(d.Shop.Order.Table.Cap()/2)
}

// liveAt returns the handle of the first live row of t at or after row
// (wrapping), or the zero handle for an empty table.
func liveAt(t *tickwork.Table, row int) tickwork.Handle {
	for i := range t.Cap() {
		if h, ok := t.HandleAt((row + i) % t.Cap()); ok {
			return h
		}
	}
	return 0
}
