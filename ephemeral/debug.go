package ephemeral

// PoisonByte is the byte the checking debug build (build tag
// tickwork_debug) fills a freed row with, in every column of its table,
// when the row is removed (Delete, Detach, Move's source, playback's
// deletes): a float32 or float64 then reads NaN, a signed integer -1, an
// unsigned one its maximum, a Handle names no row of any table (its index
// is past every capacity); bool fields stay valid and read false. A read
// of a freed row shows the pattern, which a test can detect; the normal
// build leaves a freed row's values as they were. Insert and Attach zero a
// row before it is used again, so the pattern never reaches a live row
// (docs/architecture.md, Debug build).
const PoisonByte = 0xFF
