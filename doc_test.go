package tickwork_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tickwork/tickwork"
)

// The face's types carry exactly the user's methods: none of the
// scheduler's or the snapshot's plumbing (BeginFrame, EndFrame, Reset,
// TakeDropped, NewConsumer, AppendState, CheckState, LoadState, Describe,
// StateCap, Snapshottable, Seal, ...) is callable from the root package. A
// method added to a face type must be added here.
func TestFaceMethodSets(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		methods string
	}{
		{reflect.TypeFor[*tickwork.World](), "Budget Close Declarations Fingerprint Frame Frames HostConfig MaxSnapshotSize Order Reindex Report Resolve Restore RunChunks Snapshot SnapshotSize Tables Time Workers"},
		{reflect.TypeFor[*tickwork.Builder](), "Add Budget Build Chain Domain Err Hook System Table"},
		{reflect.TypeFor[*tickwork.Table](), "Attach Cap ChunkLen ChunkRows Chunks Columns Delete DeleteN Detach Domain Enabled HandleAt Insert InsertN IsAlive Lease Len LiveEnd Name Runs UsedChunks"},
		{reflect.TypeFor[*tickwork.Column[int32]](), "All Get Name Ptr Set Span Table"},
		{reflect.TypeFor[*tickwork.Domain](), "Cap ChunkRows Create CreateN Delete DeleteN IsAlive Len MakeHandle Name Owns Tables Tag"},
		{reflect.TypeFor[*tickwork.Events[int32]](), "Cap Dropped Emit Held Len Lifetime Name Pending Read"},
		{reflect.TypeFor[*tickwork.Resource[int32]](), "Get Name"},
		{reflect.TypeFor[*tickwork.Rollback](), "Cap Checksum Len Load Newest Oldest Rewind Save"},
		{reflect.TypeFor[*tickwork.Decl](), "After Before Counter Name Phase RunIf"},
		{reflect.TypeFor[*tickwork.Context](), "DT Fail Frame FrameDT Name Phase Resolve Tick Workers"},
		{reflect.TypeFor[*tickwork.Recorder](), "At Attach Create Delete Remove Reserve ReserveWorkers Table TryCreate Worker"},
		{reflect.TypeFor[*tickwork.Emitter[int32]](), "Emit"},
		{reflect.TypeFor[*tickwork.ParallelEmitter[int32]](), "At Worker"},
		{reflect.TypeFor[tickwork.WorkerEmitter[int32]](), "Emit"},
		{reflect.TypeFor[*tickwork.Consumer[int32]](), "Read"},
		{reflect.TypeFor[tickwork.ReadColumn[int32]](), "All At Column Get Lease Row"},
		{reflect.TypeFor[tickwork.WriteColumn[int32]](), "All At Column Get Lease Ptr Row Set"},
		{reflect.TypeFor[tickwork.Counter](), "Add Name Total"},
		{reflect.TypeFor[tickwork.Lease](), "Find IsAlive Row Words"},
		{reflect.TypeFor[tickwork.Handle](), "Generation Index IsZero String Tag"},
		{reflect.TypeFor[*tickwork.FrameReport](), "CommandsDropped Counter Skips String System"},
		{reflect.TypeFor[*tickwork.SystemReport](), "Counter Skipped String"},
		{reflect.TypeFor[*tickwork.Hook](), "Add Lookup Names Order Substitute"},
		{reflect.TypeFor[*tickwork.Budget](), "Left Limit Used"},
		{reflect.TypeFor[tickwork.Worker](), "Chunk Context DT ID Tick"},
		{reflect.TypeFor[tickwork.Query2[int32, int32]](), "All Chunk Each Err Insert InsertN Parallel Runs Spans Table"},
		{reflect.TypeFor[tickwork.Row2[int32, int32]](), "Get"},
		{reflect.TypeFor[tickwork.Spawner2[int32, int32]](), "At Reserve Spawn Worker"},
		{reflect.TypeFor[*tickwork.System](), "Validate"},
		{reflect.TypeFor[tickwork.Phase](), "String Valid"},
		{reflect.TypeFor[tickwork.Lane](), "Available String"},
		{reflect.TypeFor[tickwork.Lifetime](), "String"},
		{reflect.TypeFor[tickwork.Pacing](), "String"},
		{reflect.TypeFor[tickwork.Option](), ""},
		{reflect.TypeFor[*tickwork.HashIndex[int32]](), "Hash Kind Name"},
		{reflect.TypeFor[*tickwork.UniqueIndex[int32]](), "Kind Name Unique"},
		{reflect.TypeFor[*tickwork.SortedIndex[int32]](), "Kind Name Sorted"},
		{reflect.TypeFor[*tickwork.GridIndex](), "Grid Kind Name"},
		{reflect.TypeFor[*tickwork.EventIndex[int32, int32]](), "Hash Kind Name"},
		{reflect.TypeFor[tickwork.IndexMarks](), "Filing Mark MarkBits On"},
	} {
		t.Run(tc.typ.String(), func(t *testing.T) {
			var got []string
			for i := range tc.typ.NumMethod() {
				got = append(got, tc.typ.Method(i).Name)
			}
			assert.Equal(t, tc.methods, strings.Join(got, " "))
		})
	}
}

// No exported signature of the face or of an engine package names a type
// of an internal package: a user could hold such a value but not name its
// type, and the engine's plumbing would be part of the API. It parses the
// packages' non-test files (go/parser, go/ast: no type checking) and
// checks every exported function's and method's parameters, results and
// type parameters, every exported type's definition (an exported struct's
// exported and embedded fields, an exported interface's methods and
// embedded interfaces) and every exported variable's or constant's
// declared type. A variable or constant declared without a type is not
// checked (its type needs type checking).
func TestExportsNameNoInternalPackage(t *testing.T) {
	const module = "github.com/tickwork/tickwork"
	dirs := []string{".", "commands", "ephemeral", "events", "kernels", "lanes", "memory", "runtime", "scheduler", "systems"}
	var found []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			path := filepath.Join(dir, name)
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			internal := map[string]string{} // the file's names of internal packages
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if !strings.HasPrefix(p, module+"/") || !slices.Contains(strings.Split(p, "/"), "internal") {
					continue
				}
				n := p[strings.LastIndex(p, "/")+1:]
				if im.Name != nil {
					n = im.Name.Name
				}
				internal[n] = p
			}
			check := func(what string, n ast.Node) {
				if n == nil || reflect.ValueOf(n).IsNil() {
					return
				}
				ast.Inspect(n, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
							found = append(found, fset.Position(sel.Pos()).String()+": "+what+" names "+internal[id.Name]+"."+sel.Sel.Name)
						}
					}
					return true
				})
			}
			checkFields := func(what string, fl *ast.FieldList) {
				if fl == nil {
					return
				}
				for _, fd := range fl.List {
					exported := len(fd.Names) == 0 // embedded: its promoted methods and fields are exported
					for _, n := range fd.Names {
						exported = exported || n.IsExported()
					}
					if exported {
						check(what, fd.Type)
					}
				}
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv.List[0].Type)) {
						continue
					}
					check("func "+d.Name.Name, d.Type)
				case *ast.GenDecl:
					for _, sp := range d.Specs {
						switch sp := sp.(type) {
						case *ast.TypeSpec:
							if !sp.Name.IsExported() {
								continue
							}
							what := "type " + sp.Name.Name
							check(what, sp.TypeParams)
							switch ty := sp.Type.(type) {
							case *ast.StructType:
								checkFields(what, ty.Fields)
							case *ast.InterfaceType:
								checkFields(what, ty.Methods)
							default:
								check(what, ty)
							}
						case *ast.ValueSpec:
							for _, n := range sp.Names {
								if n.IsExported() {
									check(n.Name, sp.Type)
									break
								}
							}
						}
					}
				}
			}
		}
	}
	assert.Empty(t, found, "exported names of the face and the engine that name an internal package's type:\n%s", strings.Join(found, "\n"))
}

// exportedRecv reports whether a method's receiver type (T, *T, T[P],
// *T[P]) is exported.
func exportedRecv(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
