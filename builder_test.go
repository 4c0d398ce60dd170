package tickwork_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork"
)

// A hook sees the systems added through the face, orders them and
// substitutes a body; the substitute's declaration must ask for what the
// original did.
func TestBuilderHook(t *testing.T) {
	var ran []string
	body := func(name string) tickwork.DeclareFunc {
		return func(*tickwork.Decl) tickwork.RunFunc {
			return func(ctx *tickwork.Context) { ran = append(ran, name+"@"+ctx.Phase().String()) }
		}
	}
	w := buildWorld(t, func(b *tickwork.Builder) {
		b.System("B", tickwork.Update, body("B"))
		b.Add(tickwork.System{Name: "A", Phase: tickwork.Update, Declare: body("A"), Lane: "scalar"})
		b.Hook(func(h *tickwork.Hook) error {
			assert.Equal(t, []string{"B", "A"}, h.Names())
			a, ok := h.Lookup("A")
			require.True(t, ok)
			assert.Equal(t, "scalar", a.Lane)
			assert.Equal(t, tickwork.Update, a.Phase)
			if err := h.Order("A", "B"); err != nil {
				return err
			}
			return h.Substitute("B", body("B2"))
		})
	})
	assert.Equal(t, []string{"A", "B"}, w.Order(tickwork.Update))
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, []string{"A@Update", "B2@Update"}, ran)
}

// A system's Validate reports a bad name, phase or Declare with the
// sentinels of the face.
func TestSystemValidate(t *testing.T) {
	ok := func(*tickwork.Decl) tickwork.RunFunc { return func(*tickwork.Context) {} }
	assert.NoError(t, (&tickwork.System{Name: "S", Phase: tickwork.Update, Declare: ok}).Validate())
	assert.ErrorIs(t, (&tickwork.System{Phase: tickwork.Update, Declare: ok}).Validate(), tickwork.ErrSystemDefinition)
	assert.ErrorIs(t, (&tickwork.System{Name: "S", Phase: 9, Declare: ok}).Validate(), tickwork.ErrBadPhase)
	assert.ErrorIs(t, (&tickwork.System{Name: "S", Phase: tickwork.Update}).Validate(), tickwork.ErrNoDeclare)
	assert.False(t, tickwork.Phase(9).Valid())
}

// Chain orders systems added in the other order: each runs after the one
// before it in the chain, and a name no system has fails Build with
// ErrUnknownSystem.
func TestBuilderChain(t *testing.T) {
	var ran []string
	body := func(name string) tickwork.DeclareFunc {
		return func(*tickwork.Decl) tickwork.RunFunc {
			return func(*tickwork.Context) { ran = append(ran, name) }
		}
	}
	w := buildWorld(t, func(b *tickwork.Builder) {
		for _, name := range []string{"c", "b", "a"} {
			b.System(name, tickwork.Update, body(name))
		}
		b.Chain("a", "b", "c")
	})
	assert.Equal(t, []string{"a", "b", "c"}, w.Order(tickwork.Update))
	require.NoError(t, w.Frame(1.0/60))
	assert.Equal(t, []string{"a", "b", "c"}, ran)

	b := tickwork.NewBuilder(tickwork.WithWorkers(1))
	b.System("a", tickwork.Update, body("a"))
	b.Chain("a", "nope")
	_, err := b.Build()
	require.ErrorIs(t, err, tickwork.ErrUnknownSystem)
	var u *tickwork.UnknownSystemError
	require.ErrorAs(t, err, &u)
	assert.Equal(t, "nope", u.Name)
	assert.EqualError(t, err, `scheduler: Chain("a", "nope"): no system named "nope"`, "the call as written, no hook")
	assert.NotErrorIs(t, err, tickwork.ErrHook)
}
