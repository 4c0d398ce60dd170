package codegen

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// Usage is the command's synopsis.
const Usage = "usage: tickwork-gen [-pkg NAME] [-o FILE.go] SCHEMA.tw"

// ErrUsage: the command line is wrong (Usage says how to call it).
var ErrUsage = errors.New("codegen: bad command line")

// Command computes what `tickwork-gen args...` writes: the generated
// source and the path of the output file (-o, default the schema's name
// with _gen.go for .tw). The package is -pkg, else pkgDefault (go generate
// sets $GOPACKAGE). readFile reads the schema. The first line records the
// command line as "tickwork-gen ARGS" and the schema path as given, so
// the output does not depend on the machine. It returns ErrUsage (wrapped)
// for a bad command line, the schema's ErrorList, or Generate's error.
func Command(args []string, pkgDefault string, readFile func(string) ([]byte, error)) (src []byte, out string, err error) {
	fs := flag.NewFlagSet("tickwork-gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pkg := fs.String("pkg", pkgDefault, "package name of the generated file (default $GOPACKAGE)")
	outFlag := fs.String("o", "", "output file (default SCHEMA_gen.go)")
	if err := fs.Parse(args); err != nil {
		return nil, "", fmt.Errorf("%w: %v; %s", ErrUsage, err, Usage)
	}
	if fs.NArg() != 1 {
		return nil, "", fmt.Errorf("%w: want one schema file, got %d arguments; %s", ErrUsage, fs.NArg(), Usage)
	}
	in := fs.Arg(0)
	if *pkg == "" {
		return nil, "", fmt.Errorf("%w: no package name: pass -pkg, or run it from go generate (which sets $GOPACKAGE); %s", ErrUsage, Usage)
	}
	out = *outFlag
	if out == "" {
		out = strings.TrimSuffix(in, filepath.Ext(in)) + "_gen.go"
	}
	text, err := readFile(in)
	if err != nil {
		return nil, "", err
	}
	s, err := schema.Load(in, text)
	if err != nil {
		return nil, "", err
	}
	src, err = Generate(s, Config{Package: *pkg, Command: strings.Join(append([]string{"tickwork-gen"}, args...), " "), Source: in})
	return src, out, err
}

// Main is the command tickwork-gen: it writes Command's output to its
// file and returns the exit status (0 ok, 1 a schema or write error, 2 a
// bad command line), printing errors to stderr one a line.
func Main(args []string, stderr io.Writer) int {
	src, out, err := Command(args, os.Getenv("GOPACKAGE"), os.ReadFile)
	if err == nil {
		err = os.WriteFile(out, src, 0o644)
	}
	switch {
	case errors.Is(err, ErrUsage):
		fmt.Fprintln(stderr, err)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}
