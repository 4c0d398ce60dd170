// Package preflight checks the viewer's command line and display before
// ebiten starts. Import it, for its initialization only, from package main:
//
//	import _ "github.com/tickwork/tickwork/cmd/arena-viewer/internal/preflight"
//
// ebiten v2 opens the display in its package initialization, before main
// runs, and panics ("glfw: ... not initialized") when there is none, so a
// check in main comes too late: without a display even -h would panic.
// Packages are initialized in the order of their import paths, each as
// soon as every package it imports is (the Go spec, "Package
// initialization"). This package imports only the standard library's
// basics and packages cli and arena/rules, all of them ready long before
// ebiten's internal/ui, which also needs os/exec, net, regexp and go/parser;
// so its initialization runs first. A test of the viewer runs the binary
// with no display to keep that true.
//
// At initialization it parses the command line with cli.Parse: for -h it
// exits with status 0 after the usage, for a bad flag or value with status 2
// after the message. It then checks the display (on Linux and BSD, where
// ebiten needs X11: DISPLAY is set and, for a local display, its socket
// accepts a connection) and exits with status 1 and a message naming the
// display when there is none. Otherwise it does nothing, and the viewer
// starts.
//
// It stands aside in a test binary (an argument starting with "-test."):
// the tests call the viewer's run themselves.
package preflight

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/cli"
)

func init() {
	args := os.Args[1:]
	for _, a := range args {
		if strings.HasPrefix(a, "-test.") {
			return
		}
	}
	if _, err := cli.Parse(args, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if err := CheckDisplay(os.Getenv("DISPLAY")); err != nil {
		fmt.Fprintf(os.Stderr, "arena-viewer: %v\n", err)
		os.Exit(1)
	}
}

// ErrNoDisplay: the viewer has no display to open a window on. CheckDisplay
// returns an error that wraps it.
var ErrNoDisplay = errors.New("no display")
