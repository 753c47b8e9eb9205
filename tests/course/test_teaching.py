"""TEACHING.md's class plan names exercises that exist, and every exercise has a place in it."""

import re

from tests.exercise_contract import discover_exercises
from tools.paths import TEACHING, course_notebooks


def named_exercises() -> set[str]:
    return set(re.findall(r"`(nb\d\d\.[a-z0-9_]+)`", TEACHING.read_text(encoding="utf-8")))


def test_every_exercise_named_in_the_plan_exists_and_every_exercise_is_planned():
    existing = set(discover_exercises())
    named = {name for name in named_exercises() if not name.endswith((".hint", ".solution", ".check"))}
    assert named - existing == set(), f"TEACHING.md names unknown exercises: {sorted(named - existing)}"
    assert existing - named == set(), f"exercises missing from TEACHING.md's plan: {sorted(existing - named)}"


def test_the_plan_covers_every_notebook():
    text = TEACHING.read_text(encoding="utf-8")
    notebooks = [path.name[:2] for path in course_notebooks()]
    plan = "\n".join(line for line in text.splitlines() if line.startswith("| 0:") or line.startswith("| 1:"))
    missing = [number for number in notebooks if f"| {number} " not in plan]
    assert not missing, f"notebooks with no place in a session of TEACHING.md: {missing}"
