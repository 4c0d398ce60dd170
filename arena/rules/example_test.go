package rules_test

import (
	"errors"
	"fmt"

	"github.com/tickwork/tickwork/arena/rules"
)

func ExampleFormatDigest() {
	fmt.Println(rules.FormatDigest(0xbeef))
	// Output: 000000000000beef
}

func ExampleConfig_Validate() {
	err := rules.Config{Units: 0, Shots: 256}.Validate()
	fmt.Println(err)
	fmt.Println(errors.Is(err, rules.ErrBadConfig))
	// Output:
	// rules: bad config: Units = 0, want > 0
	// true
}

func ExampleDigest() {
	pres := []rules.Slot{{X: 1, Y: 2, Alive: 1}, {Alive: 0}}
	c := rules.Counters{ShotsFired: 3, Hits: 1, Lost: 1, LiveProjectiles: 1}
	sum := rules.ProjectileHash(10, 20, rules.TTL, 2)
	fmt.Println(rules.FormatDigest(rules.Digest(pres, 1, c, sum)))
	// Output: 0e4493fd2080a81e
}
