package rules_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork/arena/rules"
)

// TestStageTimes: Lap records each stage's time, Append lists every stage
// in run order under the runtime's system names, allocating nothing when
// dst has room.
func TestStageTimes(t *testing.T) {
	var s rules.StageTimes
	start := time.Now().Add(-time.Millisecond)
	next := s.Lap(rules.StageCollision, start)
	assert.False(t, next.Before(start))
	got := s.Append(nil)
	assert.Len(t, got, int(rules.NumStages))
	names := make([]string, len(got))
	for i, st := range got {
		names[i] = st.Name
	}
	assert.Equal(t, []string{"ResolveRespawns", "ApplyHits", "Fire", "Collision", "IntegrateBodies",
		"IntegrateProjectiles", "Clock", "PresentationSync", "Respawn"}, names)
	assert.GreaterOrEqual(t, got[rules.StageCollision].Nanos, int64(time.Millisecond))
	assert.Zero(t, got[rules.StageFire].Nanos)
	dst := make([]rules.SystemTime, 0, rules.NumStages)
	assert.Zero(t, testing.AllocsPerRun(100, func() { dst = s.Append(dst[:0]) }))
}
