package rules

import "strconv"

// Validate reports whether c is a valid run of arena rules v1
// (../shared/arena-spec.md, "Constants"): 0 < Units <= [MaxUnits],
// 0 <= Shots <= [MaxShots] and 0 <= Workers <= [MaxWorkers] (0 and 1 both
// mean scalar). It returns nil or a [*ConfigError] for the first field out
// of range, in the order Units, Shots, Workers; the error matches
// [ErrBadConfig] under errors.Is. The seed may be any value. Pure; safe for
// concurrent use.
func (c Config) Validate() error {
	switch {
	case c.Units <= 0:
		return &ConfigError{Field: "Units", Value: c.Units, Want: "> 0"}
	case c.Units > MaxUnits:
		return &ConfigError{Field: "Units", Value: c.Units, Want: atMost(MaxUnits, "MaxUnits")}
	case c.Shots < 0:
		return &ConfigError{Field: "Shots", Value: c.Shots, Want: ">= 0"}
	case c.Shots > MaxShots:
		return &ConfigError{Field: "Shots", Value: c.Shots, Want: atMost(MaxShots, "MaxShots")}
	case c.Workers < 0:
		return &ConfigError{Field: "Workers", Value: c.Workers, Want: ">= 0"}
	case c.Workers > MaxWorkers:
		return &ConfigError{Field: "Workers", Value: c.Workers, Want: atMost(MaxWorkers, "MaxWorkers")}
	}
	return nil
}

// atMost formats an upper bound for ConfigError.Want: "<= 256 (MaxWorkers)".
func atMost(limit int, name string) string {
	return "<= " + strconv.Itoa(limit) + " (" + name + ")"
}
