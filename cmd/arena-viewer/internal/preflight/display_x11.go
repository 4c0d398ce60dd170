//go:build linux || freebsd || netbsd || openbsd || dragonfly

package preflight

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// CheckDisplay reports whether ebiten can reach the X11 display named by
// display (the value of DISPLAY) on this platform. It returns an error
// wrapping ErrNoDisplay, with advice, when display is empty or names a
// local display ("[unix]:N[.S]") that accepts no connection where Xlib
// would look: the socket /tmp/.X11-unix/XN, its abstract twin, and for
// ":N" TCP port 6000+N on the loopback address. A display on another host
// (such as "localhost:10.0" of ssh -X) is not probed and passes. Safe for
// concurrent use.
func CheckDisplay(display string) error {
	const advice = "ebiten needs an X11 display; run under xvfb-run -a, or use arena-headless"
	if display == "" {
		return fmt.Errorf("%w: DISPLAY is not set (%s)", ErrNoDisplay, advice)
	}
	colon := strings.LastIndexByte(display, ':')
	if colon < 0 {
		return nil // not a form we know: let ebiten try
	}
	host, num := display[:colon], display[colon+1:]
	if dot := strings.IndexByte(num, '.'); dot >= 0 {
		num = num[:dot]
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || (host != "" && host != "unix") {
		return nil // remote or unusual: not probed
	}
	path := "/tmp/.X11-unix/X" + num
	for _, name := range []string{path, "@" + path} { // "@": Linux's abstract socket namespace
		if dial(syscall.AF_UNIX, &syscall.SockaddrUnix{Name: name}) {
			return nil
		}
	}
	if host == "" && n < 65536-6000 && dial(syscall.AF_INET, &syscall.SockaddrInet4{Port: 6000 + n, Addr: [4]byte{127, 0, 0, 1}}) {
		return nil
	}
	return fmt.Errorf("%w: cannot connect to X display %q (no server listens on %s; %s)", ErrNoDisplay, display, path, advice)
}

// dial reports whether a stream connection to addr, of family domain,
// succeeds; it closes the connection at once. It uses package syscall, not
// net, to keep this package's imports, and so its initialization, ahead of
// ebiten's.
func dial(domain int, addr syscall.Sockaddr) bool {
	fd, err := syscall.Socket(domain, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, addr) == nil
}
