"""The house: the course's mathematics apart from the machinery, and dependencies one way only.

- ``pe_utils``'s mathematics (every module but ``notebook_helpers/`` and ``exercises/``) imports neither
  the notebook helpers nor the exercise engine nor the toolchain;
- the helpers (``pe_utils/notebook_helpers/``, ``pe_utils/exercises/``) import no toolchain (``tools``);
- only the package's front door (``pe_utils/__init__.py``) reaches into the helpers, for the two
  names every notebook's first cell uses (``setup_notebook``, ``show_figure``);
- each idea of the mathematics has its own test file under tests/maths/, and no module of it is
  longer than one sitting (``MAX_LINES``).
"""

import ast
from pathlib import Path

import pytest

from tools.paths import ROOT

PACKAGE = ROOT / "pe_utils"
HELPERS = ("notebook_helpers", "exercises")  # pe_utils/<these>/ are the machinery, not the mathematics
FRONT_DOOR = PACKAGE / "__init__.py"
MAX_LINES = 500  # one sitting: the longest module of the mathematics today is about 460 lines


def module_name(path: Path) -> str:
    """``pe_utils/training/head.py`` → ``pe_utils.training.head`` (a package is its ``__init__``)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, name: str, is_package: bool) -> set[str]:
    """Every module that ``source`` (the module ``name``) imports, relative imports made absolute."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{alias.name}" for alias in node.names)  # `from . import x`
    return found


def is_helper(name: str) -> bool:
    return any(name == f"pe_utils.{helper}" or name.startswith(f"pe_utils.{helper}.") for helper in HELPERS)


def forbidden(name: str, imports: set[str]) -> set[str]:
    """What module ``name`` imports against the one-way rule."""
    toolchain = {module for module in imports if module == "tools" or module.startswith("tools.")}
    if is_helper(name) or name == "pe_utils":
        return toolchain
    return toolchain | {module for module in imports if is_helper(module)}


def package_modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


@pytest.mark.parametrize("path", package_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_dependencies_go_one_way(path):
    name = module_name(path)
    imports = imported_modules(path.read_text(), name, path.name == "__init__.py")
    assert not forbidden(name, imports), f"{name} imports {sorted(forbidden(name, imports))}"


def test_the_front_door_reaches_the_helpers_for_the_first_cell_only():
    imports = imported_modules(FRONT_DOOR.read_text(), "pe_utils", True)
    helpers = {module for module in imports if is_helper(module)}
    assert helpers == {
        "pe_utils.notebook_helpers",
        "pe_utils.notebook_helpers.setup_notebook",
        "pe_utils.notebook_helpers.figures",
        "pe_utils.notebook_helpers.figures.show_figure",
    }


@pytest.mark.parametrize(
    ("name", "source", "is_package", "breaks"),
    [
        ("pe_utils.rope", "from .notebook_helpers import rounded", False, {"pe_utils.notebook_helpers"}),
        ("pe_utils.training.head", "from ..exercises import nb10", False, {"pe_utils.exercises.nb10"}),
        (
            "pe_utils.training",
            "from ..notebook_helpers.figures import x",
            True,
            {"pe_utils.notebook_helpers.figures"},
        ),
        ("pe_utils.beyond_text", "from .. import notebook_helpers", True, {"pe_utils.notebook_helpers"}),
        ("pe_utils.rope_scaling", "import tools.paths", False, {"tools.paths"}),
        ("pe_utils.notebook_helpers.setup", "from tools import navigation", False, {"tools"}),
        (
            "pe_utils.exercises.nb03",
            "from ..notebook_helpers import figures",
            False,
            set(),
        ),  # helpers may share
        ("pe_utils.rope", "from .encoding import frequencies", False, set()),
    ],
)
def test_the_rule_sees_a_wrong_import(name, source, is_package, breaks):
    # The check above would pass on nothing if imports were misread: planted ones must be found.
    assert forbidden(name, imported_modules(source, name, is_package)) >= breaks
    if not breaks:
        assert not forbidden(name, imported_modules(source, name, is_package))


def maths_ideas() -> list[str]:
    """The mathematics' modules and folders at the top of pe_utils (private ones aside)."""
    ideas = [path.stem for path in PACKAGE.glob("*.py") if not path.name.startswith("_")]
    folders = [path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()]
    return sorted(ideas + [folder for folder in folders if folder not in HELPERS])


@pytest.mark.parametrize("idea", maths_ideas())
def test_each_idea_has_its_tests_under_tests_maths(idea):
    assert sorted((ROOT / "tests" / "maths").glob(f"test_{idea}*.py")), f"no tests/maths/test_{idea}*.py"


def test_no_module_of_the_mathematics_is_longer_than_one_sitting():
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text().splitlines())
        for path in package_modules()
        if not is_helper(module_name(path))
    }
    assert len(lengths) > 20  # the mathematics was found
    assert {path: n for path, n in lengths.items() if n > MAX_LINES} == {}
