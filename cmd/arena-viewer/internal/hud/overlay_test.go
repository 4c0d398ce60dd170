package hud

import (
	"strings"
	"testing"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestAppendHex16(t *testing.T) {
	for _, d := range []uint64{0, 1, 0xabc, 0x0123456789abcdef, 1<<64 - 1} {
		if got, want := string(appendHex16(nil, d)), rules.FormatDigest(d); got != want {
			t.Errorf("appendHex16(%#x) = %q, want %q", d, got, want)
		}
	}
}

func testStatus() *Status {
	return &Status{
		Impl:   "soa",
		Cfg:    rules.Config{Units: 100000, Shots: 256, Seed: 42},
		Frames: 720,
		Paused: true,
		FPS:    59.94, TPS: 64,
		P50:    1234567 * time.Nanosecond,
		Window: 256,
		Top:    []rules.SystemTime{{Name: "Collision", Nanos: 900000}, {Name: "Fire", Nanos: 50000}},
		Counters: rules.Counters{
			ShotsFired: 1000, Hits: 20, Deaths: 3, Lost: 4, Expired: 500, LiveProjectiles: 476,
		},
		Digest: 0x00ff00ff00ff00ff,
		Scale:  0.5,
	}
}

func TestAppendOverlay(t *testing.T) {
	text := string(AppendOverlay(nil, testStatus()))
	for _, want := range []string{
		"soa  units 100000  shots/tick 256  seed 42\n",
		"frame 720  FPS 59.9  TPS 64.0  PAUSED\n",
		"frame p50 1.23 ms (last 256 frames)\n",
		"Collision 0.90 ms  Fire 0.05 ms\n",
		"shots 1000  hits 20  deaths 3\n",
		"lost 4  expired 500  projectiles 476\n",
		"digest 00ff00ff00ff00ff\n",
		"zoom 0.500",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("overlay lacks %q; it is:\n%s", want, text)
		}
	}
	st := testStatus()
	st.Paused, st.HideProj = false, true
	text = string(AppendOverlay(nil, st))
	if strings.Contains(text, "PAUSED") || !strings.Contains(text, "projectiles 476 (hidden)") {
		t.Errorf("running with projectiles hidden, overlay is:\n%s", text)
	}
}

func TestAppendOverlayAllocatesNothing(t *testing.T) {
	st := testStatus()
	buf := make([]byte, 0, 1024)
	allocs := testing.AllocsPerRun(100, func() {
		buf = AppendOverlay(buf[:0], st)
	})
	if allocs != 0 {
		t.Errorf("AppendOverlay: %v allocations, want 0", allocs)
	}
}

func TestTextSize(t *testing.T) {
	tests := []struct {
		text string
		w, h int
	}{
		{"", 0, GlyphH},
		{"abc", 3 * GlyphW, GlyphH},
		{"ab\nabcde\n", 5 * GlyphW, 3 * GlyphH},
	}
	for _, tt := range tests {
		if w, h := TextSize([]byte(tt.text)); w != tt.w || h != tt.h {
			t.Errorf("TextSize(%q) = %d, %d, want %d, %d", tt.text, w, h, tt.w, tt.h)
		}
	}
}
