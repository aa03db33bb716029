"""Test configuration: a fixed git identity, so commits work on any machine."""

from __future__ import annotations

import pytest

from tests.helpers import GIT_ENV


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    # The session cache of a memory outside git goes here, never into the user's home.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
