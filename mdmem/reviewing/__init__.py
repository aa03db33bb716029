"""The review: the ledger index, tier decisions, cadences, rendering, the summary, the archive,
stamps, review rows, post-merge repair (all pure; `plan` joins them), and `apply`, which
carries a plan out."""
