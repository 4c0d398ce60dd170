package hud

import (
	"strconv"
	"time"

	"github.com/tickwork/tickwork/arena/rules"
)

// Size of one character of ebitenutil.DebugPrint's font, in pixels.
const (
	GlyphW = 6
	GlyphH = 16
)

// Status is what the overlay reports.
type Status struct {
	Impl     string
	Cfg      rules.Config
	Frames   int64
	Paused   bool
	HideProj bool
	FPS, TPS float64 // ebiten's measured frames and ticks per second
	P50      time.Duration
	Window   int // frames behind P50
	Top      []rules.SystemTime
	Counters rules.Counters
	Digest   uint64
	Scale    float64
}

// AppendOverlay appends the overlay text for st to b, lines separated by
// '\n', and returns it. It allocates only when b is too short.
func AppendOverlay(b []byte, st *Status) []byte {
	b = append(b, st.Impl...)
	b = append(b, "  units "...)
	b = strconv.AppendInt(b, int64(st.Cfg.Units), 10)
	b = append(b, "  shots/tick "...)
	b = strconv.AppendInt(b, int64(st.Cfg.Shots), 10)
	b = append(b, "  seed "...)
	b = strconv.AppendUint(b, st.Cfg.Seed, 10)

	b = append(b, "\nframe "...)
	b = strconv.AppendInt(b, st.Frames, 10)
	b = append(b, "  FPS "...)
	b = strconv.AppendFloat(b, st.FPS, 'f', 1, 64)
	b = append(b, "  TPS "...)
	b = strconv.AppendFloat(b, st.TPS, 'f', 1, 64)
	if st.Paused {
		b = append(b, "  PAUSED"...)
	}

	b = append(b, "\nframe p50 "...)
	b = appendMillis(b, st.P50)
	b = append(b, " (last "...)
	b = strconv.AppendInt(b, int64(st.Window), 10)
	b = append(b, " frames)"...)

	b = append(b, '\n')
	for i, t := range st.Top {
		if i > 0 {
			b = append(b, "  "...)
		}
		b = append(b, t.Name...)
		b = append(b, ' ')
		b = appendMillis(b, time.Duration(t.Nanos))
	}

	c := &st.Counters
	b = append(b, "\nshots "...)
	b = strconv.AppendInt(b, c.ShotsFired, 10)
	b = append(b, "  hits "...)
	b = strconv.AppendInt(b, c.Hits, 10)
	b = append(b, "  deaths "...)
	b = strconv.AppendInt(b, c.Deaths, 10)
	b = append(b, "\nlost "...)
	b = strconv.AppendInt(b, c.Lost, 10)
	b = append(b, "  expired "...)
	b = strconv.AppendInt(b, c.Expired, 10)
	b = append(b, "  projectiles "...)
	b = strconv.AppendInt(b, c.LiveProjectiles, 10)
	if st.HideProj {
		b = append(b, " (hidden)"...)
	}

	b = append(b, "\ndigest "...)
	b = appendHex16(b, st.Digest)

	b = append(b, "\nzoom "...)
	b = strconv.AppendFloat(b, st.Scale, 'f', 3, 64)
	b = append(b, "  space pause  . step  P projectiles  R reset view"...)
	return b
}

// appendMillis appends d in milliseconds with two decimals and " ms".
func appendMillis(b []byte, d time.Duration) []byte {
	b = strconv.AppendFloat(b, float64(d)/float64(time.Millisecond), 'f', 2, 64)
	return append(b, " ms"...)
}

// appendHex16 appends d as 16 lower-case hex digits, zero-padded: the same
// text as rules.FormatDigest, without allocating.
func appendHex16(b []byte, d uint64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, digits[d>>uint(shift)&0xf])
	}
	return b
}

// TextSize returns the size in pixels of text drawn by ebitenutil.DebugPrint.
func TextSize(text []byte) (w, h int) {
	lines, longest, cur := 1, 0, 0
	for _, c := range text {
		if c == '\n' {
			lines++
			cur = 0
			continue
		}
		cur++
		longest = max(longest, cur)
	}
	return longest * GlyphW, lines * GlyphH
}
