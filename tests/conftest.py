"""Test configuration: a fixed git identity, so commits work on any machine."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.helpers import GIT_ENV

# Hypothesis profiles, picked by HYPOTHESIS_PROFILE. `ci` (the default) is bounded so the
# whole suite runs in minutes, and derandomized so that CI is reproducible; `make fuzz`
# runs `fuzz`, twenty times the examples with fresh randomness. Heavy property tests
# take a share of max_examples (tests/test_properties.py).
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    # The caches of a memory outside git go here, never into the user's home.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
