package codegen

import (
	"go/constant"
	"go/token"
	"testing"
)

func TestUntypedFloatText(t *testing.T) {
	for in, want := range map[string]string{"0.5": "0.5", "8.0": "8.0", "0.1": "0.1", "1e3": "1000.0", "2.5e-3": "0.0025"} {
		if got := untypedFloat(constant.MakeFromLiteral(in, token.FLOAT, 0)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	third := constant.BinaryOp(constant.MakeInt64(1), token.QUO, constant.MakeInt64(3))
	if got := untypedFloat(third); got != "1.0 / 3" {
		t.Error(got)
	}
}
