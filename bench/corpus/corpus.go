package corpus

// Cases returns the corpus, arena cases first, in table order. The result
// is the caller's; the cases are read-only and safe to share.
func Cases() []Case { return append(arenaCases(), shopCases()...) }
