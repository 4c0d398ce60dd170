package ephemeral

import "github.com/tickwork/tickwork/internal/plumb"

// domainOps is the engine's side of a Domain (plumb.Domain): its seal and
// its snapshot state, which only the runtime calls, through
// plumb.DomainOf, when it builds a world and takes or restores its
// snapshots.
type domainOps Domain

func init() {
	plumb.RegisterDomain(func(d any) plumb.Domain { return (*domainOps)(d.(*Domain)) })
}

func (o *domainOps) d() *Domain                             { return (*Domain)(o) }
func (o *domainOps) AppendState(dst []byte) ([]byte, error) { return o.d().appendState(dst), nil }
func (o *domainOps) CheckState(src []byte) error            { return o.d().checkState(src) }
func (o *domainOps) LoadState(src []byte)                   { o.d().loadState(src) }
func (o *domainOps) Describe(dst []byte) []byte             { return o.d().describe(dst) }
func (o *domainOps) Seal()                                  { o.d().seal() }
func (o *domainOps) Sealed() bool                           { return o.sealed }

func (o *domainOps) StateSize() int        { return o.d().stateSize() }
func (o *domainOps) StateMax() (int, bool) { return o.d().stateSize(), true }
