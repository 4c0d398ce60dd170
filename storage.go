package tickwork

import "github.com/tickwork/tickwork/ephemeral"

// Handle names one entity: [ephemeral.Handle].
type Handle = ephemeral.Handle

// Table is chunked struct-of-arrays storage: [ephemeral.Table].
type Table = ephemeral.Table

// TableSpec declares a table: [ephemeral.TableSpec].
type TableSpec = ephemeral.TableSpec

// Column is one typed column of a table: [ephemeral.Column].
type Column[T any] = ephemeral.Column[T]

// Domain is a handle space shared by tables: [ephemeral.Domain].
type Domain = ephemeral.Domain

// DomainSpec declares a domain: [ephemeral.DomainSpec].
type DomainSpec = ephemeral.DomainSpec

// NextRun is the first run [lo, hi) of live rows of a chunk's enabled
// bitmap at or after row from, for kernels that walk runs without a
// closure: [ephemeral.NextRun].
func NextRun(mask []uint64, from int) (lo, hi int) { return ephemeral.NextRun(mask, from) }
