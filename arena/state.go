package arena

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/tickwork/tickwork"
	"github.com/tickwork/tickwork/arena/rules"
)

// stream is the arena's random stream resource (arena rules v1, "Random
// numbers"): the generator rules.NewRand makes, with its PCG source kept
// so that a snapshot holds the stream's state. Its codec is the PCG's
// (encoding.BinaryAppender and BinaryUnmarshaler of math/rand/v2's PCG,
// 20 bytes); the generator itself keeps no state of its own.
type stream struct {
	*rand.Rand
	pcg *rand.PCG
}

// newStream is rules.NewRand(seed) with its source kept.
func newStream(seed uint64) stream {
	pcg := rand.NewPCG(seed, rules.PCGStream)
	return stream{Rand: rand.New(pcg), pcg: pcg}
}

// AppendBinary appends the PCG's state (encoding.BinaryAppender).
func (s *stream) AppendBinary(b []byte) ([]byte, error) { return s.pcg.AppendBinary(b) }

// UnmarshalBinary sets the PCG's state (encoding.BinaryUnmarshaler); a
// zero stream gets a source of its own first.
func (s *stream) UnmarshalBinary(b []byte) error {
	if s.pcg == nil {
		s.pcg = new(rand.PCG)
		s.Rand = rand.New(s.pcg)
	}
	return s.pcg.UnmarshalBinary(b)
}

// Snapshot appends the Sim's state, its world's snapshot, to dst
// (tickwork.World.Snapshot; docs/state.md): every table, the event tables,
// the respawns awaiting resolution, the random stream, the presentation
// buffer, the counters and the clock. It allocates nothing once dst has
// room. Between frames only.
func (s *Sim) Snapshot(dst []byte) ([]byte, error) { return s.world.Snapshot(dst) }

// Restore makes the Sim hold a state Snapshot took from a Sim of the same
// SavedConfig (rules version, units, shots and seed; any workers or lane):
// the next frames are those that followed the snapshot. It returns
// World.Restore's typed errors, a snapshot of another configuration as an
// *OtherConfigError naming the parameter (errors.Is
// tickwork.ErrHostConfig), and then changes nothing. The Sim holds no
// handle outside the world, so nothing else is read again.
func (s *Sim) Restore(src []byte) error {
	err := s.world.Restore(src)
	if oc := s.OtherConfig(err); oc != nil {
		return oc
	}
	return err
}

// Digest is the digest of the Sim's state (rules.Digest over the
// presentation, the frames run, the counters and the projectile checksum).
func (s *Sim) Digest() uint64 {
	return rules.Digest(s.Presentation(), s.Frames(), s.Counters(), s.ProjectileChecksum())
}

// RulesVersion is the version of the arena rules this package runs
// (arena rules v1); a Sim's snapshots carry it (SavedConfig).
const RulesVersion = 1

// SavedConfig is the part of a Sim's configuration its snapshots carry as
// the world's host configuration (tickwork.WithHostConfig; docs/state.md,
// "Host configuration"): what changes the frames of a run and is not a
// declaration of its world. Workers and the lane are not in it (every
// worker count and lane gives the same frames); the units are, though they
// change the declarations too, so that a refusal names them.
type SavedConfig struct {
	Rules int    // RulesVersion
	Units int    // rules.Config.Units
	Shots int    // rules.Config.Shots
	Seed  uint64 // rules.Config.Seed: the baseline of a comparison replays from it
}

// savedConfig is cfg's SavedConfig.
func savedConfig(cfg rules.Config) SavedConfig {
	return SavedConfig{Rules: RulesVersion, Units: cfg.Units, Shots: cfg.Shots, Seed: cfg.Seed}
}

// hostConfigHead opens the bytes of a SavedConfig.
const hostConfigHead = "tickwork arena"

// MarshalText is the host configuration's bytes: a line "tickwork arena",
// then "rules", "units", "shots" and "seed", each a line of the name, a
// space and the decimal value.
func (c SavedConfig) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%s\nrules %d\nunits %d\nshots %d\nseed %d\n", hostConfigHead, c.Rules, c.Units, c.Shots, c.Seed), nil
}

// UnmarshalText reads MarshalText's bytes; an error for any other.
func (c *SavedConfig) UnmarshalText(b []byte) error {
	var v SavedConfig
	var tail string
	n, err := fmt.Sscanf(string(b), hostConfigHead+"\nrules %d\nunits %d\nshots %d\nseed %d\n%s", &v.Rules, &v.Units, &v.Shots, &v.Seed, &tail)
	if n < 4 || tail != "" || err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("arena: %q is no arena configuration", b)
	}
	*c = v
	return nil
}

// OtherConfigError is a snapshot of a Sim of another SavedConfig, refused
// by its Restore (or tickwork.LoadFile of its world): Param is the first
// parameter that differs ("rules", "units", "shots" or "seed"; "host
// configuration" when the snapshot's bytes are no arena configuration),
// Saved and Run its values in the snapshot and in this Sim. Err is the
// runtime's refusal (errors.Is tickwork.ErrHostConfig).
type OtherConfigError struct {
	Param      string
	Saved, Run string
	Err        error
}

func (e *OtherConfigError) Error() string {
	return "arena: saved with " + e.Param + " " + e.Saved + ", this run has " + e.Param + " " + e.Run
}

// Unwrap returns Err.
func (e *OtherConfigError) Unwrap() error { return e.Err }

// OtherConfig returns the *OtherConfigError that explains err, the error
// of a Restore of s's world (World.Restore, tickwork.LoadFile) that
// refused a snapshot of another configuration (tickwork.ErrHostConfig),
// naming the first parameter that differs; nil for any other err.
// Allocates.
func (s *Sim) OtherConfig(err error) *OtherConfigError {
	var he *tickwork.HostConfigError
	if !errors.As(err, &he) {
		return nil
	}
	run := savedConfig(s.cfg)
	var saved SavedConfig
	if saved.UnmarshalText(he.Saved) != nil {
		return &OtherConfigError{Param: "host configuration", Saved: strconv.Quote(string(he.Saved)), Run: strconv.Quote(string(he.Want)), Err: err}
	}
	e := &OtherConfigError{Err: err}
	switch {
	case saved.Rules != run.Rules:
		e.Param, e.Saved, e.Run = "rules", "v"+strconv.Itoa(saved.Rules), "v"+strconv.Itoa(run.Rules)
	case saved.Units != run.Units:
		e.Param, e.Saved, e.Run = "units", strconv.Itoa(saved.Units), strconv.Itoa(run.Units)
	case saved.Shots != run.Shots:
		e.Param, e.Saved, e.Run = "shots", strconv.Itoa(saved.Shots), strconv.Itoa(run.Shots)
	case saved.Seed != run.Seed:
		e.Param, e.Saved, e.Run = "seed", strconv.FormatUint(saved.Seed, 10), strconv.FormatUint(run.Seed, 10)
	default:
		return nil
	}
	return e
}

// checkRespawns is the respawns resource's check at Restore
// (tickwork.CheckResource): a restored queue holds at most Units entries,
// in ascending slot order (Respawn sorts the dead slots), each a slot of
// the roster (0..Units-1) and a provisional handle (untagged, even nonzero
// generation: the create ResolveRespawns resolves). A bogus entry is
// refused naming it, before the world changes, instead of failing the
// next frame.
func (s *Sim) checkRespawns(q *[]respawn) error {
	if len(*q) > s.cfg.Units {
		return fmt.Errorf("arena: %d respawn entries, more than the %d roster slots", len(*q), s.cfg.Units)
	}
	for i, p := range *q {
		switch g := p.unit.Generation(); {
		case p.slot < 0 || int(p.slot) >= s.cfg.Units:
			return fmt.Errorf("arena: respawn entry %d: slot %d outside the roster 0..%d", i, p.slot, s.cfg.Units-1)
		case i > 0 && p.slot <= (*q)[i-1].slot:
			return fmt.Errorf("arena: respawn entry %d: slot %d after slot %d, not in ascending order", i, p.slot, (*q)[i-1].slot)
		case p.unit.Tag() != 0 || g == 0 || g&1 != 0:
			return fmt.Errorf("arena: respawn entry %d (slot %d): handle %v is no provisional handle of a create", i, p.slot, p.unit)
		}
	}
	return nil
}
