// Package soa is the hand-written struct-of-arrays baseline of the arena: the
// simplest fast single-threaded Go program that follows arena rules v1
// (../shared/arena-spec.md). The runtime's arena is measured against it, and
// both must end in the same digest.
//
// # Layout
//
// Units live in slot-indexed arrays (x, y, vx, vy, health, alive, gen), one
// entry per roster slot. A unit's handle is (slot, generation): the generation
// of a slot goes up when its unit dies, so a projectile aimed at a unit that
// died is lost even once the slot holds a respawned unit.
//
// Projectiles live in their own parallel arrays; a deleted projectile is
// replaced by the last one (swap-remove), since storage order cannot change
// the digest (arena rules v1, last paragraph of "One frame"). Shots fired
// in a tick wait in a small fresh buffer until the end of the tick, so that
// Collision and IntegrateProjectiles only see the projectiles that existed when
// the tick began.
//
// Hits found by Collision wait in a buffer until the next frame's ApplyHits;
// the slots that died in a frame wait in a list for Respawn, and the
// respawned slots for the next frame's ResolveRespawns.
//
// # Allocation
//
// [New] allocates every buffer at its bound: at most S*(TTL+1) projectiles can
// be alive at once (one tick's shots live for TTL+1 ticks), hence at most that
// many hits per tick, and at most min(N, S*(TTL+1)) deaths per frame. [Sim.Frame]
// then allocates nothing.
//
// # Timing
//
// [Sim.Frame] times each stage with time.Now; [Sim.SystemTimes] reports them
// under the names of the runtime's systems: ResolveRespawns, ApplyHits, Fire,
// Collision, IntegrateBodies, IntegrateProjectiles, Clock, PresentationSync,
// Respawn.
//
// # Concurrency
//
// A [Sim] is single-threaded and not safe for concurrent use; it starts no
// goroutines.
package soa
