"""The agent's write path: what adds to a memory (ids for new facts, backfilled footers)."""
