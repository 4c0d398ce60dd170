package codegen

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tickwork/tickwork/schema"
)

// Usage is the command's synopsis.
const Usage = "usage: tickwork-gen [-pkg NAME] [-o FILE.go] [-simd FILE_simd.go] [-catalog] SCHEMA.tw"

// ErrUsage: the command line is wrong (Usage says how to call it).
var ErrUsage = errors.New("codegen: bad command line")

// Command computes the main file `tickwork-gen args...` writes: its
// source and its path (-o, default the schema's name with _gen.go for
// .tw); Files gives the SIMD file too. The package is -pkg, else
// pkgDefault (go generate sets $GOPACKAGE). readFile reads the schema.
// The first line records the command line as "tickwork-gen ARGS" and the
// schema path as given, so the output does not depend on the machine. It
// returns ErrUsage (wrapped) for a bad command line, the schema's
// ErrorList, or Generate's error.
func Command(args []string, pkgDefault string, readFile func(string) ([]byte, error)) (src []byte, out string, err error) {
	files, _, err := Files(args, pkgDefault, readFile)
	if err != nil {
		return nil, "", err
	}
	return files[0].Src, files[0].Path, nil
}

// File is one generated file: its path and gofmt'd source.
type File struct {
	Path string
	Src  []byte
}

// Files computes everything `tickwork-gen args...` writes: the main file
// (Command's) and the SIMD file (GenerateSIMD's; its path is -simd,
// default the main file's with _simd.go for .go), in that order, and the
// SIMD notes (SIMDNotes), which the command prints. Errors as Command's;
// an -o or -simd naming the schema file itself (the same cleaned absolute
// path, or os.SameFile) is a bad command line (ErrUsage).
func Files(args []string, pkgDefault string, readFile func(string) ([]byte, error)) ([]File, []SIMDNote, error) {
	fs := flag.NewFlagSet("tickwork-gen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pkg := fs.String("pkg", pkgDefault, "package name of the generated file (default $GOPACKAGE)")
	outFlag := fs.String("o", "", "output file (default SCHEMA_gen.go)")
	simdFlag := fs.String("simd", "", "SIMD output file (default OUT_simd.go)")
	catalogFlag := fs.Bool("catalog", false, "also write the run-time query catalog (SchemaText, Tables.BindCatalog)")
	if err := fs.Parse(args); err != nil {
		return nil, nil, fmt.Errorf("%w: %v; %s", ErrUsage, err, Usage)
	}
	if fs.NArg() != 1 {
		return nil, nil, fmt.Errorf("%w: want one schema file, got %d arguments; %s", ErrUsage, fs.NArg(), Usage)
	}
	in := fs.Arg(0)
	if *pkg == "" {
		return nil, nil, fmt.Errorf("%w: no package name: pass -pkg, or run it from go generate (which sets $GOPACKAGE); %s", ErrUsage, Usage)
	}
	if !token.IsIdentifier(*pkg) {
		return nil, nil, fmt.Errorf("%w: package name %q is not a Go identifier; %s", ErrUsage, *pkg, Usage)
	}
	out := *outFlag
	if out == "" {
		out = strings.TrimSuffix(in, filepath.Ext(in)) + "_gen.go"
	}
	simdOut := *simdFlag
	if simdOut == "" {
		simdOut = strings.TrimSuffix(out, ".go") + "_simd.go"
	}
	if simdOut == out {
		return nil, nil, fmt.Errorf("%w: -simd and -o name the same file %s; %s", ErrUsage, out, Usage)
	}
	for _, o := range [...]struct{ flag, path string }{{"-o", out}, {"-simd", simdOut}} {
		if samePath(o.path, in) {
			return nil, nil, fmt.Errorf("%w: %s %s names the schema file %s itself, which the output would overwrite: name a .go file; %s", ErrUsage, o.flag, o.path, in, Usage)
		}
		if !strings.HasSuffix(o.path, ".go") {
			return nil, nil, fmt.Errorf("%w: %s %s is not a .go file (the SIMD file's name is derived from it, and go build reads only .go files): name a FILE.go; %s", ErrUsage, o.flag, o.path, Usage)
		}
	}
	text, err := readFile(in)
	if err != nil {
		return nil, nil, err
	}
	s, err := schema.Load(in, text)
	if err != nil {
		return nil, nil, err
	}
	cfg := Config{Package: *pkg, Command: strings.Join(append([]string{"tickwork-gen"}, args...), " "), Source: in,
		Catalog: *catalogFlag, Text: text}
	src, err := Generate(s, cfg)
	if err != nil {
		return nil, nil, err
	}
	simd, err := GenerateSIMD(s, cfg)
	if err != nil {
		return nil, nil, err
	}
	return []File{{out, src}, {simdOut, simd}}, SIMDNotes(s), nil
}

// samePath reports whether a and b name one file: the same cleaned
// absolute path, or (both existing) os.SameFile, which sees through links
// and a case-insensitive file system.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// Main is the command tickwork-gen: it writes Files' output to its
// files, prints to stderr which systems got a SIMD variant and why the
// others did not (one "tickwork-gen: SIMD_FILE: NOTE" line a system), and
// returns the exit status (0 ok, 1 a schema or write error, 2 a bad
// command line), printing errors to stderr one a line.
func Main(args []string, stderr io.Writer) int {
	files, notes, err := Files(args, os.Getenv("GOPACKAGE"), os.ReadFile)
	for _, f := range files {
		if err == nil {
			err = os.WriteFile(f.Path, f.Src, 0o644)
		}
	}
	if err == nil {
		for _, n := range notes {
			fmt.Fprintf(stderr, "tickwork-gen: %s: %s\n", files[1].Path, n)
		}
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
