package ark_test

import (
	"fmt"

	"github.com/tickwork/tickwork/arena/rules"
	"github.com/tickwork/tickwork/bench/ark"
)

// ExampleNew runs soa's example config on Ark: the same digest and
// counters as package arena/soa's ExampleNew.
func ExampleNew() {
	s, err := ark.New(rules.Config{Units: 1000, Shots: 64, Seed: 42})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	for range 200 {
		if err := s.Frame(); err != nil {
			panic(err)
		}
	}
	d := rules.Digest(s.Presentation(), s.Frames(), s.Counters(), s.ProjectileChecksum())
	fmt.Println(rules.FormatDigest(d))
	fmt.Printf("%+v\n", s.Counters())
	// Output:
	// fe9494823c44d61e
	// {ShotsFired:12788 Hits:104 Deaths:35 Lost:198 Expired:6387 LiveProjectiles:6099}
}
