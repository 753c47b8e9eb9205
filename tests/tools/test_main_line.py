"""Main line first: the core notebooks keep the learner's path short and in front.

Each of 00–06 has a main line, then a part headed ``## Going deeper`` for other readers
(CONTRIBUTING, "Main line first"). On the main lines of 01–05 the learner is asked to predict
at least twice and meets a checkpoint exercise before "Check yourself"; no main-line cell of
00–06 checks a claim in silence; and the learner's prose stays within the budgets below.
``python -m tools.main_line`` prints the figures.
"""

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools import main_line
from tools.paths import course_notebooks

CORE = [path for path in course_notebooks() if int(path.name[:2]) <= 6]
#: Words of learner prose on the main lines (issue "Main line first": a student's core path).
BUDGETS = {range(0, 4): 5000, range(0, 6): 9000}


def read(path):
    return nbformat.read(path, as_version=4)


def test_the_core_notebooks_are_all_there():
    assert [path.name[:2] for path in CORE] == [f"{n:02d}" for n in range(7)]


@pytest.mark.parametrize("path", CORE, ids=lambda path: path.name[:2])
def test_a_going_deeper_part_follows_the_main_line(path):
    notebook = read(path)
    cells = notebook.cells
    deeper = main_line.heading_index(cells, main_line.GOING_DEEPER)
    assert deeper is not None, f"{path.name}: no markdown cell starting with '## Going deeper'"
    assert (
        sum(cell.cell_type == "markdown" and cell.source.startswith(main_line.GOING_DEEPER) for cell in cells)
        == 1
    ), f"{path.name}: more than one Going deeper part"
    if path.name.startswith("00"):
        return
    check = main_line.heading_index(cells, "## Check yourself")
    summary = main_line.heading_index(cells, "## Summary")
    assert check is not None and summary is not None, f"{path.name}: no Check yourself or Summary"
    assert check < deeper and summary < deeper, (
        f"{path.name}: Check yourself (cell {check}) and Summary (cell {summary}) come before "
        f"Going deeper (cell {deeper})"
    )


@pytest.mark.parametrize(
    "path", [p for p in CORE if 1 <= int(p.name[:2]) <= 5], ids=lambda path: path.name[:2]
)
def test_the_learner_predicts_and_checks_on_the_main_line(path):
    cells = main_line.main_line(read(path))
    assert main_line.predict_prompts(cells) >= 2, f"{path.name}: fewer than 2 pause-and-predict prompts"
    assert main_line.checkpoint_exercises(cells) >= 1, (
        f"{path.name}: no checkpoint exercise (a `.check(` cell) before '## Check yourself'"
    )


@pytest.mark.parametrize("path", CORE, ids=lambda path: path.name[:2])
def test_no_main_line_check_is_silent(path):
    silent = main_line.silent_checks(main_line.main_line(read(path)))
    assert not silent, (
        f"{path.name}: cells {silent} assert but print nothing; print one short "
        "'✓ …' line where the result is shown"
    )


@pytest.mark.parametrize(
    "notebooks, budget",
    BUDGETS.items(),
    ids=lambda value: f"{value.start:02d}-{value.stop - 1:02d}" if isinstance(value, range) else str(value),
)
def test_the_main_line_prose_stays_within_budget(notebooks, budget):
    words = {path.name[:2]: main_line.learner_words(main_line.main_line(read(path))) for path in CORE}
    total = sum(words[f"{n:02d}"] for n in notebooks)
    assert total <= budget, f"main-line prose of {notebooks}: {total} words > {budget} ({words})"


# ---- the measures themselves, on made-up cells ------------------------------------------------


def teacher_note(text):
    cell = new_markdown_cell(
        f'<details class="teacher-note">\n<summary>Note</summary>\n\n{text}\n\n</details>'
    )
    cell.metadata["slideshow"] = {"slide_type": "notes"}
    return cell


def ran(source, text=None):
    outputs = [new_output("stream", name="stdout", text=text)] if text else []
    return new_code_cell(source, execution_count=1, outputs=outputs)


def test_words_leave_out_notes_navigation_and_comments():
    cells = [
        new_markdown_cell("<!-- nav -->\n[a](b) · [c](d)"),
        new_markdown_cell("one two three"),
        teacher_note("four five six seven"),
        new_markdown_cell("<!-- hidden --> eight nine"),
    ]
    assert main_line.learner_words(cells) == 5


def test_the_main_line_ends_at_going_deeper():
    notebook = new_notebook(
        cells=[
            new_markdown_cell("# T"),
            new_markdown_cell("## Going deeper"),
            new_markdown_cell("## 9. Later"),
        ]
    )
    assert [cell.source for cell in main_line.main_line(notebook)] == ["# T"]
    assert len(main_line.main_line(new_notebook(cells=[new_markdown_cell("# T")]))) == 1


def test_predict_prompts_and_checkpoints_are_counted():
    predict = new_markdown_cell(
        'Guess?\n\n<details class="predict">\n<summary>Answer</summary>\n\nNo.\n\n</details>'
    )
    note = teacher_note('<details class="predict">')
    cells = [
        predict,
        note,
        ran("nb01.x.check(answer)"),
        new_markdown_cell("## Check yourself"),
        ran("nb01.y.check(answer)"),
    ]
    assert main_line.predict_prompts(cells) == 1
    assert main_line.checkpoint_exercises(cells) == 1


def test_a_check_that_prints_nothing_is_silent():
    cells = [
        ran("assert x == 1"),
        ran("assert x == 1\nprint('✓ x is 1')", "✓ x is 1\n"),
        ran("np.testing.assert_allclose(a, b)"),
        ran("y = 2"),
    ]
    assert main_line.silent_checks(cells) == [0, 2]
