"""Finding and serving the memory: lookup, show (with --as-of), context and status.

Pure modules decide (`ranking`, `index`, `history`, `context`, `status`, `scope`,
`entries`); `sources` reads what each command needs and nothing more.
"""
