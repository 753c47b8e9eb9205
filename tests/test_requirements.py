"""requirements.txt pins everything; environment.yml pins the same versions."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import requirements_files  # noqa: E402


def test_every_requirement_is_pinned_exactly():
    pins = requirements_files.requirement_pins()
    for needed in ["jupyterlab", "numpy", "matplotlib", "seaborn", "nbval", "pytest", "hypothesis"]:
        assert needed in pins, f"{needed} missing from requirements.txt"
    assert "-e ." in (ROOT / "requirements.txt").read_text().splitlines()


def test_environment_yml_pins_the_same_versions():
    assert requirements_files.environment_pins() == requirements_files.requirement_pins()


def test_unpinned_lines_are_refused():
    with pytest.raises(ValueError, match="numpy>=2"):
        requirements_files.pins_from_lines(["numpy>=2"], "requirements.txt")


def test_a_version_drift_is_detected(tmp_path):
    env = tmp_path / "environment.yml"
    env.write_text(requirements_files.render_environment(["numpy==1.0.0"]))
    assert requirements_files.environment_pins(env) == {"numpy": "1.0.0"}
    assert requirements_files.environment_pins(env) != requirements_files.requirement_pins()
