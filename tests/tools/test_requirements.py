"""requirements.txt pins everything; environment.yml pins the same versions."""

import pytest

from tools import requirements_files
from tools.paths import ROOT


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


# ---- the optional sets: the site's packages (make site/test/check-slides) and make dev's ----------

OPTIONAL = ["requirements-site.txt", "requirements-dev.txt"]


@pytest.mark.parametrize("name", OPTIONAL)
def test_optional_sets_are_pinned_and_agree_with_requirements_txt(name):
    pins = requirements_files.requirement_pins(ROOT / name)
    assert pins, f"{name} pins nothing"
    base = requirements_files.requirement_pins()
    disagree = {
        package: (version, base[package])
        for package, version in pins.items()
        if package in base and base[package] != version
    }
    assert not disagree, f"{name} and requirements.txt pin these differently: {disagree}"
    others = [requirements_files.requirement_pins(ROOT / other) for other in OPTIONAL if other != name]
    for other in others:
        clash = {package for package in pins.keys() & other.keys() if pins[package] != other[package]}
        assert not clash, f"{name} and another optional set pin {clash} differently"


def test_the_site_set_pins_every_package_its_packages_need():
    """Every requirement of every installed package of requirements-site.txt is pinned there or in
    requirements.txt, at a version that satisfies it (what `pip install --no-deps` would need)."""
    from importlib.metadata import PackageNotFoundError, requires

    from packaging.requirements import Requirement

    site = requirements_files.requirement_pins(ROOT / "requirements-site.txt")
    pinned = {**requirements_files.requirement_pins(), **site}
    unmet = []
    for package in site:
        try:
            needed = requires(package) or []
        except PackageNotFoundError:
            pytest.skip(f"{package} is not installed: make site installs requirements-site.txt")
        for line in needed:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            version = pinned.get(requirements_files.normalise(requirement.name))
            if version is None or not requirement.specifier.contains(version, prereleases=True):
                unmet.append(f"{package} needs {line}, pinned: {version}")
    assert not unmet, "\n".join(unmet)
