"""`mdmem migrate`: the rules of other agents' files (CLAUDE.md, Cursor, Copilot, Windsurf,
a CASS playbook) brought into a memory as facts, created by one session log."""
