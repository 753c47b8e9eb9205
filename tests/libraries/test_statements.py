"""What the course says about a library's current release, held to the release installed.

Where the installed release behaves otherwise than a notebook or the README states, these fail until
the text says so: the versions the README names, the value transformers' ``generate`` puts at padded
slots (notebook 11), and the id a decode step gives a right-padded row (notebook 11).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import checks_transformers as tf
import pytest
from _support import version

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("torch", "transformers", "diffusers", "timm")


def notebook_text(stem: str) -> str:
    path = next((ROOT / "notebooks").glob(f"{stem}_*.ipynb"))
    cells = json.loads(path.read_text())["cells"]
    return "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")


def readme_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.find("## Checked against the real libraries")
    assert start >= 0, "README.md has no section '## Checked against the real libraries'"
    end = text.find("\n## ", start + 3)
    return text[start : end if end > 0 else None]


@pytest.mark.parametrize("library", LIBRARIES)
def test_readme_names_the_installed_versions(library):
    installed = version(library).split("+")[0]
    named = re.findall(rf"\b{library} (\d+\.\d+\.\d+)", readme_section())
    assert named, f"the README's section names no version of {library}"
    assert set(named) == {installed}, (
        f"the README says {library} {sorted(set(named))}, the suite ran {installed}: update the README "
        "(and notebook 00) after moving the pins"
    )
    in_00 = re.findall(rf"\b{library} (\d+\.\d+\.\d+)", " ".join(notebook_text("00").split()))
    assert set(in_00) == {installed}, (
        f"notebook 00 says {library} {sorted(set(in_00))}, the suite ran {installed}: update it"
    )


def test_notebook_11_states_the_padded_slot_value():
    mask, seen = tf._generate("left-padded")
    values = sorted({int(v) for v in seen[0][mask.numpy() == 0]})
    assert len(values) == 1, f"transformers puts several values at padded slots: {values}"
    major = version("transformers").split(".")[0]
    text = " ".join(notebook_text("11").split())
    stated = re.findall(rf"padded (?:value is|slots:) (\d+) in transformers {major}\.x", text)
    assert stated, f"notebook 11 no longer states the value transformers {major}.x puts at padded slots"
    assert set(stated) == {str(values[0])}, (
        f"notebook 11 says transformers {major}.x puts {sorted(set(stated))} at padded slots; "
        f"release {version('transformers')} puts {values[0]}"
    )


def test_notebook_11_states_the_decode_id_rule():
    mask, seen = tf._generate("right-padded")
    last = seen[0][:, -1]
    rule_holds = all((step[:, -1] == last + offset).all() for offset, step in enumerate(seen[1:], start=1))
    text = " ".join(notebook_text("11").split())
    stated = bool(re.search(r"appends the last id plus 1|last id \+ 1", text))
    assert rule_holds == stated, (
        f"transformers {version('transformers')}: a decode step's id is the last id plus 1: {rule_holds}; "
        f"notebook 11 says so: {stated}"
    )
