"""The top-level API: every name `mdmem` exports comes from its home module, `mdmem.lint`
lints, and no submodule shadows an exported name."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import mdmem
from mdmem.linting import run
from tests.test_lint import EMPTY_SESSION, write_memory


def every_module() -> list[str]:
    """Every module of the package but `__main__` (importing it would run the CLI)."""
    found = pkgutil.walk_packages(mdmem.__path__, prefix="mdmem.")
    return sorted(info.name for info in found if not info.name.endswith("__main__"))


def test_all_and_homes_list_the_same_names() -> None:
    assert sorted(mdmem.__all__) == sorted(mdmem._HOME)


@pytest.mark.parametrize("name", sorted(mdmem._HOME))
def test_exported_name_is_its_home_modules_object(name: str) -> None:
    home = importlib.import_module(mdmem._HOME[name])
    assert getattr(mdmem, name) is getattr(home, name)


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'lintrun'"):
        _ = mdmem.lintrun


def test_lint_is_exported_and_finds_what_the_runner_finds(tmp_path: Path) -> None:
    root = write_memory(tmp_path, {"memory/sessions/2026-03-02.md": EMPTY_SESSION})
    found = mdmem.lint(root)
    assert mdmem.lint is run.lint
    assert [(f.code, f.path) for f in found] == [("W004", "memory/sessions/2026-03-02.md")]
    assert all(isinstance(f, mdmem.Finding) for f in found)


@pytest.mark.parametrize("name", sorted(mdmem.__all__))
def test_no_submodule_is_named_like_an_exported_name(name: str) -> None:
    # Importing a submodule sets it as an attribute of its package, over a function of the
    # same name: `mdmem.lint` would become a module the moment `mdmem.lint` was imported.
    assert importlib.util.find_spec(f"mdmem.{name}") is None


def test_exports_survive_importing_every_module() -> None:
    for module in every_module():
        importlib.import_module(module)
    for name in mdmem.__all__:
        assert getattr(mdmem, name) is getattr(importlib.import_module(mdmem._HOME[name]), name)
