package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is a report as arena-headless -json -workers 1,2 -impl both makes.
func sample(units int, p50w1, p50w2 float64) report {
	sys := func(scale float64) []struct {
		Name   string  `json:"name"`
		MeanUS float64 `json:"mean_us"`
	} {
		var out []struct {
			Name   string  `json:"name"`
			MeanUS float64 `json:"mean_us"`
		}
		for i, n := range append([]string{"Clock"}, plotted...) {
			out = append(out, struct {
				Name   string  `json:"name"`
				MeanUS float64 `json:"mean_us"`
			}{n, scale * float64(i+1)})
		}
		return out
	}
	return report{Units: units, DigestMatch: true, WorkerCounts: []int{1, 2}, Impls: []implReport{
		{Name: "runtime-w1", FrameP50US: p50w1, Systems: sys(10)},
		{Name: "runtime-w2", FrameP50US: p50w2, Systems: sys(5)},
		{Name: "soa", FrameP50US: 400, Systems: sys(9)},
	}}
}

func writeReport(t *testing.T, dir, name string, r report) string {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

func TestRunDrawsAndTables(t *testing.T) {
	dir := t.TempDir()
	a := writeReport(t, dir, "a.json", sample(100000, 600, 400))
	b := writeReport(t, dir, "b.json", sample(1000000, 6000, 3000))
	out := filepath.Join(dir, "scaling.png")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-o", out, "-table", a, b}, &stdout, &stderr), "stderr: %s", stderr.String())
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "a PNG")
	assert.Equal(t, 840*96/72, img.Bounds().Dx(), "two panels of 420 points at 96 dpi")
	table := stdout.String()
	assert.Contains(t, table, "| 100000 | frame p50 | 400.0 | 600.0 | 400.0 | 1.50× |")
	assert.Contains(t, table, "| 1000000 | frame p50 | 400.0 | 6000.0 | 3000.0 | 2.00× |")
	assert.Contains(t, table, "| 100000 | Collision mean | 27.0 | 30.0 | 15.0 | 2.00× |")
}

func TestRunRefuses(t *testing.T) {
	dir := t.TempDir()
	broken := sample(10, 1, 1)
	broken.DigestMatch = false
	single := sample(10, 1, 1)
	single.WorkerCounts = nil
	missing := sample(10, 1, 1)
	missing.Impls = missing.Impls[:1]
	for _, tc := range []struct {
		name string
		r    report
		want string
	}{
		{"digests differ", broken, "the digests differ"},
		{"one worker count", single, "without a -workers list"},
		{"missing entry", missing, `no "runtime-w2" entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeReport(t, dir, tc.name+".json", tc.r)
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 1, run([]string{"-o", filepath.Join(dir, "x.png"), path}, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tc.want)
		})
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run(nil, &stdout, &stderr), "no reports")
	assert.Equal(t, 1, run([]string{filepath.Join(dir, "absent.json")}, &stdout, &stderr))
}
