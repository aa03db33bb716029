"""The memory's files as values: text, footers, documents, session logs, the policy (pure)."""
