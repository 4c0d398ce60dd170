package tickwork

import "github.com/tickwork/tickwork/ephemeral"

// The Go compiler (1.26) inlines a function of another package into a
// caller only when it can read the function's body, and it reads bodies
// only from the export data of the packages the caller imports, which
// hold the bodies of their own functions and of the functions those
// inline. A host that imports only this package would therefore call, not
// inline, the small non-generic methods of the engine types aliased here
// (generic ones travel with their instantiation): a lease probe in a
// kernel's inner loop stayed a call, and the arena's Collision ran 10 %
// more instructions and twice the time (docs/benchmarks.md, Arena). The
// functions below use those methods once, so that their bodies are
// exported with this package; nothing calls them.

func inlineHandle(l ephemeral.Lease, h Handle) bool {
	_, ok := l.Row(h)
	return ok && l.IsAlive(h) && h.Index()+h.Generation()+h.Tag() > 0 && !h.IsZero()
}

func inlineTable(t *Table, d *Domain, h Handle, c int) bool {
	_, ok := t.HandleAt(c)
	return ok && t.IsAlive(h) && d.IsAlive(h) && t.Enabled(c) != nil &&
		t.ChunkLen(c)+t.ChunkRows()+t.Chunks()+t.Len()+t.Cap()+d.Len()+d.Cap()+t.LiveEnd(c)+t.UsedChunks() > 0
}

func inlineSystem(ctx *Context, r *Recorder, h Handle) bool {
	r.Delete(h)
	r.Attach(h)
	r.Remove(h)
	_, ok := ctx.Resolve(r.Create())
	return ok && r.Worker(0, 0) != nil && ctx.DT()+ctx.FrameDT() > 0 && ctx.Tick()+ctx.Frame() > 0 && ctx.Workers() > 0
}

var _ = []any{inlineHandle, inlineTable, inlineSystem}
