"""`maker`: a frozen dataclass made the fast way must be the same value in every way."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mdmem.format.document import Fact
from mdmem.format.footer import Footer
from mdmem.format.frozen import maker
from mdmem.format.sessionlog import Event, Session, SessionName


@dataclasses.dataclass(frozen=True, order=True, slots=True)
class Value:
    name: str
    count: int
    note: str | None = None


make_value = maker(Value)
VALUES = st.tuples(st.text(max_size=3), st.integers(-2, 2), st.none() | st.text(max_size=2))


def _outcome(compare: Callable[[], bool]) -> bool | type[Exception]:
    try:
        return compare()
    except TypeError as error:  # None against a string: both refuse alike
        return type(error)


@given(VALUES, VALUES)
def test_property_a_made_value_is_the_constructed_value(
    first: tuple[str, int, str | None], second: tuple[str, int, str | None]
) -> None:
    made, built = make_value(*first), Value(*first)
    other_made, other_built = make_value(*second), Value(*second)
    assert type(made) is Value
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert (made == other_made) == (built == other_built)
    assert _outcome(lambda: made < other_made) == _outcome(lambda: built < other_built)
    assert dataclasses.astuple(made) == first
    assert dataclasses.replace(made, count=9) == Value(first[0], 9, first[2])
    assert pickle.loads(pickle.dumps(made)) == built
    assert copy.deepcopy(made) == built


def test_a_made_value_stays_frozen() -> None:
    made = make_value("a", 1, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.name


def test_every_field_is_passed() -> None:
    with pytest.raises(TypeError):
        make_value("a", 1)  # no defaults: the hot paths pass every field


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        (SessionName, ("2026-01-07", "080000", "a", "2026-01-07-080000-a")),
        (Event, ("created", ("aa-bb",), None, 4)),
    ],
)
def test_the_review_values_made_fast_equal_their_constructed_twins(
    cls: type[object], fields: tuple[object, ...]
) -> None:
    assert maker(cls)(*fields) == cls(*fields)


def test_a_session_and_a_fact_made_fast_equal_constructed_ones() -> None:
    name = SessionName("2026-01-07", "", "", "2026-01-07")
    session = Session(name, "m/sessions/2026-01-07.md", frozenset({"aa-bb"}), (), (), 3)
    assert maker(Session)(name, session.path, session.references, (), (), 3) == session
    footer = Footer("  ", (" id: aa-bb ",), "", {"id": "aa-bb"})
    assert maker(Footer)("  ", (" id: aa-bb ",), "", {"id": "aa-bb"}) == footer
    assert maker(Fact)("S", "", 0, 2, footer, None, "aa-bb") == Fact("S", "", 0, 2, footer, None)


def test_a_dataclass_without_slots_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class WithoutSlots:
        value: int

    with pytest.raises(TypeError, match="slots=True"):
        maker(WithoutSlots)


def test_a_field_named_as_the_constructor_s_own_names_is_refused() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Pair:
        key: str
        value: str  # as footer.Field: the constructor's own `value` would hide it

    with pytest.raises(TypeError, match="uses the names"):
        maker(Pair)
