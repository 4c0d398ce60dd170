package main

import (
	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// impls maps the values of -impl to the arena implementations. A nil entry
// is an implementation that is planned but not wired in yet; -impl rejects
// it with "not available yet".
var impls = map[string]func(rules.Config) (rules.Sim, error){
	"soa":     newSoA,
	"runtime": nil, // the runtime's arena.New, once it lands
}

// newSoA adapts soa.New, which returns the concrete *soa.Sim, to the factory
// type; on error it returns a nil interface, not a typed nil.
func newSoA(cfg rules.Config) (rules.Sim, error) {
	s, err := soa.New(cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}
