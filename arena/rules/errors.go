package rules

import (
	"errors"
	"fmt"
)

// ErrBadConfig is the sentinel that every [*ConfigError] matches under
// errors.Is: the [Config] breaks a bound of arena rules v1.
var ErrBadConfig = errors.New("rules: bad config")

// ConfigError names the field of a [Config] that is out of range and the bound
// it breaks. It unwraps to [ErrBadConfig].
type ConfigError struct {
	Field string // Go name of the Config field, e.g. "Units"
	Value int    // the rejected value
	Want  string // the bound, e.g. "> 0"
}

// Error returns "rules: bad config: <Field> = <Value>, want <Want>".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("%v: %s = %d, want %s", ErrBadConfig, e.Field, e.Value, e.Want)
}

// Unwrap returns [ErrBadConfig].
func (e *ConfigError) Unwrap() error { return ErrBadConfig }
