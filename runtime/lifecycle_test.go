package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/ephemeral"
	"github.com/tickwork/tickwork/events"
	"github.com/tickwork/tickwork/runtime"
)

type lifeEvent struct {
	c ephemeral.RowChange
	h ephemeral.Handle
	v struct{ HP int32 }
}

func setLife(e *lifeEvent, c ephemeral.RowChange, h ephemeral.Handle) *struct{ HP int32 } {
	e.c, e.h = c, h
	return &e.v
}

// Lifecycle refuses a nil table or set function, a table of another
// builder and a duplicate event table name, each with a *DefinitionError
// or *ForeignError; a good declaration is an event table of the world.
func TestLifecycleDeclaration(t *testing.T) {
	spec := runtime.LifecycleSpec{Name: "L", Capacity: 4}
	b := runtime.NewBuilder(runtime.WithWorkers(1))
	assert.Nil(t, runtime.Lifecycle[lifeEvent, struct{ HP int32 }](b, nil, spec, setLife))
	assert.ErrorIs(t, b.Err(), runtime.ErrNilTable)

	b = runtime.NewBuilder(runtime.WithWorkers(1))
	u := b.Table(ephemeral.TableSpec{Name: "U", Capacity: 4})
	runtime.AddColumn[int32](b, u, "HP")
	assert.Nil(t, runtime.Lifecycle[lifeEvent, struct{ HP int32 }](b, u, spec, nil))
	assert.ErrorIs(t, b.Err(), runtime.ErrDefinition)
	assert.Contains(t, b.Err().Error(), "nil set function")

	other := runtime.NewBuilder(runtime.WithWorkers(1))
	ou := other.Table(ephemeral.TableSpec{Name: "U", Capacity: 4})
	b = runtime.NewBuilder(runtime.WithWorkers(1))
	assert.Nil(t, runtime.Lifecycle[lifeEvent, struct{}](b, ou, spec, func(*lifeEvent, ephemeral.RowChange, ephemeral.Handle) *struct{} { return nil }))
	assert.ErrorIs(t, b.Err(), runtime.ErrForeign)

	b = runtime.NewBuilder(runtime.WithWorkers(1))
	u = b.Table(ephemeral.TableSpec{Name: "U", Capacity: 4})
	runtime.AddColumn[int32](b, u, "HP")
	assert.Nil(t, runtime.Lifecycle[lifeEvent, struct{ HP int32 }](b, u, runtime.LifecycleSpec{Name: "L", Capacity: 4, On: 0xF0}, setLife))
	assert.ErrorIs(t, b.Err(), runtime.ErrDefinition)
	assert.Contains(t, b.Err().Error(), "bits of On 0xf0 name no change")

	b = runtime.NewBuilder(runtime.WithWorkers(1))
	u = b.Table(ephemeral.TableSpec{Name: "U", Capacity: 4})
	runtime.AddColumn[int32](b, u, "HP")
	runtime.AddEvents[int](b, events.Spec{Name: "L", Capacity: 4})
	assert.Nil(t, runtime.Lifecycle[lifeEvent, struct{ HP int32 }](b, u, spec, setLife))
	assert.ErrorIs(t, b.Err(), runtime.ErrDuplicateName)

	b = runtime.NewBuilder(runtime.WithWorkers(1))
	u = b.Table(ephemeral.TableSpec{Name: "U", Capacity: 4})
	runtime.AddColumn[int32](b, u, "HP")
	ev := runtime.Lifecycle[lifeEvent, struct{ HP int32 }](b, u, runtime.LifecycleSpec{Name: "L", Capacity: 4, On: 1 << ephemeral.Deleted}, setLife)
	require.NotNil(t, ev)
	w, err := b.Build()
	require.NoError(t, err)
	defer w.Close()
	h, err := u.Insert()
	require.NoError(t, err)
	require.NoError(t, w.Frame(0.01))
	assert.Zero(t, ev.Len(), "the host's insert is not recorded")
	assert.True(t, u.Delete(h))
	assert.Zero(t, ev.Len()+ev.Pending(), "nor its delete")
}
