package corpus

import "slices"

// Cases returns the corpus, arena cases first, then the shop's, then the
// index-served ones (issue 23), in table order. The result
// is the caller's; the cases are read-only and safe to share.
func Cases() []Case { return slices.Concat(arenaCases(), shopCases(), indexCases()) }
