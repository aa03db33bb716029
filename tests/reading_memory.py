"""A small memory for the reading commands' tests: each kind of fact beside a live
neighbour, and a ledger in which one fact is created, goes stale, is archived and is
reactivated."""

# ruff: noqa: E501  (footers are one line, as in a real memory)

from __future__ import annotations

from pathlib import Path

CONTINUITY = """\
# Continuity

## Project State

- **last_review:** 2026-01-08 | through 2026-01-08-100000

## Architectural Invariants

- Every webhook delivery is signed with the shared HMAC key
  <!-- id: signed-webhooks | created: 2025-12-01 | uses: 3 | tier: core -->

## Key Decisions

- Webhook retries use exponential backoff, capped at one minute
  <!-- id: webhook-backoff | created: 2025-12-01 | last_used: 2026-01-08 | uses: 4 | tier: active | tags: retry -->
- Webhook retries happen at a fixed five second interval
  <!-- id: webhook-fixed-interval | created: 2025-11-01 | uses: 2 | tier: superseded | superseded-by: webhook-backoff -->
- API handlers validate the request body with Pydantic models
  <!-- id: api-pydantic-models | created: 2025-12-01 | uses: 2 | tier: active | scope: src/api/** -->
- Cache webhook payloads in Redis for replay
  <!-- id: redis-payload-cache | created: 2025-12-01 | uses: 5 | tier: active | helpful: 1 | harmful: 4 | maturity: deprecated -->
- Store the deploy token in the repository config file
  <!-- id: deploy-token-config | created: 2025-12-01 | uses: 1 | tier: working -->
- The nightly export writes one CSV file per tenant
  <!-- id: export-csv-tenant | created: 2026-01-01 | last_used: 2026-01-07 | uses: 3 | tier: active | origin: 2026-01-01-100000 -->
- Webhook requests time out after ten seconds
  <!-- id: webhook-timeout-ten | created: 2025-12-01 | uses: 2 | tier: active -->
- Mocking the database in integration tests hid a migration bug
  <!-- id: mock-database-tests | created: 2025-12-01 | uses: 3 | tier: active | type: anti-pattern -->

## Open Threads

- [ ] Decide whether webhook retries should move to the queue worker
  <!-- id: webhook-queue-thread | created: 2026-01-02 | uses: 1 | tier: working -->
- [x] Rotate the webhook signing key
  <!-- id: rotate-signing-key | created: 2025-12-01 | uses: 2 | tier: active -->
"""

ARCHIVE = """\
# Archive 2025-Q4

## Archived 2025-12-20 (review through 2025-12-20-100000)

### faded

- Webhook payloads were logged in full for debugging
  <!-- id: webhook-full-logging | created: 2025-10-01 | last_used: 2025-10-20 | uses: 2 | tier: archived | section: Key Decisions -->
"""

BLOCKED = """\
# Blocked

## Blocked

- Store the deploy token in the repository config file
  <!-- id: deploy-token-in-repo | blocked: 2025-12-15 | reason: a secret in git -->
"""

POLICY = """\
working_window: 1
active_window: 2
archive_window: 4
review_every: 3
"""

# (stem, Memory References lines): export-csv-tenant is created in the first log,
# goes stale, fades past the archive window and is reactivated in 2026-01-07.
LOGS = [
    ("2026-01-01-100000", ["- Created: export-csv-tenant", "- Referenced: webhook-backoff"]),
    ("2026-01-02-100000", ["- Created: webhook-queue-thread"]),
    ("2026-01-03-100000", ["- Referenced: webhook-backoff", "- Helpful: webhook-backoff"]),
    ("2026-01-04-100000", ["- Referenced: signed-webhooks"]),
    ("2026-01-05-100000", ["- Referenced: signed-webhooks"]),
    ("2026-01-06-100000", ["- Referenced: webhook-backoff"]),
    ("2026-01-07-100000", ["- Reactivated: export-csv-tenant"]),
    ("2026-01-08-100000", ["- Referenced: webhook-backoff, signed-webhooks"]),
    ("2026-01-09-100000", ["- Superseded: webhook-timeout-ten (invalidated)"]),
    ("2026-01-10-100000", ["- Harmful: export-csv-tenant"]),
]


def write_memory(folder: Path, logs: list[tuple[str, list[str]]] = LOGS) -> Path:
    """The memory above in `folder/memory`; returns the memory folder."""
    root = folder / "memory"
    (root / "sessions").mkdir(parents=True)
    (root / "archive").mkdir()
    (root / "continuity.md").write_text(CONTINUITY, encoding="utf-8")
    (root / "archive" / "2025-Q4.md").write_text(ARCHIVE, encoding="utf-8")
    (root / "blocked.md").write_text(BLOCKED, encoding="utf-8")
    (root / "decay-policy.md").write_text(POLICY, encoding="utf-8")
    for stem, lines in logs:
        text = f"# Session {stem}\n\nWorked on webhooks.\n\n## Memory References\n"
        (root / "sessions" / f"{stem}.md").write_text(text + "\n".join(lines) + "\n")
    return root
