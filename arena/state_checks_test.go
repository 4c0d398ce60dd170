package arena_test

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
)

// snapshotHeader is the header's length (docs/state.md, "Format").
const snapshotHeader = 40

// snapSections cuts a snapshot's payload into its sections (docs/state.md,
// "Format"): the host configuration's first, the resources rng, respawns
// and presentation last.
func snapSections(t *testing.T, snap []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for at := snapshotHeader; at < len(snap); {
		n := int(binary.LittleEndian.Uint64(snap[at:]))
		out = append(out, snap[at+8:at+8+n])
		at += 8 + n
	}
	require.Equal(t, int(binary.LittleEndian.Uint32(snap[32:])), len(out))
	return out
}

// joinSections is a snapshot of header's fields and secs, its payload
// length and checksum made to match (what a crafted file does).
func joinSections(header []byte, secs [][]byte) []byte {
	b := append([]byte(nil), header[:snapshotHeader]...)
	for _, s := range secs {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(s)))
		b = append(b, s...)
	}
	binary.LittleEndian.PutUint64(b[24:], uint64(len(b)-snapshotHeader))
	tab := crc32.MakeTable(crc32.Castagnoli)
	binary.LittleEndian.PutUint32(b[12:], crc32.Update(crc32.Update(0, tab, b[snapshotHeader:]), tab, b[16:snapshotHeader]))
	return b
}

// TestRestoreRefusesOtherConfig: a save of a Sim of other shots, units or
// rules version is refused naming the parameter and both values (shots
// 255 and 256 give the same declarations: only the host configuration
// tells them apart), and the Sim is as it was.
func TestRestoreRefusesOtherConfig(t *testing.T) {
	cfg := rules.Config{Units: 2000, Shots: 256, Seed: 9}
	s := newSim(t, cfg)
	run(t, s, 10)
	save, err := s.Snapshot(nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		cfg  rules.Config
		want string
	}{
		{rules.Config{Units: 2000, Shots: 255, Seed: 9}, "arena: saved with shots 256, this run has shots 255"},
		{rules.Config{Units: 2001, Shots: 256, Seed: 9}, "arena: saved with units 2000, this run has units 2001"},
		{rules.Config{Units: 2000, Shots: 256, Seed: 9, Workers: 3}, ""},
	} {
		o := newSim(t, tc.cfg)
		before, err := o.Snapshot(nil)
		require.NoError(t, err)
		err = o.Restore(save)
		if tc.want == "" {
			require.NoError(t, err, "another worker count is the same configuration")
			continue
		}
		var oc *arena.OtherConfigError
		require.ErrorAs(t, err, &oc)
		assert.ErrorIs(t, err, tickwork.ErrHostConfig)
		assert.Equal(t, tc.want, err.Error())
		after, _ := o.Snapshot(nil)
		assert.Equal(t, before, after, "refused: the Sim is as it was")
	}

	// Another rules version: the host section of a v2 arena.
	secs := snapSections(t, save)
	secs[0] = []byte("tickwork arena\nrules 2\nunits 2000\nshots 256\nseed 9\n")
	err = s.Restore(joinSections(save, secs))
	var oc *arena.OtherConfigError
	require.ErrorAs(t, err, &oc)
	assert.Equal(t, "arena: saved with rules v2, this run has rules v1", err.Error())
}

// TestRestoreRefusesCraftedPresentation: a save whose presentation section
// is one slot longer or shorter, with its lengths and checksum made to
// match, is refused naming the resource (its declared length is the
// roster), a 480 MB one by its payload length, and the Sim is as it was.
func TestRestoreRefusesCraftedPresentation(t *testing.T) {
	s := newSim(t, rules.Config{Units: 2000, Shots: 256, Seed: 4})
	run(t, s, 10)
	save, err := s.Snapshot(nil)
	require.NoError(t, err)
	before := append([]byte(nil), save...)
	secs := snapSections(t, save)
	pres := len(secs) - 1
	slot := len(secs[pres]) / 2000
	for _, n := range []int{len(secs[pres]) + slot, len(secs[pres]) - slot, 480 << 20 / slot * slot} {
		section := "resource presentation"
		if n > 1<<20 {
			section = "header" // a payload past World.MaxSnapshotSize: refused before any section is cut
		}
		crafted := append([][]byte(nil), secs...)
		crafted[pres] = make([]byte, n)
		copy(crafted[pres], secs[pres])
		err := s.Restore(joinSections(save, crafted))
		require.Error(t, err, "presentation of %d bytes", n)
		assert.ErrorIs(t, err, tickwork.ErrCorrupt)
		var se *tickwork.SnapshotError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, section, se.Section, "%v", err)
		after, _ := s.Snapshot(nil)
		assert.Equal(t, before, after, "refused: the Sim is as it was")
	}
}

// TestRestoreRefusesBogusRespawn: a save whose respawn queue holds a slot
// outside the roster, slots out of order or a handle that is no
// provisional one (lengths and checksum made to match) is refused at
// Restore naming the entry, not at the next frame; the Sim is as it was.
func TestRestoreRefusesBogusRespawn(t *testing.T) {
	s := newSim(t, rules.Config{Units: 3000, Shots: 256, Seed: 5})
	var save []byte
	for save == nil || len(snapSections(t, save)[len(snapSections(t, save))-2]) < 2*16 {
		run(t, s, 1)
		var err error
		save, err = s.Snapshot(save[:0])
		require.NoError(t, err)
		require.Less(t, s.Frames(), int64(400), "two units die in one frame")
	}
	before := append([]byte(nil), save...)
	secs := snapSections(t, save)
	q := len(secs) - 2 // respawns: 16 bytes an entry, slot (int32) at 0, handle at 8
	for _, tc := range []struct {
		name string
		edit func(e []byte)
		want string
	}{
		{"slot outside", func(e []byte) { binary.LittleEndian.PutUint32(e, 3000) }, "respawn entry 0: slot 3000 outside the roster 0..2999"},
		{"out of order", func(e []byte) { copy(e[16:20], e[0:4]) }, "respawn entry 1: slot"},
		{"real handle", func(e []byte) { e[15] |= 0x10 }, "respawn entry 0 (slot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crafted := append([][]byte(nil), secs...)
			crafted[q] = append([]byte(nil), secs[q]...)
			tc.edit(crafted[q])
			err := s.Restore(joinSections(save, crafted))
			require.Error(t, err)
			assert.ErrorIs(t, err, tickwork.ErrCorrupt)
			var se *tickwork.SnapshotError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "resource respawns", se.Section)
			assert.Contains(t, err.Error(), tc.want)
			after, _ := s.Snapshot(nil)
			assert.Equal(t, before, after, "refused: the Sim is as it was")
		})
	}
	require.NoError(t, s.Restore(save), "the save itself loads")
	run(t, s, 2)
}
