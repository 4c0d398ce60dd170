package cli_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/cmd/arena-viewer/internal/cli"
)

func TestParseDefaults(t *testing.T) {
	var stderr bytes.Buffer
	o, err := cli.Parse(nil, &stderr)
	require.NoError(t, err)
	assert.Empty(t, stderr.String())
	assert.Equal(t, cli.Options{
		Impl:   "runtime",
		Cfg:    rules.Config{Units: rules.DefaultUnits, Shots: rules.DefaultShots, Seed: rules.DefaultSeed, Workers: 1},
		Width:  1280,
		Height: 960,
		TPS:    cli.DefaultTPS,
	}, o)
}

func TestParseAll(t *testing.T) {
	shot := filepath.Join(t.TempDir(), "shot.png")
	o, err := cli.Parse([]string{"-impl", "soa", "-units", "20000", "-shots", "64", "-seed", "7", "-workers", "256",
		"-frames", "30", "-screenshot", shot, "-width", "640", "-height", "480", "-tps", "120", "-cpuprofile", "cpu.out"}, new(bytes.Buffer))
	require.NoError(t, err)
	assert.Equal(t, cli.Options{
		Impl: "soa", Cfg: rules.Config{Units: 20000, Shots: 64, Seed: 7, Workers: 256},
		Frames: 30, Screenshot: shot, Width: 640, Height: 480, TPS: 120, CPUProfile: "cpu.out",
	}, o)
	assert.NoFileExists(t, shot, "checking -screenshot leaves no file behind")
}

func TestParseHelp(t *testing.T) {
	var stderr bytes.Buffer
	_, err := cli.Parse([]string{"-h"}, &stderr)
	assert.ErrorIs(t, err, flag.ErrHelp)
	for _, want := range []string{
		"usage: arena-viewer", "xvfb-run -a", "runtime or soa",
		"1..16777216", "0..65536", "(runtime only), 1..256", "directory must exist and be writable",
	} {
		assert.Contains(t, stderr.String(), want)
	}
}

func TestParseRejects(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string // the whole first line of stderr, or a prefix for flag-package errors
	}{
		{"zero workers", []string{"-workers", "0"}, "arena-viewer: -workers must be between 1 and 256, got 0"},
		{"workers past MaxWorkers", []string{"-workers", "257"}, "arena-viewer: -workers must be between 1 and 256, got 257"},
		{"zero units", []string{"-units", "0"}, "arena-viewer: -units must be between 1 and 16777216, got 0"},
		{"units 2e9", []string{"-units", "2000000000"}, "arena-viewer: -units must be between 1 and 16777216, got 2000000000"},
		{"shots MaxInt64", []string{"-shots", "9223372036854775807"}, "arena-viewer: -shots must be between 0 and 65536, got 9223372036854775807"},
		{"negative shots", []string{"-shots", "-1"}, "arena-viewer: -shots must be between 0 and 65536, got -1"},
		{"zero width", []string{"-width", "0"}, "arena-viewer: -width must be between 1 and 16384, got 0"},
		{"huge height", []string{"-height", "100000"}, "arena-viewer: -height must be between 1 and 16384, got 100000"},
		{"zero tps", []string{"-tps", "0"}, "arena-viewer: -tps must be >= 1, got 0"},
		{"negative frames", []string{"-frames", "-1"}, "arena-viewer: -frames must be >= 0, got -1"},
		{"unknown impl", []string{"-impl", "ecs"}, `arena-viewer: -impl "ecs": want runtime or soa`},
		{"stray argument", []string{"now"}, `arena-viewer: unexpected arguments ["now"] (all options are flags)`},
		{"screenshot needs frames", []string{"-screenshot", "x.png"}, "arena-viewer: -screenshot needs -frames N"},
		{"screenshot in a missing directory", []string{"-frames", "5", "-screenshot", filepath.Join(dir, "nope", "x.png")},
			"arena-viewer: -screenshot " + filepath.Join(dir, "nope", "x.png") + ": directory " + filepath.Join(dir, "nope") + " does not exist"},
		{"screenshot is a directory", []string{"-frames", "5", "-screenshot", dir},
			"arena-viewer: -screenshot " + dir + ": is a directory"},
		{"bad flag", []string{"-fast"}, "flag provided but not defined: -fast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			_, err := cli.Parse(tt.args, &stderr)
			require.Error(t, err)
			assert.NotErrorIs(t, err, flag.ErrHelp)
			first, _, _ := strings.Cut(stderr.String(), "\n")
			assert.Equal(t, tt.want, first)
		})
	}
}

func TestCheckScreenshot(t *testing.T) {
	dir := t.TempDir()

	// A new file in an existing directory: fine, and nothing is left.
	fresh := filepath.Join(dir, "fresh.png")
	require.NoError(t, cli.CheckScreenshot(fresh))
	assert.NoFileExists(t, fresh)

	// An existing file is kept as it is (not truncated).
	old := filepath.Join(dir, "old.png")
	require.NoError(t, os.WriteFile(old, []byte("keep"), 0o644))
	require.NoError(t, cli.CheckScreenshot(old))
	got, err := os.ReadFile(old)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(got))

	// A file where a directory should be.
	err = cli.CheckScreenshot(filepath.Join(old, "x.png"))
	assert.EqualError(t, err, "-screenshot "+filepath.Join(old, "x.png")+": "+old+" is not a directory")

	if os.Geteuid() == 0 {
		t.Log("running as root: permission checks do not apply, skipping the read-only cases")
		return
	}
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	err = cli.CheckScreenshot(filepath.Join(ro, "x.png"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-screenshot "+filepath.Join(ro, "x.png")+": cannot create a file in "+ro)

	locked := filepath.Join(dir, "locked.png")
	require.NoError(t, os.WriteFile(locked, nil, 0o444))
	err = cli.CheckScreenshot(locked)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-screenshot "+locked+": cannot write it")
}

func TestImplNamesSorted(t *testing.T) {
	assert.True(t, slices.IsSorted(cli.ImplNames), "%q", cli.ImplNames)
}
