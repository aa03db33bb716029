"""What a memory must never take in, checked one way by every command that writes text it
was given or copies text into a memory: secret material first (a secret is never written,
not even into an id), then text that reads one way to a person and another to an agent
(`mdmem.safety.poison`), which lint would report as an error the moment it landed and
which would then stop every review until someone removed it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mdmem.errors import MdmemError, SecretError


@dataclass(frozen=True)
class Harm:
    """The first harm in a text: its 1-based line there, whether it is secret material
    (else poisoning), and what it is, printable (categories, never the secret itself)."""

    line: int
    secret: bool
    detail: str


def first_harm(text: str) -> Harm | None:
    """Secret material in `text`, else the first sign of poisoning, else a character no
    memory file may hold (a byte-order mark, a control character), else None."""
    # Both scanners imported only when a text is checked: a fifth of importing the gates,
    # which `restore`, `core` and `supersede --by` load to check no text (benchmarks/README.md).
    from mdmem.safety.secrets import find_secrets

    secrets = find_secrets(text)
    if secrets:
        categories = ", ".join(sorted({hit.category for hit in secrets}))
        return Harm(secrets[0].line, True, f"secret material ({categories})")
    from mdmem.safety.poison import find_poison

    poison = find_poison(text)
    if poison:
        hit = poison[0]
        return Harm(hit.line, False, f"possible poisoning ({hit.kind}: {hit.detail})")
    unreadable = _UNREADABLE.search(text)
    if unreadable is not None:
        line = text.count("\n", 0, unreadable.start()) + 1
        name = f"U+{ord(unreadable[0]):04X}"
        return Harm(line, False, f"a character no memory file may hold ({name})")
    return None


# A byte-order mark (lint refuses one inside a file) and the control characters but tab,
# line feed and carriage return: invisible, and no text a person writes holds them.
_UNREADABLE = re.compile("[\ufeff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def refuse_harm(text: str, nothing: str) -> None:
    """Refuse text given to a command (a fact, a thread, a reason) that holds a harm;
    `nothing`: what the refusal leaves undone, as the command says it."""
    harm = first_harm(text)
    if harm is None:
        return
    if harm.secret:
        raise SecretError(f"the text holds {harm.detail}: keep secrets out of memory; {nothing}")
    raise MdmemError(
        f"the text holds {harm.detail}: a memory must read the same to a person and to an "
        f"agent, so reword it; {nothing}"
    )
