package shop

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork"
)

// Config sizes and seeds the data set [Fill] makes.
type Config struct {
	Players  int    // players created (1..the Accounts capacity); a 25th of them is deleted, a 100th made anew
	Products int    // products (1..the Product capacity)
	Orders   int    // orders (1..the Order capacity)
	Stores   int    // stores (1..the Store capacity); a 50th of them is deleted
	Seed     uint64 // seed of the stream (tickwork.NewRand(Seed, 1))
}

// DefaultConfig is the corpus's full size: 50 000 players, 5 000
// products, 50 000 orders, 100 000 stores (the schema's capacities).
func DefaultConfig() Config {
	return Config{Players: 50000, Products: 5000, Orders: 50000, Stores: 100000, Seed: 22}
}

// SmallConfig is the agreement test's size: 2 000 / 200 / 2 000 / 5 000.
func SmallConfig() Config {
	return Config{Players: 2000, Products: 200, Orders: 2000, Stores: 5000, Seed: 22}
}

// MapSide is the side of the square the stores are spread over (world
// units: the arena's W).
const MapSide = 2048

// Sizes returns the capacities that hold cfg's rows: Declare's argument.
func (c Config) Sizes() Sizes {
	return Sizes{Accounts: c.Players, Product: c.Products, Order: c.Orders, Store: c.Stores, Sale: c.Orders} // a sale per order
}

// ErrBadConfig is matched (errors.Is) by Fill's error for a size below 1
// or above its table's capacity.
var ErrBadConfig = errors.New("shop: bad config")

// Fill fills the empty tables t from cfg's seeded stream; the same cfg
// gives the same rows, handles and holes on every machine. In order:
// Players players (Account a permutation of 1 000 000.., Level 1..60,
// Score 0..10^9-1, Region 0..7, Rating k/8 for k in 0..40, Guild the
// handle of an earlier player or, for a fifth, zero), a Profile for 3 in 5,
// Premium for 3 in 20, Banned for 1 in 20; Products products (SKU a
// permutation of 5 000 000.., Category 0..39, Price k/2 for k in 1..100,
// Stock 0..999); Orders orders (a random buyer and item, Price the item's
// times 0.8..1.2, Quantity 1..10, Day 0..999); then the deletion of a 25th
// of the players (their orders' Buyer and followers' Guild dangle) and
// the creation of a 100th anew in the lowest free slots (a new
// generation); last, Stores stores (X and Y uniform in [0, MapSide)) and
// the deletion of a 50th of them (holes). It returns an error matching [ErrBadConfig] for a size out
// of range, or the tables' error. A structural change: between frames,
// one goroutine.
func Fill(t *Tables, cfg Config) error {
	if cfg.Players < 1 || cfg.Players > t.Accounts.Cap() || cfg.Products < 1 || cfg.Products > t.Product.Table.Cap() ||
		cfg.Orders < 1 || cfg.Orders > t.Order.Table.Cap() || cfg.Stores < 1 || cfg.Stores > t.Store.Table.Cap() {
		return fmt.Errorf("%w: %d players, %d products, %d orders, %d stores for capacities %d, %d, %d, %d", ErrBadConfig,
			cfg.Players, cfg.Products, cfg.Orders, cfg.Stores, t.Accounts.Cap(), t.Product.Table.Cap(), t.Order.Table.Cap(), t.Store.Table.Cap())
	}
	r := tickwork.NewRand(cfg.Seed, 1)
	players := make([]tickwork.Handle, 0, cfg.Players)
	accounts := r.Perm(cfg.Players)
	for i := range cfg.Players {
		h, err := addPlayer(t, r, int64(1_000_000+accounts[i]), players)
		if err != nil {
			return err
		}
		players = append(players, h)
	}
	products := make([]tickwork.Handle, cfg.Products)
	prices := make([]float32, cfg.Products)
	skus := r.Perm(cfg.Products)
	for i := range products {
		h, err := t.Product.Table.Insert()
		if err != nil {
			return err
		}
		products[i], prices[i] = h, float32(1+r.IntN(100))/2
		t.Product.SKU.Set(h, int64(5_000_000+skus[i]))
		t.Product.Category.Set(h, int32(r.IntN(40)))
		t.Product.Price.Set(h, prices[i])
		t.Product.Stock.Set(h, int32(r.IntN(1000)))
	}
	for range cfg.Orders {
		h, err := t.Order.Table.Insert()
		if err != nil {
			return err
		}
		item := r.IntN(len(products))
		t.Order.Buyer.Set(h, players[r.IntN(len(players))])
		t.Order.Item.Set(h, products[item])
		t.Order.Price.Set(h, float64(prices[item])*(0.8+0.4*r.Float64()))
		t.Order.Quantity.Set(h, int32(1+r.IntN(10)))
		t.Order.Day.Set(h, int32(r.IntN(1000)))
	}
	for _, h := range players {
		if r.IntN(25) == 0 {
			t.Accounts.Delete(h)
		}
	}
	for i := range cfg.Players / 100 {
		if _, err := addPlayer(t, r, int64(1_000_000+cfg.Players+i), players); err != nil {
			return err
		}
	}
	for range cfg.Stores {
		h, err := t.Store.Table.Insert()
		if err != nil {
			return err
		}
		t.Store.X.Set(h, r.Float32()*MapSide)
		t.Store.Y.Set(h, r.Float32()*MapSide)
		if r.IntN(50) == 0 {
			t.Store.Table.Delete(h)
		}
	}
	return nil
}

// addPlayer creates one player with its rows, its guild leader drawn
// from earlier (possibly deleted since).
func addPlayer(t *Tables, r *tickwork.Rand, account int64, earlier []tickwork.Handle) (tickwork.Handle, error) {
	h, err := t.Accounts.Create()
	if err != nil {
		return 0, err
	}
	if err := t.Player.Table.Attach(h); err != nil {
		return 0, err
	}
	var guild tickwork.Handle
	if len(earlier) > 0 && r.IntN(5) != 0 {
		guild = earlier[r.IntN(len(earlier))]
	}
	t.Player.Account.Set(h, account)
	t.Player.Level.Set(h, int32(1+r.IntN(60)))
	t.Player.Score.Set(h, r.Int64N(1_000_000_000))
	t.Player.Region.Set(h, int32(r.IntN(8)))
	t.Player.Rating.Set(h, float32(r.IntN(41))/8)
	t.Player.Guild.Set(h, guild)
	if r.IntN(5) < 3 {
		if err := t.Profile.Table.Attach(h); err != nil {
			return 0, err
		}
		t.Profile.Joined.Set(h, int32(r.IntN(1000)))
		t.Profile.Spent.Set(h, float64(r.IntN(100000))/100)
	}
	if r.IntN(20) < 3 {
		if err := t.Premium.Table.Attach(h); err != nil {
			return 0, err
		}
	}
	if r.IntN(20) == 0 {
		if err := t.Banned.Table.Attach(h); err != nil {
			return 0, err
		}
	}
	return h, nil
}

// EmitSales emits, from the host between frames, a Sale for each live
// order in row order (its buyer, item and price), at most the Sale
// table's capacity, and returns how many; after the next frame the
// host's Sale.Read returns them (lifetime next_frame) and index
// SalesByBuyer holds them. It returns the table's *tickwork.OverflowError
// if the table is full already. One goroutine, between frames.
func EmitSales(t *Tables) (int, error) {
	n := 0
	for row := range t.Order.Table.Cap() {
		h, ok := t.Order.Table.HandleAt(row)
		if !ok {
			continue
		}
		if n == t.Sale.Cap() {
			break
		}
		b, _ := t.Order.Buyer.Get(h)
		it, _ := t.Order.Item.Get(h)
		p, _ := t.Order.Price.Get(h)
		if err := t.Sale.Emit(Sale{Buyer: b, Item: it, Price: p}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
