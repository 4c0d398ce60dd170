package arena

import "errors"

// ErrUnknownLane: Config.Lane names no lane (tickwork.ParseLane refuses
// it: the names are "scalar", "avx2", "avx512", in any case). New returns it
// wrapped with the name; match it with errors.Is.
var ErrUnknownLane = errors.New("arena: unknown lane")

// errUnresolved: a respawned unit's provisional handle did not resolve; the
// runtime's boundary rules guarantee it does, so this is a bug.
var errUnresolved = errors.New("arena: a respawned unit's provisional handle did not resolve at the next FrameStart")

// errSlotBinding: a unit's entity index is not its roster slot. The Actors
// domain hands out the lowest free slot and Respawn creates the freed slots
// in ascending order, so this cannot happen unless the storage's slot policy
// changed.
var errSlotBinding = errors.New("arena: a unit's entity index differs from its slot; the lowest-free-slot policy of ephemeral domains no longer holds")
