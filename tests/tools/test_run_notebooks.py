"""`make outputs` stores a fresh top-to-bottom run and refuses to store a failing one."""

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tools import run_notebooks


def write(path, cells):
    notebook = new_notebook(cells=cells)
    nbformat.write(notebook, path)
    return path


def test_outputs_are_stored_in_order_without_timing(tmp_path):
    path = write(
        tmp_path / "01_demo.ipynb",
        [
            new_markdown_cell("# Demo"),
            new_code_cell("from pathlib import Path\nx = 6 * 7"),
            new_code_cell("print(x, Path.cwd().name)"),
        ],
    )
    assert run_notebooks.main([str(path)]) == 0
    stored = nbformat.read(path, as_version=4)
    code = [cell for cell in stored.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == [1, 2]
    # It ran in the notebook's own folder, like nbval does.
    assert code[1].outputs[0]["text"] == f"42 {tmp_path.name}\n"
    assert "execution" not in code[1].metadata


def test_a_failing_notebook_is_not_written(tmp_path, capsys):
    path = write(tmp_path / "02_broken.ipynb", [new_code_cell("1 / 0")])
    before = path.read_text()
    assert run_notebooks.main([str(path)]) == 1
    assert path.read_text() == before
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_consecutive_prints_are_stored_as_one_output():
    stream = nbformat.v4.new_output
    cell = nbformat.v4.new_code_cell("print('a', end=''); print('b')")
    cell.outputs = [
        stream("stream", name="stdout", text="position 64"),
        stream("stream", name="stdout", text=" with 6 bits\n"),
        stream("stream", name="stderr", text="warn\n"),
        stream("stream", name="stdout", text="next\n"),
    ]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    run_notebooks.merge_streams(notebook)
    assert [(o.name, o.text) for o in notebook.cells[0].outputs] == [
        ("stdout", "position 64 with 6 bits\n"),
        ("stderr", "warn\n"),
        ("stdout", "next\n"),
    ]
