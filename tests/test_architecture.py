"""The architecture as a test: every import of every module, read with `ast` (at module
level and inside functions alike), against what its package may import.

The tables below are docs/ARCHITECTURE.md's, which a test keeps in step with them. The
rule they encode: the core (errors, format, safety, reviewing, linting, merging) imports
no I/O package and no I/O library, but for the few I/O modules named in `IO_MODULES`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "mdmem"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"

CORE = frozenset({"errors", "format", "safety", "reviewing", "linting", "merging"})
IO_PACKAGES = frozenset(
    {
        "store",
        "git",
        "adopting",
        "cli",
        "writing",
        "reading",
        "report",
        "migrating",
        "mcp",
        "mdmem",
        "changes",
    }
)
EVERY = CORE | IO_PACKAGES

# package -> the other packages its modules may import. `mdmem` is the top-level API
# (`mdmem/__init__.py`, `mdmem/__main__.py`); `errors` is `mdmem/errors.py`.
ALLOWED: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "format": frozenset({"errors"}),
    "safety": frozenset({"errors", "format"}),
    "reviewing": frozenset({"errors", "format", "safety"}),
    "linting": frozenset({"errors", "format", "safety", "reviewing"}),
    "merging": frozenset({"errors", "format", "safety", "reviewing"}),
    "store": frozenset({"errors", "format", "safety", "git"}),
    "git": frozenset({"errors"}),
    "adopting": CORE | {"store", "git", "reading", "writing"},
    "cli": EVERY,
    "mdmem": EVERY,
    "writing": CORE | {"store", "git", "reading"},
    "reading": CORE | {"store", "git"},
    "report": CORE | {"store", "git", "reading"},
    "changes": CORE | {"store", "git", "reading"},
    "migrating": CORE | {"store", "git", "writing"},
    "mcp": EVERY - {"cli"},
}

# The I/O edges of core packages: besides what their package may import, they may import
# these packages and the I/O libraries.
IO_MODULES = frozenset(
    {
        "mdmem.reviewing.apply",
        "mdmem.linting.run",
        "mdmem.linting.committed",  # git's record: changed logs, what HEAD holds
        "mdmem.linting.gate",  # the review refused on lint errors
        "mdmem.linting.gone",  # git's list of files, for the paths facts name
        "mdmem.merging.driver",  # merge_files, which git runs
    }
)
IO_EDGE_ALSO = frozenset({"store", "git"})

# Libraries that touch files, processes, git or the terminal: none in the pure core.
IO_LIBRARIES = frozenset(
    {
        "click",
        "filelock",
        "git",  # GitPython
        "multiprocessing",
        "os",
        "shutil",
        "signal",
        "subprocess",
        "tempfile",
    }
)


def module_name(path: Path) -> str:
    """`mdmem.format.footer`; a package's own file keeps its name: `mdmem.format.__init__`."""
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def package_of(module: str) -> str:
    """`mdmem.format.footer` -> `format`; `mdmem.__init__` and `mdmem.__main__` -> `mdmem`."""
    parts = module.split(".")
    return "mdmem" if len(parts) == 1 or parts[1].startswith("__") else parts[1]


def imports(module: str, source: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in `source`, however deep it sits.

    `from mdmem import store` names `mdmem.store`; `from mdmem import load` names the
    top-level API, `mdmem`.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[: -node.level]
                base = ".".join([*parent, *([base] if base else [])])
            if base == "mdmem":
                found += [
                    (node.lineno, f"mdmem.{alias.name}" if alias.name in EVERY else "mdmem")
                    for alias in node.names
                ]
            else:
                found.append((node.lineno, base))
    return found


def violations(module: str, source: str) -> list[str]:
    """What `module` imports against the rules, each naming the import and the rule."""
    package = package_of(module)
    if package not in ALLOWED:
        return [f"{module}: package {package!r} has no row in ALLOWED (and docs/ARCHITECTURE.md)"]
    edge = module in IO_MODULES
    pure = package in CORE and not edge
    allowed = ALLOWED[package] | (IO_EDGE_ALSO if edge else frozenset()) | {package}
    found = []
    for line, name in imports(module, source):
        top = name.split(".")[0]
        if top == "mdmem":
            target = package_of(name)
            if target not in allowed:
                rule = "the core imports no I/O package; " if pure and target in IO_PACKAGES else ""
                found.append(
                    f"{module}:{line} imports {name}: {rule}{package} may import only "
                    f"{', '.join(sorted(allowed - {package}))}"
                )
        elif pure and top in IO_LIBRARIES:
            found.append(f"{module}:{line} imports {name}: the core imports no I/O library")
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_module_imports_only_what_its_package_may(path: Path) -> None:
    found = violations(module_name(path), path.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


def test_io_modules_exist() -> None:
    # A module renamed or split away must take its place in IO_MODULES with it.
    missing = [name for name in IO_MODULES if name not in {module_name(p) for p in MODULES}]
    assert not missing, f"IO_MODULES names modules that are gone: {missing}"


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        pytest.param(
            "mdmem.format.footer",
            "import subprocess\n",
            ["mdmem.format.footer:1 imports subprocess: the core imports no I/O library"],
            id="library_at_module_level",
        ),
        pytest.param(
            "mdmem.linting.facts",
            "def check():\n    from mdmem.store.writer import locked\n",
            [
                "mdmem.linting.facts:2 imports mdmem.store.writer: the core imports no I/O "
                "package; linting may import only errors, format, reviewing, safety"
            ],
            id="package_inside_a_function",
        ),
        pytest.param(
            "mdmem.reviewing.plan",
            "from mdmem import store\nfrom mdmem import load\n",
            [
                "mdmem.reviewing.plan:1 imports mdmem.store: the core imports no I/O "
                "package; reviewing may import only errors, format, safety",
                "mdmem.reviewing.plan:2 imports mdmem: the core imports no I/O package; "
                "reviewing may import only errors, format, safety",
            ],
            id="from_the_top_level_package",
        ),
        pytest.param(
            "mdmem.reviewing.plan",
            "from ..linting import checks\nfrom . import ledger\n",
            [
                "mdmem.reviewing.plan:1 imports mdmem.linting: reviewing may import only "
                "errors, format, safety"
            ],
            id="relative_imports_resolved",
        ),
        pytest.param(
            "mdmem.git.plumbing",
            "import os\nimport git\nfrom mdmem.store.writer import locked\n",
            ["mdmem.git.plumbing:3 imports mdmem.store.writer: git may import only errors"],
            id="io_package_may_use_io_libraries_not_any_package",
        ),
        pytest.param(
            "mdmem.linting.run",
            "import os\nfrom mdmem.store.writer import locked\nfrom mdmem.git import plumbing\n",
            [],
            id="io_module_of_a_core_package",
        ),
        pytest.param(
            "mdmem.merging.driver",
            "import subprocess\nfrom mdmem.adopting.init import init\n",
            [
                "mdmem.merging.driver:2 imports mdmem.adopting.init: merging may import only "
                "errors, format, git, reviewing, safety, store"
            ],
            id="io_module_not_any_package",
        ),
        pytest.param(
            "mdmem.tools.x",
            "",
            ["mdmem.tools.x: package 'tools' has no row in ALLOWED (and docs/ARCHITECTURE.md)"],
            id="unknown_package",
        ),
    ],
)
def test_planted_imports_are_caught(module: str, source: str, expected: list[str]) -> None:
    assert violations(module, source) == expected


# -- docs/ARCHITECTURE.md says the same ------------------------------------------------------


def documented() -> dict[str, frozenset[str]]:
    """package -> may import, from the table's rows (`the core`, `any package but ...`)."""
    table: dict[str, frozenset[str]] = {}
    for row in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"`\w+`", cells[0]):
            continue
        names, _, but = cells[2].partition(" but ")
        allowed = set(re.findall(r"`(\w+)`", names))
        allowed |= EVERY if "any package" in names else set()
        allowed |= CORE if "the core" in names else set()
        table[cells[0].strip("`")] = frozenset(allowed - set(re.findall(r"`(\w+)`", but)))
    return table


def test_architecture_md_table_matches_the_rules() -> None:
    expected = {package: allowed - {package} for package, allowed in ALLOWED.items()}
    assert {package: allowed - {package} for package, allowed in documented().items()} == (expected)


def test_architecture_md_names_the_io_modules() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    for module in IO_MODULES:
        assert "/".join(module.split(".")[1:]) + ".py" in text, module


MOST_LINES_PER_MODULE = 400
MOST_LINES_PER_FUNCTION = 60


def long_functions(source: str) -> list[str]:
    """`name (N lines)` of every function or method longer than the limit."""
    return [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MOST_LINES_PER_FUNCTION
    ]


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_modules_and_functions_stay_short(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MOST_LINES_PER_MODULE
    assert long_functions(source) == []


def test_a_long_function_is_caught() -> None:
    body = "".join(f"    x{number} = {number}\n" for number in range(MOST_LINES_PER_FUNCTION))
    assert long_functions(f"def long():\n{body}") == [f"long ({MOST_LINES_PER_FUNCTION + 1} lines)"]
    assert long_functions("def short():\n    return 1\n") == []
