"""Read the pins of requirements.txt and environment.yml, and write the latter from the former.

``python -m tools.requirements_files``         rewrites environment.yml from requirements.txt
``python -m tools.requirements_files --check`` exits 1 if the two disagree

The test suite runs the same comparison (tests/tools/test_requirements.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from tools.paths import ROOT

REQUIREMENTS = ROOT / "requirements.txt"
ENVIRONMENT = ROOT / "environment.yml"
PYTHON_VERSION = "3.11"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;#]+)$")


def normalise(name: str) -> str:
    """Package names compare case-insensitively, with -, _ and . alike (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins_from_lines(lines: list[str], source: str) -> dict[str, str]:
    """Return {normalised name: version} for every ``name==version`` line.

    Raises ValueError for a package line that is not pinned with ``==``.
    """
    pins: dict[str, str] = {}
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if not text or text.startswith("-e ") or text == "-e .":
            continue
        match = PIN.match(text)
        if match is None:
            raise ValueError(f"{source}: {text!r} is not pinned as name==version")
        pins[normalise(match.group(1))] = match.group(2)
    return pins


def requirement_pins(path: Path = REQUIREMENTS) -> dict[str, str]:
    return pins_from_lines(path.read_text().splitlines(), path.name)


def environment_pins(path: Path = ENVIRONMENT) -> dict[str, str]:
    """The pins listed under ``pip:`` in environment.yml (lines ``      - name==version``)."""
    lines = path.read_text().splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "- pip:")
    except StopIteration as error:
        raise ValueError(f"{path.name}: no '- pip:' section") from error
    section = []
    for line in lines[start + 1 :]:
        if not line.startswith("      - "):
            break
        section.append(line.strip()[2:])
    return pins_from_lines(section, path.name)


def render_environment(pins_text: list[str]) -> str:
    body = "\n".join(f"      - {line}" for line in pins_text)
    return (
        "# conda alternative to `make`: conda env create -f environment.yml\n"
        "# Generated from requirements.txt by `make environment`; do not edit by hand.\n"
        "name: pe-course\n"
        "channels:\n"
        "  - conda-forge\n"
        "dependencies:\n"
        f"  - python={PYTHON_VERSION}\n"
        "  - pip\n"
        "  - pip:\n"
        f"{body}\n"
        "      - -e .\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a mismatch")
    args = parser.parse_args(argv)
    requirement_lines = [
        line.strip()
        for line in REQUIREMENTS.read_text().splitlines()
        if PIN.match(line.split("#", 1)[0].strip())
    ]
    if args.check:
        wanted, found = requirement_pins(), environment_pins()
        if wanted != found:
            differ = sorted(set(wanted.items()) ^ set(found.items()))
            print(f"environment.yml and requirements.txt disagree: {differ}", file=sys.stderr)
            return 1
        print("environment.yml matches requirements.txt")
        return 0
    ENVIRONMENT.write_text(render_environment(requirement_lines))
    print(f"wrote {ENVIRONMENT.name} from {REQUIREMENTS.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
