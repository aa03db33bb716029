"""Test configuration: a fixed git identity, so commits work on any machine."""

from __future__ import annotations

import pytest

from tests.helpers import GIT_ENV


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
