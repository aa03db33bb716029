"""`mdmem init` and git: the pre-commit hook beside one that was there, the merge drivers
that name their interpreter, and a real `git merge` through them without `mdmem` on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mdmem.adopting import init as init_module
from mdmem.adopting.hooks import CHAINED, MARKER
from mdmem.adopting.init import driver_config
from mdmem.adopting.launch import command_line, interpreter_of
from mdmem.adopting.summary import report_lines
from mdmem.store.load import load
from tests.helpers import GIT_ENV, git

# A PATH with git and the shell's tools but no mdmem: the virtual environment left out.
BARE_PATH = os.pathsep.join(["/usr/bin", "/bin"])
FOOTER = "id: {id} | created: 2026-05-03 | last_used: 2026-05-03 | uses: 1 | tier: working"
FACT = "- {text}\n  <!-- " + FOOTER + " -->\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "my project"  # a space in every path git hands the driver
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    return root


def python_with_spaces(tmp_path: Path) -> str:
    """An interpreter whose path has spaces and a quote: a script that runs this one."""
    folder = tmp_path / "an env's bin"
    folder.mkdir()
    wrapper = folder / "py thon"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', "utf-8")
    wrapper.chmod(0o755)
    return str(wrapper)


def test_the_launch_line_quotes_the_interpreter() -> None:
    line = command_line("/opt/my env/it's/python", "merge-driver %O %A %B %P")
    assert line.startswith("if '/opt/my env/it'\"'\"'s/python' -c 'import mdmem'")
    assert interpreter_of(line) == "/opt/my env/it's/python"
    assert interpreter_of("mdmem merge-driver %O %A %B %P") is None


@pytest.mark.parametrize(
    ("python", "path", "runs"),
    [
        pytest.param("interpreter", BARE_PATH, True, id="the-interpreter-without-mdmem-on-path"),
        pytest.param("/gone/python", "venv", True, id="mdmem-on-path-when-the-interpreter-is-gone"),
        pytest.param("/gone/python", BARE_PATH, False, id="neither"),
    ],
)
def test_the_launch_line_runs_mdmem(tmp_path: Path, python: str, path: str, runs: bool) -> None:
    interpreter = python_with_spaces(tmp_path) if python == "interpreter" else python
    search = str(Path(sys.executable).parent) + os.pathsep + BARE_PATH if path == "venv" else path
    assert (shutil.which("mdmem", path=search) is not None) is (path == "venv")
    line = command_line(interpreter, "--version")
    done = subprocess.run(
        ["/bin/sh", "-c", line], env={"PATH": search}, capture_output=True, text=True
    )
    assert (done.returncode == 0) is runs, done.stderr
    assert ("version" in done.stdout) is runs


def commit_all(repo: Path, message: str, env: dict[str, str] | None = None) -> None:
    git_env = env or {**os.environ, **GIT_ENV}
    for args in (["add", "-A"], ["commit", "-q", "-m", message]):
        done = subprocess.run(["git", *args], cwd=repo, env=git_env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def add_at_end_of_key_decisions(repo: Path, fact_id: str, text: str) -> None:
    path = repo / "memory" / "continuity.md"
    new = FACT.format(id=fact_id, text=text)
    path.write_text(
        path.read_text("utf-8").replace("## Key Decisions\n", f"## Key Decisions\n\n{new}", 1),
        "utf-8",
    )


@pytest.mark.parametrize("drivers", [True, False], ids=["named-interpreter", "plain-mdmem"])
def test_a_merge_of_two_branches_memories_without_mdmem_on_path(
    tmp_path: Path, repo: Path, drivers: bool
) -> None:
    init_module.init(repo, python=python_with_spaces(tmp_path))
    if not drivers:  # the driver line init wrote before it named the interpreter
        git(repo, "config", "--local", "merge.mdmem.driver", "mdmem merge-driver %O %A %B %P")
    env = {**os.environ, **GIT_ENV, "PATH": BARE_PATH}
    assert shutil.which("mdmem", path=BARE_PATH) is None
    commit_all(repo, "mdmem init", env)
    git(repo, "checkout", "-q", "-b", "web")
    add_at_end_of_key_decisions(repo, "web-uses-vite", "The web client builds with Vite.")
    commit_all(repo, "web fact", env)
    git(repo, "checkout", "-q", "main")
    add_at_end_of_key_decisions(repo, "api-uses-hono", "The API is served by Hono.")
    commit_all(repo, "api fact", env)
    merged = subprocess.run(
        ["git", "merge", "-q", "--no-edit", "web"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    text = (repo / "memory" / "continuity.md").read_text("utf-8")
    if not drivers:
        assert merged.returncode != 0 and "mdmem: not found" in merged.stderr
        assert "web-uses-vite" not in text  # the other side's fact is not in the file
        return
    assert merged.returncode == 0, merged.stderr
    assert "<<<<<<<" not in text
    ids = [fact.id for fact in load(repo / "memory").continuity.facts]
    assert sorted(ids) == ["api-uses-hono", "confirm-project-vision", "web-uses-vite"]


def test_a_second_interpreter_takes_over_the_drivers_and_the_hook(
    tmp_path: Path, repo: Path
) -> None:
    first = python_with_spaces(tmp_path)
    init_module.init(repo, python=first)
    assert (
        git(repo, "config", "--local", "merge.mdmem.driver").strip()
        == dict(driver_config(first))["merge.mdmem.driver"]
    )
    result = init_module.init(repo, python=sys.executable)
    assert result.created == () and result.hook is not None and result.hook.action == "update"
    assert result.configured == ("merge.mdmem.driver", "merge.mdmem-archive.driver")
    assert (result.python, result.replaced) == (sys.executable, first)
    lines = report_lines(result)
    assert "set git config merge.mdmem.driver" in lines
    assert f"The merge drivers now run {sys.executable}, not {first}." in lines
    assert "updated the pre-commit hook .git/hooks/pre-commit" in lines
    assert sys.executable in (repo / ".git" / "hooks" / "pre-commit").read_text("utf-8")
    assert init_module.init(repo, python=sys.executable).changed is False


def test_a_hook_that_was_there_is_kept_and_runs_first(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    foreign = '#!/bin/sh\necho foreign >> "$(git rev-parse --git-dir)/ran"\n'
    (hooks / "pre-commit").write_text(foreign, "utf-8")
    (hooks / "pre-commit").chmod(0o755)
    result = init_module.init(repo)
    assert result.hook is not None and result.hook.action == "chain"
    assert result.hook.chained == f".git/hooks/{CHAINED}"
    assert (hooks / CHAINED).read_text("utf-8") == foreign
    assert MARKER in (hooks / "pre-commit").read_text("utf-8")
    commit_all(repo, "mdmem init")
    assert (repo / ".git" / "ran").read_text() == "foreign\n"
    assert init_module.init(repo).changed is False


def test_a_hook_that_cannot_be_chained_is_left_with_a_notice(repo: Path) -> None:
    hooks = repo / ".git" / "hooks"
    for name in ("pre-commit", CHAINED):
        (hooks / name).write_text("#!/bin/sh\nexit 0\n", "utf-8")
    result = init_module.init(repo)
    assert result.hook is None
    (notice,) = result.notices
    assert notice.startswith("pre-commit hook not installed: ") and "already exists" in notice
    assert (hooks / "pre-commit").read_text("utf-8") == "#!/bin/sh\nexit 0\n"
    assert result.created and result.configured  # the rest is done


def test_hooks_kept_in_the_working_tree_are_not_touched(repo: Path) -> None:
    (repo / ".githooks").mkdir()
    (repo / ".githooks" / "pre-commit").write_text("#!/bin/sh\nexit 0\n", "utf-8")
    git(repo, "config", "core.hooksPath", ".githooks")
    result = init_module.init(repo)
    assert result.hook is None
    assert [notice.split(":")[0] for notice in result.notices] == ["pre-commit hook not installed"]
    assert "core.hooksPath puts hooks in .githooks" in result.notices[0]
    assert sorted(path.name for path in (repo / ".githooks").iterdir()) == ["pre-commit"]
