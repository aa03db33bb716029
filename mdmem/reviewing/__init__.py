"""The review: the ledger index, tier decisions, cadences, the archive, stamps, review rows,
post-merge repair (all pure), and `apply`, which carries a plan out."""
