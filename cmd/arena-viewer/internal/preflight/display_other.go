//go:build !(linux || freebsd || netbsd || openbsd || dragonfly)

package preflight

// CheckDisplay returns nil: on this platform (macOS, Windows) ebiten opens
// its window without an X11 display, and a failure surfaces from
// ebiten.RunGame. Safe for concurrent use.
func CheckDisplay(display string) error { return nil }
