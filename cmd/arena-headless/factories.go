package main

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// factories builds each implementation by the name -impl selects. "both"
// needs "runtime" and "soa". Adding the entry
//
//	"runtime": arena.New,
//
// (package github.com/tickwork/tickwork/arena) enables the runtime's arena.
// Tests swap in fakes.
var factories = map[string]func(rules.Config) (rules.Sim, error){
	"runtime": newRuntime,
	"soa":     newSoA,
}

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
