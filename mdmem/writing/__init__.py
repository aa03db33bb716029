"""The agent's write path: session logs started and found, facts cited in them.

`logs`, `references` and `known` are pure (names and the template, `record` of ids on
a log's `## Memory References` line, which ids a session may cite); `apply` is the
edge that reads the few files a command needs, locks the memory and writes atomically.
"""
