"""`writing.logs`: new log names, and the uncommitted logs found from a folder's names and
what HEAD holds, without reading a log."""

from __future__ import annotations

import datetime as dt

import pytest

from mdmem.errors import MdmemError, ParseError
from mdmem.writing import logs

X = "2026-07-01-130000"
SLUGS = [f"{X}-{chr(ord('a') + index)}" for index in range(20)]  # X-a ... X-t


@pytest.mark.parametrize(
    ("stems", "committed", "current"),
    [
        pytest.param([X, f"{X}-bench"], {X}, f"{X}-bench", id="slug_after_its_second"),
        pytest.param([X, f"{X}-bench"], set(), f"{X}-bench", id="both_open_slug_is_newer"),
        pytest.param([f"{X}-bench", X], {f"{X}-bench"}, X, id="only_the_plain_one_open"),
        pytest.param(["2026-07-01", f"{X}"], {X}, "2026-07-01", id="date_only_open"),
        pytest.param(["2026-07-01", f"{X}"], set(), X, id="date_only_sorts_first"),
        pytest.param(
            [X, *SLUGS],
            {*SLUGS} - {SLUGS[1]},
            SLUGS[1],
            id="a_newer_log_beyond_the_first_names_is_found",
        ),
        pytest.param([X, *SLUGS], {X, *SLUGS}, None, id="all_committed"),
    ],
)
def test_current(stems: list[str], committed: set[str], current: str | None) -> None:
    filenames = [f"{stem}.md" for stem in stems] + ["notes.md", "README", f"{X}.md.mdmem-tmp"]
    names = frozenset(f"{stem}.md" for stem in committed)
    assert (*logs.newest_first(set(filenames) - names), None)[0] == current


def test_free_stem_takes_the_next_free_second() -> None:
    moment = dt.datetime(2026, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc)
    taken = {"2026-12-31-235959-x"}
    assert logs.free_stem(moment, "x", taken.__contains__) == "2027-01-01-000000-x"


def test_log_stem_is_utc() -> None:
    moment = dt.datetime(2026, 7, 1, 14, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert logs.log_stem(moment, None) == "2026-07-01-120000"


@pytest.mark.parametrize(
    ("value", "stem"),
    [
        (X, X),
        (f"{X}.md", X),
        (f"memory/sessions/{X}-api.md", f"{X}-api"),
        (f"memory\\sessions\\{X}.md", X),
    ],
)
def test_named_stem(value: str, stem: str) -> None:
    assert logs.named_stem(value) == stem


def test_named_stem_refuses_what_names_no_log() -> None:
    with pytest.raises(ParseError, match="session log name must be"):
        logs.named_stem("yesterday")


def test_check_slug() -> None:
    assert logs.check_slug("api-2") == "api-2"
    with pytest.raises(MdmemError, match="must be lowercase letters"):
        logs.check_slug("Api")
