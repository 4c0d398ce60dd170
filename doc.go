// Package tickwork is the one package a game or simulation imports: a thin
// face over the engine packages (ephemeral, events, commands, systems,
// scheduler, kernels, runtime), made of type aliases and one-line
// functions. Everything here is documented, and lives, in the engine
// package it names.
//
// # Outline
//
//   - Storage: [Table], [Column], [Handle] ([ephemeral]).
//   - Typed iteration: [Query1] .. [Query4] with their rows [Row1] ..
//     [Row4]: All (every live row), Chunk and Runs/Spans (a kernel's
//     chunk); [HostQuery1] .. [HostQuery4] for code outside systems.
package tickwork
