"""`quick_init`: a frozen dataclass built faster must stay the same value in every way."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.frozen import quick_init
from mdmem.ledger import Event, Session, SessionName
from mdmem.review import Decision


@dataclasses.dataclass(frozen=True, order=True)
class Plain:
    name: str
    count: int
    note: str | None = None
    flag: bool = False


@quick_init
@dataclasses.dataclass(frozen=True, order=True, slots=True)
class Quick:
    name: str
    count: int
    note: str | None = None
    flag: bool = False


VALUES = st.tuples(st.text(max_size=3), st.integers(-2, 2), st.none() | st.text(max_size=2))


@given(VALUES, VALUES, st.booleans())
def test_property_a_quick_value_is_the_plain_value(
    first: tuple[str, int, str | None], second: tuple[str, int, str | None], flag: bool
) -> None:
    quick, plain = Quick(*first, flag=flag), Plain(*first, flag=flag)
    other_quick, other_plain = Quick(*second), Plain(*second)
    assert dataclasses.astuple(quick) == dataclasses.astuple(plain)
    assert (quick == other_quick) == (plain == other_plain)
    assert _outcome(lambda: quick < other_quick) == _outcome(lambda: plain < other_plain)
    assert (hash(quick) == hash(Quick(*first, flag=flag))) and quick == Quick(*first, flag=flag)
    assert repr(quick).removeprefix("Quick") == repr(plain).removeprefix("Plain")
    assert dataclasses.replace(quick, count=9) == Quick(first[0], 9, first[2], flag)
    assert pickle.loads(pickle.dumps(quick)) == quick


def _outcome(compare: Callable[[], bool]) -> bool | type[Exception]:
    try:
        return compare()
    except TypeError as error:  # None against a string: both refuse alike
        return type(error)


def test_defaults_keywords_and_the_signature_are_the_dataclass_ones() -> None:
    assert Quick("a", 1) == Quick(name="a", count=1, note=None, flag=False)
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    with pytest.raises(TypeError):
        Quick("a")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, None, False, "extra")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Quick("a", 1, colour="red")  # type: ignore[call-arg]


def test_a_quick_value_stays_frozen() -> None:
    quick = Quick("a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.count = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del quick.name


def test_the_review_values_keep_their_dataclass_signatures() -> None:
    for cls in (SessionName, Event, Session, Decision):
        fields = [field.name for field in dataclasses.fields(cls)]
        assert list(inspect.signature(cls).parameters) == fields
    name = SessionName("2026-01-07", "080000", "a", "2026-01-07-080000-a")
    assert name < SessionName("2026-01-07", "080001", "", "2026-01-07-080001")
    assert hash(name) == hash(SessionName("2026-01-07", "080000", "a", "2026-01-07-080000-a"))


def test_what_quick_init_cannot_keep_the_same_is_refused() -> None:
    class WithPostInit:
        value: int = 0

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="__post_init__"):
        quick_init(dataclasses.dataclass(frozen=True, slots=True)(WithPostInit))
    with pytest.raises(TypeError, match="slots"):

        @quick_init
        @dataclasses.dataclass(frozen=True)
        class WithoutSlots:
            value: int

    with pytest.raises(TypeError, match="plain fields"):

        @quick_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class Factory:
            values: list[int] = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError, match="plain fields"):

        @quick_init
        @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
        class KeywordOnly:
            value: int
