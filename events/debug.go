package events

// PoisonByte is the byte the checking debug build (build tag
// tickwork_debug) fills an event slot with when its event retires (read
// by every reader, or the end of its frame: docs/architecture.md,
// Retention and capacity), for event types without pointers: floats then
// read NaN, integers -1 or their maximum, bools false. A slice kept past
// its boundary (Read's, a Reader's) shows the pattern where the normal
// build shows the old events (docs/architecture.md, Debug build).
const PoisonByte = 0xFF
