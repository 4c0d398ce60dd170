package runtime

import "github.com/tickwork/tickwork/internal/plumb"

// sealDefinitions seals the domains of the Builder's tables and its
// declared domains (plumb.Domain), at Build: from then on
// ephemeral.AddColumn on a world's table and ephemeral.NewTable into a
// world's domain fail with ephemeral.ErrSealed, as the Builder's own
// methods fail with ErrBuilt, so a world's tables and columns are exactly
// those declared before Build.
func (b *Builder) sealDefinitions() {
	for _, t := range b.tables {
		plumb.DomainOf(t.Domain()).Seal()
	}
	for _, d := range b.domains {
		plumb.DomainOf(d).Seal()
	}
}
