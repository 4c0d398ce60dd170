package main

import (
	"github.com/tickwork/tickwork/arena"
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// impls maps the values of -impl to the arena implementations. A nil entry
// is an implementation that is planned but not wired in; -impl rejects it
// with "not available yet".
var impls = map[string]func(rules.Config) (rules.Sim, error){
	"soa":     adapt(soa.New),
	"runtime": adapt(arena.New),
}

// adapt turns the constructor of a concrete rules.Sim (such as soa.New,
// which returns *soa.Sim) into a factory of the interface. On error the
// factory returns a nil interface, never a typed nil pointer inside one.
func adapt[S rules.Sim](newSim func(rules.Config) (S, error)) func(rules.Config) (rules.Sim, error) {
	return func(cfg rules.Config) (rules.Sim, error) {
		s, err := newSim(cfg)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}
