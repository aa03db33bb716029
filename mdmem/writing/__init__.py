"""The agent's write path: session logs started and found, facts cited in them, ids for
new facts, footers for legacy ones.

`logs`, `references`, `known`, `ids`, `facts`, `conflicts` and `backfill` are pure (log
names and the template, `record` of ids on a log's `## Memory References` line, which
ids a session may cite, a new id from a text, a fact's lines and footer, what a new text
meets, the backfill plan); `apply` and `apply_backfill` are the edges that read the few
files a command needs, lock the memory and write atomically.
"""
