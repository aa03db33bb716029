"""The agent's write path, a module per command and the pieces they share.

Pure: `logs` (log names, the template), `references` (`record` on a log's `## Memory
References`), `known` (which ids a session may cite), `ids`, `facts` (a fact's lines and
footer), `conflicts` (what a new text meets), `tombstones` (`blocked.md`'s entries),
`add_plan` (what `mdmem add` does), `archived` (the archive read as bytes). The edges
that read the few files a command needs, lock the memory and write atomically:
`current` (the current session, read only), `gathered` (the facts a command reads),
`session` (`session start`, `ref`), `add`, `gates`, `forget`, `backfill` (its plan pure
too).
"""
