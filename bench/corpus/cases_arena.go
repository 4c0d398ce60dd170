package corpus

import (
	"cmp"
	"github.com/tickwork/tickwork/runq"
	"slices"

	"github.com/tickwork/tickwork/arena"
)

// arenaCases are the cases over the arena's state.
func arenaCases() []Case {
	return []Case{
		&Kase[Count, *Count]{
			Meta: Info{Name: "count_units", Family: "aggregate", Set: "arena",
				TW:  `query CountUnits() { from Unit u  select count() }`,
				SQL: `SELECT count(*) FROM unit`},
			NewHand: func(d *Data) func([]Count) []Count {
				t := d.A.Unit.Table
				return func(dst []Count) []Count { return append(dst, Count{int64(t.Len())}) }
			},
			NewGen: func(d *Data) func([]Count) []Count {
				q := arena.NewCountUnits(d.A)
				return func(dst []Count) []Count { return append(dst, Count{q.Run().Count}) }
			},
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "weakest_units", Family: "top-n", Set: "arena",
				TW:      `query WeakestUnits(n: int32) { from Unit u  select u, u.Health  order by u.Health  limit n }`,
				SQL:     `SELECT idx, gen, health FROM unit ORDER BY health, idx LIMIT ?`,
				Indexes: []string{`CREATE INDEX unit_health ON unit(health)`}},
			Args: func(*Data) []any { return []any{10} },
			NewHand: func(d *Data) func([]HI32) []HI32 {
				t, hs := d.A.Unit.Table, d.A.Unit.Health.All()
				less := func(a, b HI32) bool { return a.V < b.V }
				return func(dst []HI32) []HI32 {
					const n = 10
					dst = grow(dst, n)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if len(dst) < n || hs[r] < dst[n-1].V {
								dst = topN(dst, n, HI32{ID{Index: uint32(r)}, hs[r]}, less)
							}
						}
					}
					for i := range dst {
						dst[i].ID = id(t, int(dst[i].ID.Index))
					}
					return dst
				}
			},
			NewGen: genWeakestUnitsScan, // the scan: WeakestUnits is ix_weakest_units'
		},
		&Kase[HXY, *HXY]{
			Meta: Info{Name: "bodies_in_box", Family: "filter", Set: "arena",
				TW: `query BodiesInBox(x0: float32, y0: float32, x1: float32, y1: float32) {
	from Body b  where b.X >= x0 and b.X <= x1 and b.Y >= y0 and b.Y <= y1  select b, b.X, b.Y }`,
				SQL: `SELECT idx, gen, x, y FROM body WHERE x >= ?1 AND x <= ?3 AND y >= ?2 AND y <= ?4 ORDER BY idx`,
				IndexSQL: `SELECT b.idx, b.gen, b.x, b.y FROM body_rtree r CROSS JOIN body b ON b.idx = r.id
	WHERE r.minx >= ?1 AND r.maxx <= ?3 AND r.miny >= ?2 AND r.maxy <= ?4
	AND b.x >= ?1 AND b.x <= ?3 AND b.y >= ?2 AND b.y <= ?4 ORDER BY b.idx`,
				Indexes: []string{`CREATE VIRTUAL TABLE body_rtree USING rtree(id, minx, maxx, miny, maxy)`,
					`INSERT INTO body_rtree SELECT idx, x, x, y, y FROM body`}},
			Args: func(d *Data) []any { b := d.P.Box; return []any{b[0], b[1], b[2], b[3]} },
			NewHand: func(d *Data) func([]HXY) []HXY {
				t, xs, ys := d.A.Body.Table, d.A.Body.X.All(), d.A.Body.Y.All()
				x0, y0, x1, y1 := d.P.Box[0], d.P.Box[1], d.P.Box[2], d.P.Box[3]
				return func(dst []HXY) []HXY {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						xs, ys := xs[lo:hi], ys[lo:hi][:hi-lo]
						for i, x := range xs {
							if y := ys[i]; x >= x0 && x <= x1 && y >= y0 && y <= y1 {
								r := lo + i
								dst = append(dst, HXY{id(t, r), x, y})
							}
						}
					}
					return dst
				}
			},
			NewGen: genBodiesInBox,
			NewPar: genBodiesInBoxPar,
		},
		&Kase[HitTotal, *HitTotal]{
			Meta: Info{Name: "hit_totals_by_target", Family: "event group-by ref", Set: "arena",
				TW: `query HitTotalsByTarget() { from HitEvent h  group by h.Target  select h.Target, sum(h.Damage) as Total, count() as Hits }`,
				SQL: `SELECT target_idx, target_gen, sum(damage), count(*) FROM hit_event
	GROUP BY target_idx, target_gen ORDER BY target_idx, target_gen`,
				Indexes: []string{`CREATE INDEX hit_target ON hit_event(target_idx, target_gen, damage)`}},
			NewHand: func(d *Data) func([]HitTotal) []HitTotal {
				ev := d.A.HitEvent
				var scratch []arena.HitEvent
				return func(dst []HitTotal) []HitTotal {
					// the frame's hits are few: sort a copy by target, sum the runs
					scratch = append(scratch[:0], ev.Read()...)
					slices.SortFunc(scratch, func(a, b arena.HitEvent) int {
						return cmp.Or(cmp.Compare(a.Target.Index(), b.Target.Index()), cmp.Compare(a.Target.Generation(), b.Target.Generation()))
					})
					for i := 0; i < len(scratch); {
						j, t := i, HitTotal{Target: idOf(scratch[i].Target)}
						for ; j < len(scratch) && scratch[j].Target == scratch[i].Target; j++ {
							t.Total += int64(scratch[j].Damage)
							t.Hits++
						}
						dst, i = append(dst, t), j
					}
					return dst
				}
			},
			NewGen: genHitTotalsByTargetScan, // the scan: HitTotalsByTarget is ix_hit_totals_by_target's
		},
		&Kase[HI32, *HI32]{
			Meta: Info{Name: "low_health_units", Family: "filter", Set: "arena",
				TW:      `query LowHealth(h: int32) { from Unit u  where u.Health <= h  select u, u.Health }`,
				SQL:     `SELECT idx, gen, health FROM unit WHERE health <= ? ORDER BY idx`,
				Indexes: []string{`CREATE INDEX unit_health ON unit(health)`}},
			Args:   func(*Data) []any { return []any{1} },
			NewGen: genLowHealth,
			NewPar: genLowHealthPar,
			NewHand: func(d *Data) func([]HI32) []HI32 {
				t, hs := d.A.Unit.Table, d.A.Unit.Health.All()
				return func(dst []HI32) []HI32 {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if hs[r] <= 1 {
								dst = append(dst, HI32{id(t, r), hs[r]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[XY, *XY]{
			Meta: Info{Name: "body_by_handle", Family: "point lookup", Set: "arena",
				TW:  `query BodyAt(h: ref Body) { from Body b  where b == h  select b.X, b.Y }`,
				SQL: `SELECT x, y FROM body WHERE idx = ? AND gen = ?`},
			Args:   func(d *Data) []any { return []any{d.P.Body.Index(), d.P.Body.Generation()} },
			Vals:   func(d *Data) []runq.Value { return []runq.Value{runq.Ref(d.P.Body)} },
			NewGen: genBodyAt,
			NewHand: func(d *Data) func([]XY) []XY {
				t, xs, ys, h := d.A.Body.Table, d.A.Body.X.All(), d.A.Body.Y.All(), d.P.Body
				return func(dst []XY) []XY {
					if r := t.Lease().Find(h); r >= 0 {
						dst = append(dst, XY{xs[r], ys[r]})
					}
					return dst
				}
			},
		},
		&Kase[I32Count, *I32Count]{
			Meta: Info{Name: "units_by_health", Family: "group-by int", Set: "arena",
				TW:      `query HealthCounts() { from Unit u  group by u.Health  select u.Health, count() }`,
				SQL:     `SELECT health, count(*) FROM unit GROUP BY health ORDER BY health`,
				Indexes: []string{`CREATE INDEX unit_health ON unit(health)`}},
			NewGen: genUnitsByHealth,
			NewHand: func(d *Data) func([]I32Count) []I32Count {
				t, hs := d.A.Unit.Table, d.A.Unit.Health.All()
				groups := map[int32]int{}
				return func(dst []I32Count) []I32Count {
					clear(groups)
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							g, ok := groups[hs[r]]
							if !ok {
								g = len(dst)
								groups[hs[r]] = g
								dst = append(dst, I32Count{K: hs[r]})
							}
							dst[g].N++
						}
					}
					slices.SortFunc(dst, func(a, b I32Count) int { return cmp.Compare(a.K, b.K) })
					return dst
				}
			},
		},
		&Kase[BodyStats, *BodyStats]{
			Meta: Info{Name: "body_velocity_stats", Family: "aggregate", Set: "arena",
				TW:        `query Velocity() { from Body b  select min(b.VX), max(b.VX), avg(b.VX), sum(b.VY) }`,
				SQL:       `SELECT min(vx), max(vx), avg(vx), sum(vy) FROM body`,
				Tolerance: "avg(vx), sum(vy): SQLite sums floats with Kahan-Babuska-Neumaier compensation, the query in plain float64 in index order"},
			NewGen: genVelocity,
			NewHand: func(d *Data) func([]BodyStats) []BodyStats {
				t, vx, vy := d.A.Body.Table, d.A.Body.VX.All(), d.A.Body.VY.All()
				return func(dst []BodyStats) []BodyStats {
					var s BodyStats
					var sx float64
					n := 0
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if n == 0 || vx[r] < s.MinVX {
								s.MinVX = vx[r]
							}
							if n == 0 || vx[r] > s.MaxVX {
								s.MaxVX = vx[r]
							}
							sx += float64(vx[r])
							s.SumVY += float64(vy[r])
							n++
						}
					}
					if n > 0 {
						s.AvgVX = sx / float64(n)
					}
					return append(dst, s)
				}
			},
			Close: func(a, b BodyStats) bool {
				return a.MinVX == b.MinVX && a.MaxVX == b.MaxVX && near(a.AvgVX, b.AvgVX) && near(a.SumVY, b.SumVY)
			},
		},
		&Kase[HXY, *HXY]{
			Meta: Info{Name: "projectile_targets", Family: "join ref", Set: "arena",
				TW: `query ProjectileTargets() { from Projectile p  join Body b on p.Target  select p, b.X, b.Y }`,
				SQL: `SELECT p.idx, p.gen, b.x, b.y FROM projectile p JOIN body b ON b.idx = p.target_idx AND b.gen = p.target_gen
	ORDER BY p.idx`},
			NewGen: genProjectileTargets,
			NewPar: genProjectileTargetsPar,
			NewHand: func(d *Data) func([]HXY) []HXY {
				t, tg, body := d.A.Projectile.Table, d.A.Projectile.Target.All(), d.A.Body.Table
				xs, ys := d.A.Body.X.All(), d.A.Body.Y.All()
				return func(dst []HXY) []HXY {
					b := body.Lease()
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if br := b.Find(tg[r]); br >= 0 {
								dst = append(dst, HXY{id(t, r), xs[br], ys[br]})
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HMissF32, *HMissF32]{
			Meta: Info{Name: "old_projectiles_left", Family: "left join ref", Set: "arena",
				TW: `query OldProjectiles(ttl: int32) { from Projectile p  left join Body b on p.Target  where p.TTL < ttl
	select p, missing(b) as Lost, b.X }`,
				SQL: `SELECT p.idx, p.gen, b.idx IS NULL, coalesce(b.x, 0.0) FROM projectile p
	LEFT JOIN body b ON b.idx = p.target_idx AND b.gen = p.target_gen WHERE p.ttl < ? ORDER BY p.idx`},
			Args:   func(*Data) []any { return []any{24} },
			NewGen: genOldProjectiles,
			NewPar: genOldProjectilesPar,
			NewHand: func(d *Data) func([]HMissF32) []HMissF32 {
				t, tg, ttl, body := d.A.Projectile.Table, d.A.Projectile.Target.All(), d.A.Projectile.TTL.All(), d.A.Body.Table
				xs := d.A.Body.X.All()
				return func(dst []HMissF32) []HMissF32 {
					b := body.Lease()
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if ttl[r] < 24 {
								row := HMissF32{ID: id(t, r), Missing: true}
								if br := b.Find(tg[r]); br >= 0 {
									row.Missing, row.V = false, xs[br]
								}
								dst = append(dst, row)
							}
						}
					}
					return dst
				}
			},
		},
		&Kase[HXY, *HXY]{
			Meta: Info{Name: "healthy_near_wall", Family: "join entity", Set: "arena",
				TW: `query HealthyNearWall(x: float32) { from Unit u  join Body b on u  where u.Health == 3 and b.X < x
	select u, b.X, b.Y }`,
				SQL: `SELECT u.idx, u.gen, b.x, b.y FROM unit u JOIN body b ON b.idx = u.idx WHERE u.health = 3 AND b.x < ? ORDER BY u.idx`},
			Args:   func(*Data) []any { return []any{float32(200)} },
			NewGen: genHealthyNearWall,
			NewPar: genHealthyNearWallPar,
			NewHand: func(d *Data) func([]HXY) []HXY {
				t, hs, body := d.A.Unit.Table, d.A.Unit.Health.All(), presenceIn(d.A.Body.Table)
				xs, ys := d.A.Body.X.All(), d.A.Body.Y.All()
				return func(dst []HXY) []HXY {
					for w := walk(t); w.next(); {
						lo, hi := w.lo, w.hi
						for r := lo; r < hi; r++ {
							if hs[r] == 3 && xs[r] < 200 && body.has(r) {
								dst = append(dst, HXY{id(t, r), xs[r], ys[r]})
							}
						}
					}
					return dst
				}
			},
		},
	}
}
