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

// newRuntime adapts arena.New to the factory signature.
func newRuntime(cfg rules.Config) (rules.Sim, error) {
	s, err := arena.New(cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newSoA adapts soa.New to the factory signature.
func newSoA(cfg rules.Config) (rules.Sim, error) {
	s, err := soa.New(cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}
