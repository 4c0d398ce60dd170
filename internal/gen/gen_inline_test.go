package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestEachInlines: the face's Query1.Each and Query2.Each (DenseColumns)
// inline into their caller, and so do the function literals given to them,
// as the compiler reports them (-gcflags=-m on testdata/eachinline): a
// template change that puts Each over Go's inline budget of 80 fails here
// (docs/benchmarks.md, "Each: a call per row").
func TestEachInlines(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const pkg = "github.com/tickwork/tickwork/internal/gen/testdata/eachinline"
	out, err := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags="+pkg+"=-m", "./testdata/eachinline").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, want := range []string{
		"inlining call to tickwork.Query1[go.shape.float32].Each",
		"inlining call to Step1.func1",
		"inlining call to tickwork.Query2[go.shape.float32,go.shape.float32].Each",
		"inlining call to Step2.func1",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the compiler's -m output lacks %q:\n%s", want, out)
		}
	}
}
