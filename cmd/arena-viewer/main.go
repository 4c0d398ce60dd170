package main

import (
	"os"

	// Checks the command line and the display before ebiten's package
	// initialization opens the display (and panics without one); see its
	// doc. It must stay imported here.
	_ "github.com/tickwork/tickwork/cmd/arena-viewer/internal/preflight"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
