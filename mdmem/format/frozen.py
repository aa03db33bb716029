"""Frozen dataclasses made at the cost of plain objects, for the values made by the thousand."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")


# The names the generated constructor uses besides the fields.
_OWN_NAMES = frozenset({"value", "new", "unfrozen", "cls"})


def maker(cls: type[T]) -> Callable[..., T]:
    """A fast constructor of `cls`, a frozen dataclass with slots: its fields, positionally.

    The `__init__` that `dataclass(frozen=True)` writes sets each field through
    `object.__setattr__`, and that is most of the cost of making a log name, a session,
    a fact, a footer or a decision; a review of a large memory makes tens of thousands.
    This one fills a plain object with the same slots and then makes it a `cls`: the
    value is as frozen, equal, hashable and ordered as one `cls(...)` makes. Every field
    is passed (defaults and `__post_init__` are not run); `cls(...)` stays the checked
    way for everything but hot paths.
    """
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    slots = vars(cls).get("__slots__")
    if slots is None or list(slots) != names:
        raise TypeError(f"{cls.__name__}: maker takes a dataclass with slots=True")
    if _OWN_NAMES.intersection(names):  # a field so named would be overwritten unseen
        raise TypeError(f"{cls.__name__}: maker uses the names {sorted(_OWN_NAMES)} itself")
    unfrozen = type(f"_{cls.__name__}Slots", (), {"__slots__": tuple(names)})
    parameters = ", ".join(names)
    source = f"def make({parameters}):\n    value = new(unfrozen)\n"
    source += "".join(f"    value.{name} = {name}\n" for name in names)
    source += "    value.__class__ = cls\n    return value\n"
    namespace: dict[str, object] = {"new": object.__new__, "unfrozen": unfrozen, "cls": cls}
    exec(source, namespace)
    return cast(Callable[..., T], namespace["make"])
