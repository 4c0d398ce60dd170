package wire

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

type layNode struct {
	V    int64
	Kids []layNode
	Up   *layNode
}

type layFlags struct {
	On   bool
	Pad  [3]uint8
	Rate float64
}

// TestLayout: a type is described by kind, size, alignment, its fields'
// names, offsets and layouts and its elements, with bare type names and
// no package path; a recursive type ends at its own name.
func TestLayout(t *testing.T) {
	cases := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"predeclared", reflect.TypeFor[int32](), "int32/4"},
		{"int", reflect.TypeFor[int](), "int/8"},
		{"array", reflect.TypeFor[[2]float32](), "array/8/4[2]float32/4"},
		{"struct", reflect.TypeFor[layFlags](), "layFlags=struct/16/8{On@0:bool/1 Pad@1:array/3/1[3]uint8/1 Rate@8:float64/8}"},
		{"recursive", reflect.TypeFor[layNode](), "layNode=struct/40/8{V@0:int64/8 Kids@8:slice/24/8 layNode Up@32:ptr/8/8 layNode}"},
		{"slice", reflect.TypeFor[[]layFlags](), "slice/24/8 layFlags=struct/16/8{On@0:bool/1 Pad@1:array/3/1[3]uint8/1 Rate@8:float64/8}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Layout(tc.typ))
		})
	}
}
