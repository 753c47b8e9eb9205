"""The generated navigation is up to date, and tools/navigation.py writes it right.

If the first test fails, run ``make navigation`` and commit the result.
"""

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools import navigation

README = "# Course\n\n## Contents\n\n<!-- contents:start -->\nold\n<!-- contents:end -->\n\nEnd.\n"


def test_the_course_navigation_is_up_to_date(capsys):
    # The same as `python -m tools.navigation --check`, without starting another Python.
    assert navigation.main(["--check"]) == 0, capsys.readouterr().err


# ---- the tool, on a course in a temporary folder --------------------------------------------


def write_notebook(path, title, paragraph, *, summary=None, extra=()):
    metadata = {"course": {"summary": summary}} if summary else {}
    code = new_code_cell("print(1 + 1)", execution_count=1, outputs=[new_output("stream", text="2\n")])
    cells = [new_markdown_cell(f"# {title}\n\n{paragraph}"), code, *extra, new_markdown_cell("## Summary")]
    nbformat.write(new_notebook(cells=cells, metadata=metadata), path)


@pytest.fixture
def course(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    write_notebook(
        folder / "00_contents.ipynb",
        "Contents",
        "The map.",
        summary="Where everything is.",
        extra=[new_markdown_cell("<!-- contents -->")],
    )
    write_notebook(
        folder / "01_first.ipynb",
        "01 — First idea",
        "Attention sees a set, e.g. a bag of tokens. More text follows.",
    )
    write_notebook(folder / "02_second.ipynb", "Second idea", "Binary counting is a clock.\nSecond line.")
    (folder / "notes.ipynb").write_text("{}")  # not a course notebook: no NN_ prefix
    (tmp_path / "README.md").write_text(README)
    return folder


def run(folder, *args):
    return navigation.main([*args, "--notebooks", str(folder), "--readme", str(folder.parent / "README.md")])


def test_titles_and_summaries(course):
    entries = [navigation.describe(path) for path in navigation.course_notebooks(course)]
    assert [(e.number, e.title, e.summary) for e in entries] == [
        ("00", "Contents", "Where everything is."),  # metadata["course"]["summary"]
        ("01", "First idea", "Attention sees a set, e.g. a bag of tokens."),  # "01 —" dropped; first sentence
        ("02", "Second idea", "Binary counting is a clock."),
    ]


def test_write_then_check(course, capsys):
    assert run(course, "--check") == 1
    assert "01_first.ipynb: navigation cells missing" in capsys.readouterr().err
    assert run(course) == 0
    assert run(course, "--check") == 0

    first = nbformat.read(course / "01_first.ipynb", as_version=4)
    line = "<!-- nav -->\n[← 00 · Contents](00_contents.ipynb) · [02 · Second idea →](02_second.ipynb)"
    assert first.cells[0].source == line and first.cells[-1].source == line
    assert first.cells[0].metadata["slideshow"] == {"slide_type": "skip"}
    assert [c.cell_type for c in first.cells] == ["markdown", "markdown", "code", "markdown", "markdown"]
    assert first.cells[2].outputs[0].text == "2\n" and first.cells[2].execution_count == 1
    nbformat.validate(first)

    last = nbformat.read(course / "02_second.ipynb", as_version=4)
    assert last.cells[0].source == (
        "<!-- nav -->\n[← 01 · First idea](01_first.ipynb) · [Contents](00_contents.ipynb)"
    )
    contents = nbformat.read(course / "00_contents.ipynb", as_version=4)
    assert contents.cells[0].source == "<!-- nav -->\n**Contents** · [01 · First idea →](01_first.ipynb)"
    assert contents.cells[3].source == (
        "<!-- contents -->\n"
        "- [01 · First idea](01_first.ipynb): Attention sees a set, e.g. a bag of tokens.\n"
        "- [02 · Second idea](02_second.ipynb): Binary counting is a clock."
    )
    readme = (course.parent / "README.md").read_text()
    assert readme == README.replace(
        "old",
        (
            "- [00 · Contents](notebooks/00_contents.ipynb): Where everything is.\n"
            "- [01 · First idea](notebooks/01_first.ipynb): Attention sees a set, e.g. a bag of tokens.\n"
            "- [02 · Second idea](notebooks/02_second.ipynb): Binary counting is a clock."
        ),
    )


def test_rerun_rewrites_nothing(course):
    run(course)
    before = {path: path.read_bytes() for path in course.parent.rglob("*") if path.is_file()}
    run(course)
    assert before == {path: path.read_bytes() for path in course.parent.rglob("*") if path.is_file()}


def test_a_new_notebook_makes_its_neighbours_stale(course, capsys):
    run(course)
    write_notebook(course / "03_third.ipynb", "Third idea", "Rotations.")
    capsys.readouterr()
    assert run(course, "--check") == 1
    err = capsys.readouterr().err
    for stale in [
        "02_second.ipynb: navigation line at the top is stale",
        "03_third.ipynb: navigation cells",
        "00_contents.ipynb: contents list is stale",
        "README.md: contents list is stale",
    ]:
        assert stale in err
    assert "01_first.ipynb" not in err
    run(course)
    assert run(course, "--check") == 0


def test_a_moved_or_edited_navigation_cell_is_put_back(course):
    run(course)
    path = course / "01_first.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(2, notebook.cells.pop(0))  # the top line dragged down
    notebook.cells[-1].source += " (edited)"
    nbformat.write(notebook, path)
    assert run(course, "--check") == 1
    run(course)
    fixed = nbformat.read(path, as_version=4)
    assert navigation.is_generated(fixed.cells[0], navigation.NAV_MARKER)
    assert sum(navigation.is_generated(c, navigation.NAV_MARKER) for c in fixed.cells) == 2
    assert "(edited)" not in fixed.cells[-1].source


def test_only_the_named_files_are_written(course):
    run(course, str(course / "02_second.ipynb"))

    def top(name):
        return nbformat.read(course / name, as_version=4).cells[0]

    assert navigation.is_generated(top("02_second.ipynb"), navigation.NAV_MARKER)
    assert not navigation.is_generated(top("01_first.ipynb"), navigation.NAV_MARKER)
    assert "old" in (course.parent / "README.md").read_text()


def test_set_summary_changes_only_the_metadata_then_updates(course):
    run(course)
    path = course / "02_second.ipynb"
    before = nbformat.read(path, as_version=4)
    assert run(course, "--set-summary", str(path), "  Bits are\nclocks.  ") == 0
    after = nbformat.read(path, as_version=4)
    assert after.metadata["course"]["summary"] == "Bits are clocks."
    assert after.cells == before.cells
    assert "- [02 · Second idea](02_second.ipynb): Bits are clocks." in (
        nbformat.read(course / "00_contents.ipynb", as_version=4).cells[3].source
    )
    assert run(course, "--check") == 0


def test_missing_readme_markers_and_title_are_errors(course, capsys):
    (course.parent / "README.md").write_text("# No markers\n")
    run(course)
    assert run(course, "--check") == 1
    assert "markers" in capsys.readouterr().err
    nbformat.write(new_notebook(cells=[new_markdown_cell("no title")]), course / "04_bad.ipynb")
    with pytest.raises(ValueError, match="04_bad.ipynb: no '# ' title"):
        run(course)


def test_a_long_contents_list_is_split_into_slides_that_fit(course):
    for number in range(3, 10):
        write_notebook(course / f"{number:02d}_idea.ipynb", f"Idea {number}", f"Idea number {number}.")
    run(course)
    cells = nbformat.read(course / "00_contents.ipynb", as_version=4).cells
    lists = [cell for cell in cells if navigation.is_generated(cell, navigation.CONTENTS_MARKER)]
    assert [cell.source.count("\n- [") + cell.source.startswith("- [") for cell in lists] == [4, 4, 1]
    assert [cell.metadata.get("slideshow", {}).get("slide_type") for cell in lists[1:]] == ["subslide"] * 2
    assert "09_idea.ipynb" in lists[-1].source and "00_contents" not in lists[0].source
    assert run(course, "--check") == 0
    (course / "09_idea.ipynb").unlink()  # one notebook fewer: the third cell goes
    assert run(course, "--check") == 1
    run(course)
    cells = nbformat.read(course / "00_contents.ipynb", as_version=4).cells
    assert sum(navigation.is_generated(cell, navigation.CONTENTS_MARKER) for cell in cells) == 2


def test_the_readme_repeats_the_questions_of_the_contents_notebook(course):
    readme = course.parent / "README.md"
    readme.write_text(README + "\n## Questions\n\n<!-- questions:start -->\n<!-- questions:end -->\n")
    path = course / "00_contents.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(
        2,
        new_markdown_cell(
            "<!-- questions -->\n**Why a circle?** See [01](01_first.ipynb#1.-Idea), [here](#Top) and [web](https://example.org)."
        ),
    )
    nbformat.write(notebook, path)
    assert run(course, "--check") == 1
    run(course)
    text = readme.read_text()
    assert "See [01](notebooks/01_first.ipynb#1.-Idea), [here](notebooks/00_contents.ipynb#Top)" in text
    assert "and [web](https://example.org)." in text
    assert "<!-- questions -->" not in text
    assert run(course, "--check") == 0
    notebook.cells[2].source += " Edited."
    nbformat.write(notebook, path)
    assert run(course, "--check") == 1  # the README copy is now stale


def test_the_series_line_counts_to_the_last_notebook(course, capsys):
    write_notebook(
        course / "01_first.ipynb",
        "01 — First idea",
        "*A course* · notebook 01 of 01\n\nAttention sees a set.",
    )
    run(course)
    assert run(course, "--check") == 0
    write_notebook(course / "03_third.ipynb", "Third idea", "*A course* · notebook 03 of 03\n\nRotations.")
    capsys.readouterr()
    assert run(course, "--check") == 1
    assert "01_first.ipynb: series line of the title slide is stale" in capsys.readouterr().err
    run(course)
    title = nbformat.read(course / "01_first.ipynb", as_version=4).cells[1].source
    assert "· notebook 01 of 03" in title and "Attention sees a set." in title
