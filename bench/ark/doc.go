// Package ark is the arena (arena rules v1, docs/arena-spec.md) on Ark,
// github.com/mlange-42/ark, an archetype-based ECS for Go, written as an
// Ark user would write it, so that `make bench` can set the runtime and
// the hand-written baseline (package arena/soa) beside a general-purpose
// Go ECS. It ends in the same digest as both.
//
// # Data
//
// A unit is one entity with the components [Position], [Velocity],
// [Health] and [Unit] (its roster slot); a projectile is one entity with
// [Position], [Velocity] and [Projectile] (target entity, ttl, damage).
// The roster maps each slot to its unit's ecs.Entity; Ark's entities carry
// a generation, so world.Alive(target) is the rules' "the target handle
// names a live unit", and a projectile aimed at a unit that died is lost
// even once its slot holds a respawned unit.
//
// # Systems and structural changes
//
// Each stage of [Sim.Frame] is a registered Ark filter's query (Query.Next
// and Get) or a loop over the stage's buffer with ecs.Map lookups by
// entity. A query locks the world, so structural changes are batched the
// Ark way: Collision collects the projectiles it deletes and removes them
// after its query; Fire's shots wait in a buffer and are created in one
// Map3.NewBatchFn after IntegrateProjectiles, so no projectile is checked,
// moved or aged in the tick it is fired; Respawn creates the frame's new
// units in one Map4.NewBatchFn, drawing in ascending slot order, and the
// next frame's ResolveRespawns binds them to their slots. ApplyHits
// removes a dead unit at once (no query is open then).
//
// # Allocation and timing
//
// [New] sizes the frame's buffers at their bounds (as package soa does);
// Ark's tables grow to the steady projectile count in the first TTL+1
// frames, after which a frame allocates nothing (tested). [Sim.Frame]
// times each stage with time.Now; [Sim.SystemTimes] reports them under the
// rules' system names.
//
// # Concurrency
//
// A [Sim] is single-threaded (Ark's world is not safe for concurrent
// use) and starts no goroutines.
package ark
