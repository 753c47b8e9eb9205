"""requirements-libraries.txt (the environment of `make test-libraries`) pins everything, and agrees with
requirements.txt on every package both pin. It never enters requirements.txt or environment.yml."""

from tools import requirements_files
from tools.paths import ROOT

LIBRARIES = ROOT / "requirements-libraries.txt"


def library_pins() -> dict[str, str]:
    return requirements_files.pins_from_lines(LIBRARIES.read_text().splitlines(), LIBRARIES.name)


def test_the_libraries_are_pinned():
    pins = library_pins()
    for needed in ["torch", "transformers", "diffusers", "timm", "numpy", "pytest", "hypothesis"]:
        assert needed in pins, f"{needed} missing from {LIBRARIES.name}"


def test_shared_packages_have_the_same_versions():
    course, libraries = requirements_files.requirement_pins(), library_pins()
    differ = {
        name: (course[name], libraries[name])
        for name in course.keys() & libraries.keys()
        if course[name] != libraries[name]
    }
    assert not differ, f"requirements.txt and {LIBRARIES.name} pin these differently: {differ}"


def test_the_main_environment_stays_without_torch():
    assert "torch" not in requirements_files.requirement_pins()
    assert "torch" not in requirements_files.environment_pins()
