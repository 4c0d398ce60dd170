package main

import (
	"errors"

	"github.com/tickwork/tickwork/arena/rules"
)

// fakeSim is a rules.Sim for tests that need no arena: Frame advances the
// frame count and moves every unit one world unit right; it allocates
// nothing.
type fakeSim struct {
	frames int64
	pres   []rules.Slot
	proj   []float32
	c      rules.Counters
	sys    []rules.SystemTime
	fail   bool // Frame returns errFake
}

var errFake = errors.New("fake: frame failed")

func newFakeSim(pres []rules.Slot, proj []float32) *fakeSim {
	return &fakeSim{
		pres: pres,
		proj: proj,
		sys: []rules.SystemTime{
			{Name: "Fire", Nanos: 300}, {Name: "Collision", Nanos: 900},
			{Name: "IntegrateBodies", Nanos: 500}, {Name: "Respawn", Nanos: 100},
		},
	}
}

func (s *fakeSim) Name() string { return "fake" }

func (s *fakeSim) Frame() error {
	if s.fail {
		return errFake
	}
	s.frames++
	for i := range s.pres {
		s.pres[i].X++
	}
	s.c.ShotsFired++
	return nil
}

func (s *fakeSim) Frames() int64                       { return s.frames }
func (s *fakeSim) Counters() rules.Counters            { return s.c }
func (s *fakeSim) Presentation() []rules.Slot          { return s.pres }
func (s *fakeSim) Projectiles(dst []float32) []float32 { return append(dst, s.proj...) }
func (s *fakeSim) ProjectileChecksum() uint64          { return 7 }
func (s *fakeSim) SystemTimes(dst []rules.SystemTime) []rules.SystemTime {
	return append(dst, s.sys...)
}
func (s *fakeSim) Close() error { return nil }
