"""Bringing mdmem into a repository: `init`, the pre-commit hook, the built-in demo."""
