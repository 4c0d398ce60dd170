package rules_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/arena/rules"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name  string
		cfg   rules.Config
		field string // "" = valid
	}{
		{"default", rules.DefaultConfig(), ""},
		{"zero shots, zero workers", rules.Config{Units: 1}, ""},
		{"zero units", rules.Config{Units: 0, Shots: 1}, "Units"},
		{"negative units", rules.Config{Units: -5}, "Units"},
		{"negative shots", rules.Config{Units: 10, Shots: -1}, "Shots"},
		{"negative workers", rules.Config{Units: 10, Workers: -2}, "Workers"},
		{"every maximum", rules.Config{Units: rules.MaxUnits, Shots: rules.MaxShots, Workers: rules.MaxWorkers}, ""},
		{"units past MaxUnits", rules.Config{Units: rules.MaxUnits + 1}, "Units"},
		{"units 2e9", rules.Config{Units: 2_000_000_000, Shots: 1}, "Units"},
		{"shots past MaxShots", rules.Config{Units: 100, Shots: rules.MaxShots + 1}, "Shots"},
		{"shots MaxInt64", rules.Config{Units: 100, Shots: math.MaxInt64}, "Shots"},
		{"workers past MaxWorkers", rules.Config{Units: 100, Workers: rules.MaxWorkers + 1}, "Workers"},
		{"units checked first", rules.Config{Units: math.MaxInt, Shots: math.MaxInt, Workers: math.MaxInt}, "Units"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if tt.field == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, rules.ErrBadConfig)
			var ce *rules.ConfigError
			require.True(t, errors.As(err, &ce), "errors.As(%v, *ConfigError)", err)
			assert.Equal(t, tt.field, ce.Field)
			assert.Contains(t, err.Error(), "rules: bad config: "+tt.field)
		})
	}
}

func TestConfigValidateUpperBoundMessages(t *testing.T) {
	tests := []struct {
		cfg  rules.Config
		want string
	}{
		{rules.Config{Units: 1 << 24, Shots: 1, Workers: 257}, "rules: bad config: Workers = 257, want <= 256 (MaxWorkers)"},
		{rules.Config{Units: 100, Shots: math.MaxInt64}, "rules: bad config: Shots = 9223372036854775807, want <= 65536 (MaxShots)"},
		{rules.Config{Units: 2_000_000_000}, "rules: bad config: Units = 2000000000, want <= 16777216 (MaxUnits)"},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		require.Error(t, err, "%+v", tt.cfg)
		assert.Equal(t, tt.want, err.Error())
	}
}
