"""This project keeps its own memory with mdmem: it must always be readable and lint-clean."""

from __future__ import annotations

from pathlib import Path

from mdmem.linting.findings import exit_code
from mdmem.linting.run import lint
from mdmem.store.load import load

OWN = Path(__file__).resolve().parent.parent / "memory"


def test_own_memory_loads_and_has_no_lint_errors() -> None:
    memory = load(OWN)
    assert memory.sessions, "the project's own session logs are missing"
    findings = lint(OWN)
    errors = [finding.render() for finding in findings if finding.severity == "error"]
    assert errors == []
    assert exit_code(findings, strict=False) == 0
