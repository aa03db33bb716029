"""DECAY.md and REVIEW.md, shipped into every repository `mdmem init` sets up: their policy
tables are the code's defaults (`python scripts/docs.py` writes them), and every command
they name exists."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import click
import pytest

from mdmem.adopting.skeleton import usage_text
from mdmem.cli.main import every_command
from mdmem.format.blocks import block_body
from mdmem.format.policy import Policy
from mdmem.format.textfile import TextFile, split_lines
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
docs = load_script(ROOT / "scripts" / "docs.py", "mdmem_docs_script")
COMMAND = re.compile(r"(?:`|\$ )mdmem ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?")


@pytest.mark.parametrize("name", ["DECAY.md", "REVIEW.md"])
def test_the_policy_table_is_the_code_s_defaults(name: str) -> None:
    old, new = docs.regenerated(name)
    assert old == new, f"{name}'s policy table is out of date; run `{docs.REGENERATE}`"


def test_the_table_holds_every_policy_key_with_its_default() -> None:
    text = (ROOT / "DECAY.md").read_text("utf-8")
    table = block_body(TextFile("DECAY.md", split_lines(text)), "policy")
    assert table is not None
    for field in dataclasses.fields(Policy):
        default = str(getattr(Policy(), field.name)).lower()
        assert f"| `{field.name}` | {default} |" in table, field.name


def test_a_changed_default_is_caught_and_regenerated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in docs.BLOCKS:
        shutil.copy(ROOT / name, tmp_path / name)
    monkeypatch.setattr(docs, "ROOT", tmp_path)
    assert docs.main(["--check"]) == 0
    drifted = (
        (tmp_path / "DECAY.md")
        .read_text("utf-8")
        .replace("| `active_window` | 8 |", "| `active_window` | 9 |")
    )
    (tmp_path / "DECAY.md").write_text(drifted, "utf-8")
    assert docs.main(["--check"]) == 1
    assert "out of date: DECAY.md; run `python scripts/docs.py`" in capsys.readouterr().err
    assert docs.main([]) == 0
    assert (tmp_path / "DECAY.md").read_bytes() == (ROOT / "DECAY.md").read_bytes()
    assert docs.main(["--check"]) == 0


def test_a_policy_key_without_a_meaning_stops_the_script(monkeypatch: pytest.MonkeyPatch) -> None:
    meanings = dict(docs.MEANINGS)
    del meanings["review_every"]
    monkeypatch.setattr(docs, "MEANINGS", meanings)
    with pytest.raises(SystemExit, match="review_every"):
        docs.policy_table()


@pytest.mark.parametrize("name", ["DECAY.md", "REVIEW.md", "usage"])
def test_every_command_the_documents_name_exists(name: str) -> None:
    text = usage_text() if name == "usage" else (ROOT / name).read_text("utf-8")
    named = set(COMMAND.findall(text))
    assert len(named) >= 5
    for command, sub in sorted(named):
        assert command in every_command(), f"{name} names `mdmem {command}`"
        group = every_command()[command]
        if sub and isinstance(group, click.Group):  # session start, hooks install
            assert sub in group.commands, f"{name} names `mdmem {command} {sub}`"
