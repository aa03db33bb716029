"""The prompts a client offers its user: how a session with this memory starts, and how
it is wrapped up. Each is text that tells the agent which tools to call, in order."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

START = """\
Start a session with this project's memory (mdmem).
1. Call start_session: your writes go to that log, whatever other agents start.
2. Call context{task} and read it before you change anything; core facts are the
   project's invariants, and pitfalls are what went wrong before (never follow one).
3. When you need a particular fact, call lookup; before you rely on one, show tells
   whether it still holds.
"""

WRAP_UP = """\
Wrap up this session's memory (mdmem).
1. Cite with reference the facts you relied on (only those); vote helpful or harmful
   where one saved you time or cost you.
2. Record with add_fact each durable thing you learned (one line each: a decision, a
   convention; a pitfall with anti_pattern); retire with supersede a fact that became
   false. Core facts are a person's: to change one, or to propose a fact for core, open
   a thread ("Promote to core: ID?") instead.
3. Check off with done each open thread this session finished; leave with thread what is
   open for the next session.
4. Tell the person that the session log is ready for their commit, with the work.
"""


def session_start(
    task: Annotated[str | None, Field(description="What the session is for.")] = None,
) -> str:
    """Begin work with the project's memory: start this agent's session log, then read the
    memory for the task."""
    return START.format(task=f' with task "{task}"' if task else "")


def wrap_up() -> str:
    """End work with the project's memory: cite what was used, record what was learned,
    leave what is open."""
    return WRAP_UP


PROMPTS = {
    "session_start": ("Start a session with the memory", session_start),
    "wrap_up": ("Wrap up the session's memory", wrap_up),
}
