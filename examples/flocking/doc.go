// Command flocking is a flock of boids on the face and a schema: a uniform
// grid rebuilt every fixed tick, steering (cohesion, alignment,
// separation) over the 3×3 cells around each boid on the kernel workers, a
// declared Move system (flock.tw) that integrates and wraps, seeded spawns
// and the expiry of the oldest through command buffers, and a Near event
// for two boids closer than 1 m, counted by an observer (tickwork.Observe).
//
//	go run ./examples/flocking -n 4096 -frames 600 -workers 2
package main

//go:generate go run ../../cmd/tickwork-gen -o flock_gen.go flock.tw
