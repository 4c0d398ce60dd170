package arena_test

import (
	"testing"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// BenchmarkSnapshot: a snapshot and a restore of the 100 000-unit arena
// (after 120 frames) against the memory floor, copy of as many bytes.
// tickwork is the rollback ring's (Rollback.Save and Load: what a
// rollback frame pays), checked is World.Snapshot and World.Restore (the
// checksum pass, and on restore the checksum and every state check before
// anything changes: what a save file pays), memcpy the floor. The
// snapshot's size is reported as snapshot_bytes; docs/benchmarks.md has
// the figures and the command.
func BenchmarkSnapshot(b *testing.B) {
	s := newSim(b, rules.Config{Units: 100_000, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: 1})
	for range 120 {
		if err := s.Frame(); err != nil {
			b.Fatal(err)
		}
	}
	snap, err := s.Snapshot(nil)
	if err != nil {
		b.Fatal(err)
	}
	ring, err := tickwork.NewRollback(s.World(), 1)
	if err != nil {
		b.Fatal(err)
	}
	frame := uint64(s.Frames())
	dst := make([]byte, len(snap))
	size := func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(snap)))
	}
	// report is called after the loop: b.Loop resets earlier metrics.
	report := func(b *testing.B) { b.ReportMetric(float64(len(snap)), "snapshot_bytes") }
	// memcpy is the floor of both: a copy of the snapshot's bytes.
	memcpy := func(b *testing.B) {
		size(b)
		for b.Loop() {
			copy(dst, snap)
		}
		report(b)
	}
	b.Run("snapshot", func(b *testing.B) {
		b.Run("tickwork", func(b *testing.B) {
			size(b)
			for b.Loop() {
				if err := ring.Save(); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
		b.Run("checked", func(b *testing.B) {
			size(b)
			buf := make([]byte, 0, len(snap))
			for b.Loop() {
				if buf, err = s.Snapshot(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
		b.Run("memcpy", memcpy)
	})
	b.Run("restore", func(b *testing.B) {
		b.Run("tickwork", func(b *testing.B) {
			size(b)
			for b.Loop() {
				if err := ring.Load(frame); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
		b.Run("checked", func(b *testing.B) {
			size(b)
			for b.Loop() {
				if err := s.Restore(snap); err != nil {
					b.Fatal(err)
				}
			}
			report(b)
		})
		b.Run("memcpy", memcpy)
	})
}
