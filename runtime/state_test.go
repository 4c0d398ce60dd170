package runtime_test

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
	"github.com/tickwork/tickwork/systems"
)

// stCounters is a pointer-free resource: a snapshot holds its bytes.
type stCounters struct {
	Born, Reaped, Pings, Shots int64
	Odd                        bool
}

// stWorld is a small world with every kind of state a snapshot holds: a
// shared domain of two tables and a standalone table, columns with a bool
// and a handle, a NextFrame table with a consumer, a ThisFrame table, a
// NextFrame table without consumers, provisional handles held across
// frames in a slice resource (resolved at the next FrameStart), a codec
// resource (*rand.PCG) and a raw one, under an accumulating clock.
type stWorld struct {
	w              *runtime.World
	mob, tag, shot *ephemeral.Table
	hp             *ephemeral.Column[int32]
	pos            *ephemeral.Column[[2]float32]
	flag           *ephemeral.Column[bool]
	owner          *ephemeral.Column[ephemeral.Handle]
	ttl            *ephemeral.Column[int16]
	born           *events.Table[ephemeral.Handle]
	ping           *events.Table[int32]
	log            *events.Table[int64]
	rng            *systems.Resource[*rand.PCG]
	pending        *systems.Resource[[]ephemeral.Handle]
	counters       *systems.Resource[stCounters]
	expired        systems.Counter    // age's "expired": shots whose TTL ran out
	created        []ephemeral.Handle // real handles resolved, in order (when keep is set)
	keep           bool
}

func newStWorld(t testing.TB, workers int) *stWorld {
	t.Helper()
	s := &stWorld{}
	b := runtime.NewBuilder(runtime.WithWorkers(workers), runtime.WithFixedStep(0.01))
	d := b.Domain(ephemeral.DomainSpec{Name: "D", Capacity: 300, ChunkRows: 64})
	s.mob = b.Table(ephemeral.TableSpec{Name: "Mob", Domain: d})
	s.tag = b.Table(ephemeral.TableSpec{Name: "Tag", Domain: d})
	s.shot = b.Table(ephemeral.TableSpec{Name: "Shot", Capacity: 100, ChunkRows: 64})
	s.hp = runtime.AddColumn[int32](b, s.mob, "HP")
	s.pos = runtime.AddColumn[[2]float32](b, s.mob, "Pos")
	s.flag = runtime.AddColumn[bool](b, s.mob, "Flag")
	s.owner = runtime.AddColumn[ephemeral.Handle](b, s.tag, "Owner")
	s.ttl = runtime.AddColumn[int16](b, s.shot, "TTL")
	s.born = runtime.AddEvents[ephemeral.Handle](b, events.Spec{Name: "born", Capacity: 64})
	s.ping = runtime.AddEvents[int32](b, events.Spec{Name: "ping", Capacity: 64, Lifetime: events.ThisFrame})
	s.log = runtime.AddEvents[int64](b, events.Spec{Name: "log", Capacity: 16})
	s.rng = runtime.AddResource(b, "rng", rand.NewPCG(7, 11))
	s.pending = runtime.AddResource(b, "pending", make([]ephemeral.Handle, 0, 64))
	s.counters = runtime.AddResource(b, "counters", stCounters{})
	b.System("resolve", systems.FrameStart, func(d *systems.Decl) systems.RunFunc {
		pending := systems.WriteResource(d, s.pending)
		hp := systems.Write(d, s.hp)
		flag := systems.Write(d, s.flag)
		born := systems.Emit(d, s.born)
		tags := systems.Record(d, s.tag)
		return func(ctx *systems.Context) {
			for _, p := range *pending {
				h, ok := ctx.Resolve(p)
				if !ok || !hp.Set(h, 100) {
					continue
				}
				flag.Set(h, h.Index()%2 == 1)
				born.Emit(h)
				tags.Attach(h)
				systems.Set(tags, s.owner, h, h)
				if s.keep {
					s.created = append(s.created, h)
				}
			}
			*pending = (*pending)[:0]
		}
	})
	b.System("spawn", systems.FixedUpdate, func(d *systems.Decl) systems.RunFunc {
		rng := *systems.WriteResource(d, s.rng)
		pending := systems.WriteResource(d, s.pending)
		c := systems.WriteResource(d, s.counters)
		mobs := systems.Record(d, s.mob)
		shots := systems.Record(d, s.shot)
		ping := systems.Emit(d, s.ping)
		return func(*systems.Context) {
			n := int(rng.Uint64() % 4)
			for i := 0; i < n && len(*pending) < cap(*pending); i++ {
				h := mobs.Create()
				systems.Set(mobs, s.pos, h, [2]float32{float32(rng.Uint64()%1000) / 7, float32(i)})
				*pending = append(*pending, h)
				ping.Emit(int32(i))
			}
			if rng.Uint64()%2 == 0 {
				sh := shots.Create()
				systems.Set(shots, s.ttl, sh, int16(1+rng.Uint64()%6))
				c.Shots++
			}
		}
	})
	b.Add(systems.System{Name: "age", Phase: systems.FixedUpdate, After: []string{"spawn"}, Declare: func(d *systems.Decl) systems.RunFunc {
		ttl := systems.Write(d, s.ttl)
		shots := systems.Record(d, s.shot)
		q := systems.NewQuery1(ttl)
		s.expired = d.Counter("expired")
		return func(*systems.Context) {
			n := int64(0)
			for r, h := range q.All() {
				v := r.Get()
				if *v--; *v <= 0 {
					shots.Delete(h)
					n++
				}
			}
			s.expired.Add(n)
		}
	}})
	b.System("reap", systems.Update, func(d *systems.Decl) systems.RunFunc {
		born := systems.Consume(d, s.born)
		c := systems.WriteResource(d, s.counters)
		mobs := systems.Record(d, s.mob)
		return func(*systems.Context) {
			for _, h := range born.Read() {
				if c.Born%3 == 0 {
					mobs.Delete(h)
					c.Reaped++
				}
				c.Born++
				c.Odd = !c.Odd
			}
		}
	})
	b.System("count", systems.LateUpdate, func(d *systems.Decl) systems.RunFunc {
		ping := systems.Consume(d, s.ping)
		log := systems.Emit(d, s.log)
		c := systems.WriteResource(d, s.counters)
		return func(*systems.Context) {
			c.Pings += int64(len(ping.Read()))
			log.Emit(c.Pings)
		}
	})
	w, err := b.Build()
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	s.w = w
	return s
}

// stDeltas are frame deltas that run 0, 1 or 2 ticks and leave a remainder.
var stDeltas = []float64{0.013, 0.004, 0.021, 0.0, 0.009, 0.017}

func (s *stWorld) run(t testing.TB, frames int) {
	t.Helper()
	for i := 0; i < frames; i++ {
		require.NoError(t, s.w.Frame(stDeltas[int(s.w.Frames())%len(stDeltas)]))
	}
}

func (s *stWorld) snap(t testing.TB) []byte {
	t.Helper()
	b, err := s.w.Snapshot(nil)
	require.NoError(t, err)
	return b
}

// TestRestoreReplays: a world restored to frame k and run M frames holds
// exactly the state (the snapshot bytes: rows, handles, free slots, events,
// readers, resolutions, clock, resources) of the uninterrupted run, and
// creates hand out the same handles; the same holds for a second world
// built alike (other domain and playback tags, which it takes from the
// snapshot), for 1 and 2 workers.
func TestRestoreReplays(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run("workers="+strconv.Itoa(workers), func(t *testing.T) {
			a := newStWorld(t, workers)
			a.run(t, 41)
			require.NotEmpty(t, *a.pending.Get(), "provisional handles await resolution at the snapshot")
			at := a.snap(t)
			a.keep = true
			a.run(t, 30)
			want, wantCreated := a.snap(t), a.created
			require.NotEmpty(t, wantCreated)
			require.NotEqual(t, at, want)

			require.NoError(t, a.w.Restore(at))
			assert.Equal(t, at, a.snap(t), "restore then snapshot gives the bytes back")
			a.created = nil
			a.run(t, 30)
			assert.Equal(t, want, a.snap(t), "same world, after restore")
			assert.Equal(t, wantCreated, a.created, "creates hand out the same handles")

			b := newStWorld(t, workers)
			require.NotEqual(t, a.w.Tables()[0].Domain().Tag(), b.w.Tables()[0].Domain().Tag())
			require.NoError(t, b.w.Restore(at))
			b.keep = true
			b.run(t, 30)
			assert.Equal(t, want, b.snap(t), "another world built alike, after restore")
			assert.Equal(t, wantCreated, b.created)

			// Another worker count: the serial buffers keep their ids, so
			// the pending provisional handles resolve alike; back in a
			// world of a's count, the state is a's.
			c := newStWorld(t, 3-workers)
			require.Equal(t, a.w.Fingerprint(), c.w.Fingerprint(), "the fingerprint does not depend on the worker count")
			require.NoError(t, c.w.Restore(at))
			c.keep = true
			c.run(t, 30)
			assert.Equal(t, wantCreated, c.created, "%d workers", 3-workers)
			d := newStWorld(t, workers)
			require.NoError(t, d.w.Restore(c.snap(t)))
			assert.Equal(t, want, d.snap(t), "a %d-worker run restored into %d workers", 3-workers, workers)
		})
	}
}

// TestRestoreCounters: a snapshot holds every system counter's Total, so
// after a restore the totals are the snapshot's and the frames that follow
// add what they added the first time; the counters are part of the
// fingerprint.
func TestRestoreCounters(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 40)
	at, atTotal := s.snap(t), s.expired.Total()
	require.Positive(t, atTotal)
	s.run(t, 40)
	want := s.expired.Total()
	require.Greater(t, want, atTotal)
	require.NoError(t, s.w.Restore(at))
	assert.Equal(t, atTotal, s.expired.Total(), "restored total")
	s.run(t, 40)
	assert.Equal(t, want, s.expired.Total(), "replayed total")
	assert.Contains(t, s.w.Declarations(), "counter age \"expired\"\n")
}

// TestRestoreNextCreate: right after a restore, a host insert takes the
// slot and generation it would have taken when the snapshot was made.
func TestRestoreNextCreate(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 25)
	at := s.snap(t)
	h1, err := s.shot.Insert()
	require.NoError(t, err)
	m1, err := s.mob.Insert()
	require.NoError(t, err)
	s.run(t, 10)
	for range 5 {
		_, _ = s.shot.Insert()
	}
	require.NoError(t, s.w.Restore(at))
	h2, err := s.shot.Insert()
	require.NoError(t, err)
	m2, err := s.mob.Insert()
	require.NoError(t, err)
	assert.Equal(t, h1, h2)
	assert.Equal(t, m1, m2)
	assert.Greater(t, h1.Generation(), uint32(1), "the slot was reused: a generation above the first")
}

// TestRestoreEvents: after a restore each reader reads exactly what it
// had yet to read when the snapshot was taken: events emitted by the host
// between frames are read once in the next frame, and the host's view of a
// table without consumers comes back.
func TestRestoreEvents(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 12)
	h, err := s.mob.Insert()
	require.NoError(t, err)
	require.NoError(t, s.born.Emit(h)) // the host's event: "reap" reads it next frame
	logView := append([]int64(nil), s.log.Read()...)
	require.NotEmpty(t, logView)
	at := s.snap(t)
	held := s.born.Held()
	require.Positive(t, held)
	before := *s.counters.Get()
	var straight []stCounters
	for range 3 {
		require.NoError(t, s.w.Frame(0))
		straight = append(straight, *s.counters.Get())
	}
	require.Equal(t, before.Born+int64(held), straight[0].Born, "the held events, the host's among them, are read in the next frame")
	require.Equal(t, straight[0].Born, straight[2].Born, "and once")

	require.NoError(t, s.w.Restore(at))
	assert.Equal(t, logView, s.log.Read())
	assert.Equal(t, held, s.born.Held())
	for i := range 3 {
		require.NoError(t, s.w.Frame(0))
		assert.Equal(t, straight[i], *s.counters.Get(), "frame %d after the restore", i)
	}
}

// refusals are the ways Restore must refuse src, each with its sentinel.
func refusals(t *testing.T, good []byte, other []byte) []struct {
	name string
	src  []byte
	want error
} {
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x40
		return b
	}
	version := append([]byte(nil), good...)
	version[8] = 9
	return []struct {
		name string
		src  []byte
		want error
	}{
		{"empty", nil, runtime.ErrTruncated},
		{"header only", good[:runtime.SnapshotHeader-1], runtime.ErrTruncated},
		{"half", good[:len(good)/2], runtime.ErrTruncated},
		{"last byte cut", good[:len(good)-1], runtime.ErrTruncated},
		{"trailing byte", append(append([]byte(nil), good...), 0), runtime.ErrCorrupt},
		{"magic", flip(0), runtime.ErrCorrupt},
		{"payload bit", flip(len(good) - 3), runtime.ErrCorrupt},
		{"fingerprint bit", flip(17), runtime.ErrCorrupt},
		{"middle bit", flip(len(good) / 2), runtime.ErrCorrupt},
		{"version", version, runtime.ErrVersion},
		{"other world", other, runtime.ErrOtherWorld},
	}
}

// TestRestoreRefusesBadInput: a truncated, corrupted, wrong-version or
// other world's snapshot is refused with its typed error and the world is
// left exactly as it was (a full snapshot before and after is the same).
func TestRestoreRefusesBadInput(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 20)
	good := s.snap(t)
	s.run(t, 7)
	before := s.snap(t)
	b := runtime.NewBuilder()
	tb := b.Table(ephemeral.TableSpec{Name: "Other", Capacity: 10})
	runtime.AddColumn[int32](b, tb, "V")
	ow, err := b.Build()
	require.NoError(t, err)
	defer ow.Close()
	other, err := ow.Snapshot(nil)
	require.NoError(t, err)
	for _, tc := range refusals(t, good, other) {
		t.Run(tc.name, func(t *testing.T) {
			err := s.w.Restore(tc.src)
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			assert.ErrorIs(t, err, runtime.ErrSnapshot)
			var se *runtime.SnapshotError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, before, s.snap(t), "world untouched")
		})
	}
}

// TestRestoreRefusesBadState: a snapshot with a valid checksum whose state
// is inconsistent (a row that is not its entity's, a free slot that is
// live, an event mark past the events, an unbalanced clock, a bool byte of
// 2) is refused as corrupt, naming the section, and changes nothing.
func TestRestoreRefusesBadState(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 20)
	good := s.snap(t)
	s.run(t, 3)
	before := s.snap(t)
	sec := sections(t, good)
	// Domain D: 320 slots (300 rounded up to chunks of 64): tag, pad, live,
	// 1280 bytes of generations, 48 of free-slot levels; table Mob: live,
	// generations, 5 enabled words, 5 chunk counts, HP, Pos, Flag.
	const mobFlag = 16 + 1280 + 48 + 8 + 1280 + 40 + 20 + 1280 + 2560
	cases := []struct {
		name, section string
		sec, off      int
		mask          byte
	}{
		{"ticks do not make the simulated time", "scheduler", 0, 8, 1},
		{"a dead slot made live", "domain D", 1, 16 + 4*299, 1},
		{"a generation past 22 bits", "domain D", 1, 16 + 4*299 + 2, 0x40},
		{"domain live count", "domain D", 1, 8, 1},
		{"a bool of 2", "domain D", 1, mobFlag + 5, 2},
		{"standalone table row", "domain Shot", 2, 16 + 4*128 + 24 + 8 + 1, 1},
		{"event marks past the events", "events born", 3, 8, 1},
		{"resource size", "resource counters", 8, -1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := mutate(t, good, sec, tc.sec, tc.off, tc.mask)
			err := s.w.Restore(src)
			require.Error(t, err)
			assert.ErrorIs(t, err, runtime.ErrCorrupt)
			var se *runtime.SnapshotError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.section, se.Section)
			assert.NotNil(t, se.Cause)
			assert.Equal(t, before, s.snap(t), "world untouched")
		})
	}
}

// TestRestoreRefusesRowOfDeadSlot: a row of table Mob on a dead slot,
// consistent in everything else (it holds the slot's word, its enabled
// bit, chunk and live counts count it), is refused: only the check that
// enabled rows are live slots' sees it.
func TestRestoreRefusesRowOfDeadSlot(t *testing.T) {
	s := newStWorld(t, 1)
	s.run(t, 20)
	good := s.snap(t)
	before := s.snap(t)
	sec := sections(t, good)
	b := append([]byte(nil), good...)
	d := b[sec[1][0] : sec[1][0]+sec[1][1]] // domain D, laid out as in TestRestoreRefusesBadState
	const slot, mob = 299, 16 + 1280 + 48
	gen := binary.LittleEndian.Uint32(d[16+4*slot:])
	require.Zero(t, gen&1, "slot 299 is dead")
	require.Zero(t, binary.LittleEndian.Uint32(d[mob+8+4*slot:]), "and has no row")
	binary.LittleEndian.PutUint32(d[mob+8+4*slot:], binary.LittleEndian.Uint32(d)<<ephemeral.HandleGenerationBits|gen)
	d[mob+8+1280+slot/8] |= 1 << (slot % 8)
	binary.LittleEndian.PutUint64(d[mob:], binary.LittleEndian.Uint64(d[mob:])+1)
	binary.LittleEndian.PutUint32(d[mob+8+1280+40+4*(slot/64):], binary.LittleEndian.Uint32(d[mob+8+1280+40+4*(slot/64):])+1)
	runtime.FixChecksum(b)
	err := s.w.Restore(b)
	require.Error(t, err)
	assert.ErrorIs(t, err, runtime.ErrCorrupt)
	assert.ErrorIs(t, err, ephemeral.ErrState)
	assert.Contains(t, err.Error(), "table \"Mob\": a row of slots 256..319 is not its live entity's")
	assert.Equal(t, before, s.snap(t), "world untouched")
}

// sections returns the payload offset and length of each section of src
// but the host configuration's (the first), so that 0 is the scheduler's.
func sections(t testing.TB, src []byte) [][2]int {
	var out [][2]int
	at := runtime.SnapshotHeader
	for at < len(src) {
		n := int(le64(src[at:]))
		out = append(out, [2]int{at + 8, n})
		at += 8 + n
	}
	require.Equal(t, len(src), at)
	return out[1:] // after the host configuration's: 0 is the scheduler's
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// mutate returns a copy of src with byte off of section k flipped (off -1:
// the section's last byte dropped, its length and the payload length
// fixed), and the checksum recomputed: a snapshot only the state checks
// can refuse.
func mutate(t testing.TB, src []byte, sec [][2]int, k, off int, mask byte) []byte {
	b := append([]byte(nil), src...)
	if off < 0 {
		at := sec[k][0] + sec[k][1] - 1
		b = append(b[:at], b[at+1:]...)
		putLE64(b[sec[k][0]-8:], uint64(sec[k][1]-1))
		putLE64(b[24:], uint64(len(b)-runtime.SnapshotHeader))
	} else {
		b[sec[k][0]+off] ^= mask
	}
	runtime.FixChecksum(b)
	return b
}

func putLE64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

// TestSnapshotRestoreAllocs: once the buffer has grown, a snapshot and a
// restore every frame allocate nothing (testing.AllocsPerRun, and the
// world's frame report counts the bytes of frames in between).
func TestSnapshotRestoreAllocs(t *testing.T) {
	s := newStWorld(t, 2)
	s.run(t, 30)
	buf, err := s.w.Snapshot(nil)
	require.NoError(t, err)
	buf = make([]byte, 0, 2*len(buf))
	require.NoError(t, s.w.Restore(s.snap(t)))
	allocs := testing.AllocsPerRun(50, func() {
		buf, err = s.w.Snapshot(buf[:0])
		if err != nil {
			panic(err)
		}
		if err := s.w.Restore(buf); err != nil {
			panic(err)
		}
		if err := s.w.Frame(stDeltas[0]); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
	assert.Zero(t, s.w.Report().AllocBytes)
}

// TestRollbackAllocs: once the ring's slots have room, Save, Checksum,
// Rewind and the frame re-run after it allocate nothing
// (testing.AllocsPerRun, and the frame report's byte count).
func TestRollbackAllocs(t *testing.T) {
	s := newStWorld(t, 2)
	s.run(t, 30)
	r, err := runtime.NewRollback(s.w, 4)
	require.NoError(t, err)
	for range 8 { // every slot written once
		require.NoError(t, r.Save())
		s.run(t, 1)
	}
	allocs := testing.AllocsPerRun(50, func() {
		if err := r.Save(); err != nil {
			panic(err)
		}
		f := s.w.Frames()
		if _, ok := r.Checksum(f); !ok {
			panic("no checksum of the frame just saved")
		}
		if err := s.w.Frame(stDeltas[1]); err != nil {
			panic(err)
		}
		if err := r.Rewind(1); err != nil {
			panic(err)
		}
		if err := s.w.Frame(stDeltas[0]); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
	assert.Zero(t, s.w.Report().AllocBytes)
}

// TestRollbackRing: a ring of 4 snapshots saved every frame rewinds 3
// frames back each frame; re-simulating reaches the state of the straight
// run, frame after frame; loading a frame it does not hold is
// ErrNoSnapshot and changes nothing.
func TestRollbackRing(t *testing.T) {
	s := newStWorld(t, 1)
	ref := newStWorld(t, 1)
	require.NoError(t, ref.w.Restore(s.snap(t))) // the same tags: snapshots compare byte for byte
	r, err := runtime.NewRollback(s.w, 4)
	require.NoError(t, err)
	assert.Equal(t, 4, r.Cap())
	var straight [][]byte
	for f := 0; f < 40; f++ {
		straight = append(straight, ref.snap(t))
		ref.run(t, 1)
	}
	for f := 0; f < 36; f++ {
		require.NoError(t, r.Save())
		s.run(t, 1)
		if f >= 2 {
			require.NoError(t, r.Rewind(3))
			require.Equal(t, straight[f-2], s.snap(t), "frame %d, rewound to %d", f, f-2)
			for k := 0; k < 3; k++ {
				require.NoError(t, r.Save())
				s.run(t, 1)
			}
		}
		require.Equal(t, straight[f+1], s.snap(t), "after frame %d", f)
	}
	oldest, ok := r.Oldest()
	require.True(t, ok)
	before := s.snap(t)
	err = r.Load(oldest - 1)
	assert.ErrorIs(t, err, runtime.ErrNoSnapshot)
	var re *runtime.RollbackError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, before, s.snap(t))
}

// TestSnapshotUnsupported: a world with an event table of a pointer-holding
// type, or a resource that holds pointers and has no codec, builds and
// runs, but Snapshot and Restore refuse it with ErrUnsupported naming it.
func TestSnapshotUnsupported(t *testing.T) {
	cases := []struct {
		name, section string
		declare       func(b *runtime.Builder)
	}{
		{"pointer events", "events names", func(b *runtime.Builder) {
			runtime.AddEvents[string](b, events.Spec{Name: "names", Capacity: 4})
		}},
		{"map resource", "resource index", func(b *runtime.Builder) {
			runtime.AddResource(b, "index", map[int]int{})
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := runtime.NewBuilder(runtime.WithWorkers(1))
			runtime.AddResource(b, "ok", [4]int32{})
			tc.declare(b)
			w, err := b.Build()
			require.NoError(t, err)
			defer w.Close()
			require.NoError(t, w.Frame(0.01))
			_, err = w.Snapshot(nil)
			assert.ErrorIs(t, err, runtime.ErrUnsupported)
			var se *runtime.SnapshotError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.section, se.Section)
			assert.ErrorIs(t, w.Restore(make([]byte, 100)), runtime.ErrUnsupported)
		})
	}
}

// TestRollbackChargesBudget: a ring's preallocated snapshots are charged to
// the world's memory budget (kind "snapshot ring"), and a ring that does
// not fit is refused with a *memory.BudgetError, charging nothing.
func TestRollbackChargesBudget(t *testing.T) {
	s := newStWorld(t, 1)
	size, err := s.w.SnapshotSize()
	require.NoError(t, err)
	before := s.w.Budget().Used()
	r, err := runtime.NewRollback(s.w, 4)
	require.NoError(t, err)
	require.NotNil(t, r)
	charged := s.w.Budget().Used() - before
	assert.GreaterOrEqual(t, charged, int64(4*size), "4 snapshots and their events' room")
	assert.Less(t, charged, int64(4*(size+64*1024)))

	b := runtime.NewBuilder(runtime.WithWorkers(1), runtime.WithMemoryBudget(1<<20))
	tab := b.Table(ephemeral.TableSpec{Name: "T", Capacity: 1000})
	runtime.AddColumn[int64](b, tab, "V")
	small, err := b.Build()
	require.NoError(t, err)
	defer small.Close()
	used := small.Budget().Used()
	_, err = runtime.NewRollback(small, 1000) // about 13 MB
	assert.ErrorIs(t, err, runtime.ErrMemoryBudget)
	assert.Equal(t, used, small.Budget().Used(), "a refused ring charges nothing")
	_, err = runtime.NewRollback(small, 8)
	assert.NoError(t, err)
	_, err = runtime.NewRollback(s.w, 0)
	assert.ErrorIs(t, err, runtime.ErrOption)
}
