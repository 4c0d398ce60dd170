//go:build linux || freebsd || netbsd || openbsd || dragonfly

package preflight_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/preflight"
)

func TestCheckDisplay(t *testing.T) {
	err := preflight.CheckDisplay("")
	require.ErrorIs(t, err, preflight.ErrNoDisplay)
	assert.Equal(t, "no display: DISPLAY is not set (ebiten needs an X11 display; run under xvfb-run -a, or use arena-headless)", err.Error())

	// Remote and unusual displays are left to ebiten.
	for _, d := range []string{"remote.example:0", "localhost:10.0", "nonsense"} {
		assert.NoError(t, preflight.CheckDisplay(d), "CheckDisplay(%q)", d)
	}

	for _, d := range []string{":4242", "unix:4242.0"} {
		err := preflight.CheckDisplay(d)
		if err == nil {
			t.Skipf("an X server answers on %s", d)
		}
		assert.ErrorIs(t, err, preflight.ErrNoDisplay)
		assert.Contains(t, err.Error(), `cannot connect to X display "`+d+`" (no server listens on /tmp/.X11-unix/X4242;`)
	}

	// Under xvfb-run (as make viewer runs the tests) the display is there.
	if d := os.Getenv("DISPLAY"); d != "" {
		assert.NoError(t, preflight.CheckDisplay(d), "DISPLAY=%s", d)
	}
}
