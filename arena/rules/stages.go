package rules

import "time"

// Stage indexes the timed stages of one frame (arena rules v1, "One
// frame"), in run order; their names are the runtime's system names.
type Stage int

// The stages, in run order.
const (
	StageResolveRespawns Stage = iota
	StageApplyHits
	StageFire
	StageCollision
	StageIntegrateBodies
	StageIntegrateProjectiles
	StageClock
	StagePresentationSync
	StageRespawn
	NumStages
)

// stageNames are the stages' system names, SystemTime.Name.
var stageNames = [NumStages]string{
	"ResolveRespawns", "ApplyHits", "Fire", "Collision", "IntegrateBodies",
	"IntegrateProjectiles", "Clock", "PresentationSync", "Respawn",
}

// StageTimes is the wall time of each stage of the last frame, for a
// hand-written implementation's SystemTimes (the baseline, a port): Lap
// between the stages, Append for SystemTimes. The zero value is ready; it
// allocates nothing. Not safe for concurrent use.
type StageTimes struct{ nanos [NumStages]int64 }

// Lap records the time since t as stage st's (nanoseconds) and returns
// now, the start of the next stage. It panics for a stage outside
// 0..NumStages-1.
func (s *StageTimes) Lap(st Stage, t time.Time) time.Time {
	now := time.Now()
	s.nanos[st] = int64(now.Sub(t))
	return now
}

// Append appends each stage's last time to dst in run order, named as the
// runtime's systems, and returns it; it allocates only when dst has no
// room.
func (s *StageTimes) Append(dst []SystemTime) []SystemTime {
	for i, ns := range s.nanos {
		dst = append(dst, SystemTime{Name: stageNames[i], Nanos: ns})
	}
	return dst
}
