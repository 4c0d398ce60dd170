package corpus

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/tickwork/tickwork"
	_ "modernc.org/sqlite" // the "sqlite" driver: SQLite in pure Go
)

// DB is the data in SQLite, twice, in memory (synchronous=OFF,
// journal_mode=MEMORY): Scan with no secondary index (each table's idx,
// the entity index, is its INTEGER PRIMARY KEY, the rowid, as a row's slot
// is its address in a table), and Index with every case's Indexes
// created. A handle is two INTEGER columns, idx and gen (a ref column C:
// C_idx and C_gen; the zero handle is (0, 0), and live generations are odd,
// so a join on both never matches it). One goroutine at a time.
type DB struct {
	Scan, Index *sql.DB
}

// schemaSQL creates the tables. hit_event's and sale's seq is the
// emission position.
const schemaSQL = `
CREATE TABLE unit(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, health INTEGER NOT NULL);
CREATE TABLE body(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, x REAL NOT NULL, y REAL NOT NULL, vx REAL NOT NULL, vy REAL NOT NULL);
CREATE TABLE projectile(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, x REAL NOT NULL, y REAL NOT NULL, ttl INTEGER NOT NULL,
	damage INTEGER NOT NULL, target_idx INTEGER NOT NULL, target_gen INTEGER NOT NULL);
CREATE TABLE hit_event(seq INTEGER PRIMARY KEY, target_idx INTEGER NOT NULL, target_gen INTEGER NOT NULL, damage INTEGER NOT NULL);
CREATE TABLE player(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, account INTEGER NOT NULL, level INTEGER NOT NULL, score INTEGER NOT NULL,
	region INTEGER NOT NULL, rating REAL NOT NULL, guild_idx INTEGER NOT NULL, guild_gen INTEGER NOT NULL);
CREATE TABLE profile(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, joined INTEGER NOT NULL, spent REAL NOT NULL);
CREATE TABLE premium(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL);
CREATE TABLE banned(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL);
CREATE TABLE product(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, sku INTEGER NOT NULL, category INTEGER NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL);
CREATE TABLE orders(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, buyer_idx INTEGER NOT NULL, buyer_gen INTEGER NOT NULL,
	item_idx INTEGER NOT NULL, item_gen INTEGER NOT NULL, price REAL NOT NULL, quantity INTEGER NOT NULL, day INTEGER NOT NULL);
CREATE TABLE store(idx INTEGER PRIMARY KEY, gen INTEGER NOT NULL, x REAL NOT NULL, y REAL NOT NULL);
CREATE TABLE sale(seq INTEGER PRIMARY KEY, buyer_idx INTEGER NOT NULL, buyer_gen INTEGER NOT NULL, item_idx INTEGER NOT NULL, item_gen INTEGER NOT NULL,
	price REAL NOT NULL);
`

// OpenDB loads d into two in-memory SQLite databases and creates the
// indexes of cases (Info.Indexes, each statement once, in case order) in
// Index, then runs ANALYZE in both. It returns SQLite's error, naming the
// statement.
func OpenDB(d *Data, cases []Case) (*DB, error) {
	db := &DB{}
	var err error
	if db.Scan, err = openLoaded(d); err == nil {
		db.Index, err = openLoaded(d)
	}
	if err == nil {
		seen := map[string]bool{}
		for _, c := range cases {
			for _, ix := range c.Info().Indexes {
				if !seen[ix] {
					seen[ix] = true
					if _, err = db.Index.Exec(ix); err != nil {
						err = fmt.Errorf("corpus: %s: %w", ix, err)
						break
					}
				}
			}
		}
	}
	for _, s := range []*sql.DB{db.Scan, db.Index} {
		if err == nil && s != nil {
			_, err = s.Exec("ANALYZE")
		}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes both databases.
func (db *DB) Close() error {
	var errs []error
	for _, s := range []*sql.DB{db.Scan, db.Index} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(errs...)
}

// openLoaded opens one in-memory database (one connection, kept) and
// loads d's rows into it in one transaction.
func openLoaded(d *Data) (*sql.DB, error) {
	s, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	s.SetMaxOpenConns(1)
	s.SetMaxIdleConns(1)
	s.SetConnMaxLifetime(0)
	for _, stmt := range []string{"PRAGMA synchronous=OFF", "PRAGMA journal_mode=MEMORY", schemaSQL} {
		if _, err := s.Exec(stmt); err != nil {
			s.Close()
			return nil, fmt.Errorf("corpus: %s: %w", strings.Fields(stmt)[0], err)
		}
	}
	if err := load(s, d); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// loader inserts the rows of one table.
type loader struct {
	tx  *sql.Tx
	err error
}

// insert prepares "INSERT INTO table VALUES (?, ...)" with n columns and
// calls row for each live row of t, in ascending row order, with the
// row's index and handle; row returns the values after idx and gen.
func (l *loader) insert(table string, n int, t *tickwork.Table, row func(r int) []any) {
	if l.err != nil {
		return
	}
	st, err := l.tx.Prepare("INSERT INTO " + table + " VALUES (" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")")
	if err != nil {
		l.err = fmt.Errorf("corpus: load %s: %w", table, err)
		return
	}
	defer st.Close()
	for r := range t.Cap() {
		h, ok := t.HandleAt(r)
		if !ok {
			continue
		}
		args := append([]any{r, h.Generation()}, row(r)...)
		if _, err := st.Exec(args...); err != nil {
			l.err = fmt.Errorf("corpus: load %s row %d: %w", table, r, err)
			return
		}
	}
}

// load inserts every live row of d's tables and the readable hit events.
func load(s *sql.DB, d *Data) error {
	tx, err := s.Begin()
	if err != nil {
		return err
	}
	l := &loader{tx: tx}
	a, p := d.A, d.Shop
	l.insert("unit", 3, a.Unit.Table, func(r int) []any { return []any{a.Unit.Health.All()[r]} })
	l.insert("body", 6, a.Body.Table, func(r int) []any {
		return []any{a.Body.X.All()[r], a.Body.Y.All()[r], a.Body.VX.All()[r], a.Body.VY.All()[r]}
	})
	l.insert("projectile", 8, a.Projectile.Table, func(r int) []any {
		pr := &a.Projectile
		t := pr.Target.All()[r]
		return []any{pr.X.All()[r], pr.Y.All()[r], pr.TTL.All()[r], pr.Damage.All()[r], t.Index(), t.Generation()}
	})
	if l.err == nil {
		st, err := tx.Prepare("INSERT INTO hit_event VALUES (?,?,?,?)")
		if err != nil {
			l.err = err
		} else {
			for i, e := range a.HitEvent.Read() {
				if _, err := st.Exec(i, e.Target.Index(), e.Target.Generation(), e.Damage); err != nil {
					l.err = err
					break
				}
			}
			st.Close()
		}
	}
	l.insert("player", 9, p.Player.Table, func(r int) []any {
		pl := &p.Player
		g := pl.Guild.All()[r]
		return []any{pl.Account.All()[r], pl.Level.All()[r], pl.Score.All()[r], pl.Region.All()[r], pl.Rating.All()[r], g.Index(), g.Generation()}
	})
	l.insert("profile", 4, p.Profile.Table, func(r int) []any { return []any{p.Profile.Joined.All()[r], p.Profile.Spent.All()[r]} })
	l.insert("premium", 2, p.Premium.Table, func(int) []any { return nil })
	l.insert("banned", 2, p.Banned.Table, func(int) []any { return nil })
	l.insert("product", 6, p.Product.Table, func(r int) []any {
		pr := &p.Product
		return []any{pr.SKU.All()[r], pr.Category.All()[r], pr.Price.All()[r], pr.Stock.All()[r]}
	})
	l.insert("orders", 9, p.Order.Table, func(r int) []any {
		o := &p.Order
		b, it := o.Buyer.All()[r], o.Item.All()[r]
		return []any{b.Index(), b.Generation(), it.Index(), it.Generation(), o.Price.All()[r], o.Quantity.All()[r], o.Day.All()[r]}
	})
	l.insert("store", 4, p.Store.Table, func(r int) []any { return []any{p.Store.X.All()[r], p.Store.Y.All()[r]} })
	if l.err == nil {
		st, err := tx.Prepare("INSERT INTO sale VALUES (?,?,?,?,?,?)")
		if err != nil {
			l.err = err
		} else {
			for i, e := range p.Sale.Read() {
				if _, err := st.Exec(i, e.Buyer.Index(), e.Buyer.Generation(), e.Item.Index(), e.Item.Generation(), e.Price); err != nil {
					l.err = err
					break
				}
			}
			st.Close()
		}
	}
	if l.err != nil {
		tx.Rollback()
		return l.err
	}
	return tx.Commit()
}
