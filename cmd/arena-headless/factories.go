package main

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// factories builds each implementation by the name -impl selects: "runtime"
// (package arena, the arena on the runtime) and "soa" (package arena/soa,
// the baseline). "both" needs the two. A name missing from the map is
// reported as not available in this build (exit status 2). Tests swap in
// fakes.
var factories = map[string]func(rules.Config) (rules.Sim, error){
	"runtime": newRuntime,
	"soa":     newSoA,
}

// newRuntime and newSoA are the two implementations' constructors.
var newRuntime, newSoA = rules.Factory(arena.New), rules.Factory(soa.New)
