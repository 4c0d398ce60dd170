package soa_test

import (
	"testing"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/arena/soa"
)

// BenchmarkFrame measures one frame at the default config, after the default
// warm-up (the projectile population is steady after TTL+1 frames).
func BenchmarkFrame(b *testing.B) {
	s, err := soa.New(rules.DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	for range rules.DefaultWarmup {
		if err := s.Frame(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Frame(); err != nil {
			b.Fatal(err)
		}
	}
}
