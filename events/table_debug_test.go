//go:build tickwork_debug

package events

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type strike struct {
	Damage float32
	Count  int32
	Crit   bool
}

func poisoned(t *testing.T, got []strike) {
	t.Helper()
	for i, e := range got {
		assert.True(t, math.IsNaN(float64(e.Damage)), "event %d Damage: %v", i, e.Damage)
		assert.Equal(t, int32(-1), e.Count, "event %d", i)
		assert.False(t, e.Crit, "event %d: bools stay valid", i)
	}
}

// TestDebugBuildPoisonsRetiredEvents: the slots of retired events read the
// poison pattern, through a slice kept past its boundary: a ThisFrame
// table at EndFrame, a NextFrame table once every reader passed them, and
// a NextFrame table without readers when the view moves on.
func TestDebugBuildPoisonsRetiredEvents(t *testing.T) {
	emit := func(tb *Table[strike], n int) {
		for i := range n {
			require.NoError(t, tb.Emit(strike{Damage: float32(i + 1), Count: int32(i), Crit: true}))
		}
	}
	t.Run("ThisFrame", func(t *testing.T) {
		tb, err := New[strike](Spec{Name: "hits", Capacity: 8, Lifetime: ThisFrame, MayGoUnread: true})
		require.NoError(t, err)
		emit(tb, 3)
		kept := tb.Read()
		require.Len(t, kept, 3)
		assert.Equal(t, float32(1), kept[0].Damage)
		tb.endFrame()
		poisoned(t, kept)
	})
	t.Run("NextFrame with a reader", func(t *testing.T) {
		tb, err := New[strike](Spec{Name: "hits", Capacity: 8})
		require.NoError(t, err)
		r := tb.NewReader(PerFrame)
		emit(tb, 3)
		tb.endFrame()
		tb.beginFrame()
		kept := r.Read()
		require.Len(t, kept, 3)
		assert.Equal(t, float32(3), kept[2].Damage)
		r.Done()
		poisoned(t, kept)
	})
	t.Run("NextFrame without readers", func(t *testing.T) {
		tb, err := New[strike](Spec{Name: "hits", Capacity: 8})
		require.NoError(t, err)
		emit(tb, 2)
		tb.endFrame()
		kept := tb.Read()
		require.Len(t, kept, 2)
		tb.endFrame() // the view moves on: this frame had no events
		poisoned(t, kept)
		assert.Empty(t, tb.Read())
	})
}
