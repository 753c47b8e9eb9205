"""Where things are: the repository's folders and the course's notebooks in order.

The one home of these paths for every tool and test (``from tools.paths import ROOT, course_notebooks``).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"
TEACHING = NOTEBOOKS / "TEACHING.md"
BUILD = ROOT / "_build"  # everything built (slides, site, the browser check's results); git-ignored
#: The course's npm packages (package.json, package-lock.json); ``make setup`` installs node_modules here.
NPM_PACKAGES = ROOT / "tools" / "npm_packages"
NODE_MODULES = NPM_PACKAGES / "node_modules"

#: A course notebook's file name: two digits (the group), an underscore, a slug.
NOTEBOOK_PATTERN = re.compile(r"^(\d\d)_[A-Za-z0-9_]+\.ipynb$")


def course_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebooks of the course in ``folder``, in course order (by their number prefix)."""
    return sorted(path for path in folder.glob("[0-9][0-9]_*.ipynb") if NOTEBOOK_PATTERN.match(path.name))
