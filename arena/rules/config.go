package rules

// Validate reports whether c is a valid run of arena rules v1
// (../shared/arena-spec.md, "Constants"): Units > 0, Shots >= 0 and
// Workers >= 0 (0 and 1 both mean scalar). It returns nil or a [*ConfigError]
// for the first field out of range, in the order Units, Shots, Workers; the
// error matches [ErrBadConfig] under errors.Is. The seed may be any value.
func (c Config) Validate() error {
	switch {
	case c.Units <= 0:
		return &ConfigError{Field: "Units", Value: c.Units, Want: "> 0"}
	case c.Shots < 0:
		return &ConfigError{Field: "Shots", Value: c.Shots, Want: ">= 0"}
	case c.Workers < 0:
		return &ConfigError{Field: "Workers", Value: c.Workers, Want: ">= 0"}
	}
	return nil
}
