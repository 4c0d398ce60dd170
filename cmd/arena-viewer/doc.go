// Arena-viewer shows the arena (arena rules v1, the project's reference
// workload) in a window: every unit as a dot coloured by health, every
// projectile in pale cyan, and an overlay with the frame time, the most
// expensive systems, the counters and the digest so far.
//
// It lives in its own module so that the root module never depends on
// ebiten or cgo. Run it from this directory:
//
//	go run .
//	go run . -units 20000 -seed 7
//	go run . -frames 200 -screenshot arena.png
//
// # Simulation
//
// The viewer drives any implementation of rules.Sim, chosen with -impl
// (soa, the hand-written baseline; runtime, the Tickwork runtime once it is
// wired into the impls table). Each ebiten Update runs exactly one
// rules.Sim.Frame, that is one fixed tick of rules.DT = 1/64 s, at 64 ticks
// per second (-tps), so the arena runs in real time. The overlay's frame p50
// is the median wall time of Frame over the last 256 frames, measured by the
// viewer; the systems shown are the three slowest of the last frame's
// rules.Sim.SystemTimes; the digest is rules.Digest after the last frame, the
// same as arena-headless prints for the same number of frames.
//
// # Drawing
//
// A raster.Canvas holds the picture at window resolution in main memory. Each
// Draw copies in the background, writes one pixel (or, zoomed in, a small
// square) per unit and projectile through a raster.View, and uploads the whole
// canvas straight into the screen image with a single WritePixels: one
// upload a frame, whatever the unit count. Buffers are allocated when the
// window size changes, never per frame. On the runtime (-impl runtime),
// the ten weakest units get a magenta ring: the arena's declared query
// WeakestUnits, run after every frame into a reused buffer (package
// internal/marks); the soa baseline has no query and no rings.
//
// # Keys
//
//	Space           pause or resume
//	. or N          advance one frame while paused
//	mouse wheel     zoom about the cursor
//	+ and -         zoom about the centre
//	arrows, WASD    pan
//	left drag       pan
//	P               show or hide projectiles
//	R               reset the view to the whole arena
//
// # Flags
//
// -units, -shots, -seed and -workers set the run as in arena-headless
// (defaults 100000, 256, 42, 1; ranges 1..16777216, 0..65536, any, 1..256);
// -impl picks the implementation; -width and -height the initial window
// size (1280×960, at most 16384 each); -tps the ticks per second (64).
// -frames N runs exactly N frames at TPS, whatever keys are pressed, prints
// "digest <16 hex>" to stdout and exits; with -screenshot FILE it also saves
// the window, overlay included, as a PNG: FILE's directory must exist and be
// writable, which is checked before anything runs. On exit the viewer prints
// the frames run, the frame p50 and the measured FPS (ebiten's ActualFPS and
// the mean over the run) to stderr. -cpuprofile FILE writes a CPU profile.
//
// # Start-up and exit status
//
// ebiten opens the display in its package initialization, before main, and
// panics when there is none. So the flags are parsed and checked first, by
// package internal/preflight, whose initialization runs before ebiten's:
// -h prints the usage and exits 0 and a bad flag or value (-workers 0, a
// -screenshot path that cannot be written) exits 2, with or without a
// display. Then, on Linux and BSD, it checks for an X11 display (DISPLAY
// set and, for a local display, its socket answering) and exits 1 with a
// message when there is none, instead of ebiten's panic. A window that
// still cannot be opened (ebiten.RunGame fails) also exits 1 with a
// message. Status 1 also covers a failing implementation and a window
// closed before -frames N frames; 0 is success.
//
// # Tests
//
// ebiten opens the X display when the package loads, so this package's tests
// need one: run them under xvfb-run -a go test ./..., as make test does. Each
// window runs in a subprocess (ebiten.RunGame runs once per process), and so
// do the runs without a display, which check the start-up above. The
// command line, the drawing and the overlay live in internal/cli,
// internal/raster and internal/hud, whose tests need no display.
//
// # Linux
//
// ebiten needs cgo and the X11, GL and ALSA headers: on Debian or Ubuntu,
// apt-get install gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev
// libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev.
// Without a display, run it under xvfb-run -a (packages xvfb, xauth and the
// software GL driver libgl1-mesa-dri).
package main
