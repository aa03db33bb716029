"""Frozen dataclasses built at the cost of plain ones, for the values made by the thousand."""

from __future__ import annotations

import dataclasses
from types import FunctionType
from typing import TypeVar, cast

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an `__init__` that sets each slot directly.

    The `__init__` that `dataclass(frozen=True)` writes goes through
    `object.__setattr__` for every field, which makes an instance cost about twice a
    plain one's; a review makes one per session log, per log name and per fact decided
    (tens of thousands in a large memory). This one calls each slot's own setter.
    The signature and defaults stay the same, and so does everything else: the instance
    is as frozen, equal, hashable and ordered as before. Apply it above
    `@dataclass(frozen=True, slots=True)`; fields must be plain positional ones.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # checked: a dataclass
    if hasattr(cls, "__post_init__") or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__}: quick_init takes slots and no __post_init__")
    namespace: dict[str, object] = {}
    parameters, assignments = [], []
    for field in fields:
        if not field.init or field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: quick_init takes plain fields only")
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"default_{field.name}"] = field.default
            parameters.append(f"{field.name}=default_{field.name}")
        namespace[f"set_{field.name}"] = vars(cls)[field.name].__set__  # the slot's setter
        assignments.append(f"    set_{field.name}(self, {field.name})\n")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + "".join(assignments)
    exec(source, namespace)
    init = cast(FunctionType, namespace["__init__"])
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {field.name: field.type for field in fields} | {"return": None}
    setattr(cls, "__init__", init)  # noqa: B010  # an assignment mypy would refuse
    return cls
