package plumb

import "errors"

// ErrEmptyName is the one sentinel of an empty name, exported as
// ephemeral.ErrEmptyName (a table, domain or column), events.ErrEmptyName
// (an event table), systems.ErrEmptyName (a system) and
// runtime.ErrEmptyName (a resource, and every other): one value, so that
// errors.Is(err, ErrEmptyName) holds whichever layer refused the name.
var ErrEmptyName = errors.New("name must not be empty")
