// Package journal is a world's durable input path: input tables of typed
// records the host appends from any goroutine, committed to a Store in
// groups, entering each frame as events in journal order, with
// checkpoints of the world, so that after a crash Open brings the world
// back to the state of a run that never stopped. The rules (what is
// durable when, which frame takes which input, recovery, the record
// format, limits) live once in docs/journal.md.
//
// # Outline
//
//   - Declare inputs on the builder, before Build: [AddInputs]
//     ([InputSpec], [Inputs], [Input], [MaxValueSize]); systems consume
//     [Inputs.Events].
//   - Open a journal over a [Store] ([Position], [Checkpoint]): [Open]
//     ([Options], [Table]) recovers, then [Journal.Frame] runs each
//     frame, [Journal.Checkpoint], [Journal.Close]; [Journal.Stats]
//     ([Stats]).
//   - Append from any goroutine: [Inputs.Append] (durable on return),
//     [Inputs.Send] and [Journal.Wait] (pipelined), [Journal.Durable].
//   - Stores: [MemStore] for tests; SQLite and the conformance suite are
//     in the module github.com/tickwork/tickwork/stores.
//   - Errors: [ErrStore] ([StoreError]), [ErrCorrupt] ([CorruptError]),
//     [ErrInputType] ([InputTypeError]), [ErrDefinition]
//     ([DefinitionError]), [ErrRestore] ([RestoreError]), [ErrClosed],
//     [ErrNotOpen], [ErrBacklog].
package journal
