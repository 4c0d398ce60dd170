package hud

import (
	"reflect"
	"testing"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestFrameRingP50(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		times []time.Duration
		want  time.Duration
		len   int
	}{
		{"empty", 4, nil, 0, 0},
		{"one", 4, []time.Duration{7}, 7, 1},
		{"odd", 8, []time.Duration{5, 1, 9}, 5, 3},
		{"even takes the upper median", 8, []time.Duration{4, 1, 3, 2}, 3, 4},
		{"full ring forgets the oldest", 3, []time.Duration{100, 100, 100, 1, 2, 3}, 2, 3},
		{"size clamped to 1", 0, []time.Duration{8, 9}, 9, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewFrameRing(tt.size)
			for _, d := range tt.times {
				r.Add(d)
			}
			if got := r.P50(); got != tt.want {
				t.Errorf("P50() = %v, want %v", got, tt.want)
			}
			if got := r.Len(); got != tt.len {
				t.Errorf("Len() = %d, want %d", got, tt.len)
			}
		})
	}
}

func TestFrameRingAllocatesNothing(t *testing.T) {
	r := NewFrameRing(256)
	allocs := testing.AllocsPerRun(100, func() {
		r.Add(time.Millisecond)
		_ = r.P50()
	})
	if allocs != 0 {
		t.Errorf("Add and P50: %v allocations, want 0", allocs)
	}
}

func st(name string, ns int64) rules.SystemTime { return rules.SystemTime{Name: name, Nanos: ns} }

func TestTopSystems(t *testing.T) {
	tests := []struct {
		name string
		in   []rules.SystemTime
		want []rules.SystemTime
	}{
		{"none", nil, []rules.SystemTime{}},
		{"fewer than three", []rules.SystemTime{st("a", 1), st("b", 5)}, []rules.SystemTime{st("b", 5), st("a", 1)}},
		{
			"picks the three largest",
			[]rules.SystemTime{st("a", 1), st("b", 9), st("c", 3), st("d", 7), st("e", 2), st("f", 8)},
			[]rules.SystemTime{st("b", 9), st("f", 8), st("d", 7)},
		},
		{
			"ties keep the earlier first",
			[]rules.SystemTime{st("a", 5), st("b", 5), st("c", 5), st("d", 5)},
			[]rules.SystemTime{st("a", 5), st("b", 5), st("c", 5)},
		},
		{
			"ascending input",
			[]rules.SystemTime{st("a", 1), st("b", 2), st("c", 3), st("d", 4)},
			[]rules.SystemTime{st("d", 4), st("c", 3), st("b", 2)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var top [3]rules.SystemTime
			n := TopSystems(tt.in, &top)
			if got := top[:n]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("TopSystems(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}
