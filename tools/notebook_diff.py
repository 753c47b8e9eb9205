"""A notebook as text for `git diff` (make dev registers it as the textconv of *.ipynb).

``python -m tools.notebook_diff NOTEBOOK.ipynb``   prints the notebook as jupytext's py:percent

Every code cell is followed by its outputs as a ``# %% [raw]`` block: stream text and
``text/plain`` as they are, and each image (PNG, also inside an ``<img>`` of ``text/html``) as one
line with its size in pixels and a hash of its pixels, never its base64. A commit that changes a
figure shows as that line changing; one that only re-stores the same outputs (even re-encoded)
shows nothing. To see old and new figures side by side: ``nbdiff-web`` (make dev).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import sys

import jupytext
import nbformat
from nbformat.v4 import new_raw_cell

_DATA_URI = re.compile(r"data:(image/[a-z+]+);base64,([A-Za-z0-9+/=\s]+)")


def image_line(mime: str, data: str) -> str:
    """One line that stands for an image: its type, size in pixels and a hash of its pixels.

    The same picture gives the same line, however its file was encoded (a figure stored again
    with other PNG settings shows no change); a file Pillow cannot read is hashed as bytes.
    """
    raw = base64.b64decode("".join(data.split()))
    try:
        from PIL import Image

        with Image.open(io.BytesIO(raw)) as image:
            pixels = hashlib.sha256(f"{image.mode} {image.size}".encode() + image.tobytes()).hexdigest()
            return f"[{mime}, {image.size[0]}x{image.size[1]} px, pixels sha256 {pixels[:12]}]"
    except Exception:  # not an image Pillow reads: its bytes stand for it
        return f"[{mime}, {len(raw)} bytes, sha256 {hashlib.sha256(raw).hexdigest()[:12]}]"


def output_text(output: dict) -> str:
    """The text of one output: stream text, an error's name, text/plain, and a line per image."""
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    if output.get("output_type") == "error":
        return f"{output.get('ename')}: {output.get('evalue')}"
    data = output.get("data", {})
    lines = [
        image_line(mime, value)
        for mime, value in data.items()
        if mime.startswith("image/") and not mime.endswith("svg+xml")
    ]
    lines += [image_line(m[1], m[2]) for m in _DATA_URI.finditer("".join(data.get("text/html", "")))]
    return "\n".join(lines + ["".join(data.get("text/plain", ""))]).strip("\n")


def as_text(notebook: nbformat.NotebookNode) -> str:
    """``notebook`` in py:percent, each code cell's outputs after it (see the module docstring)."""
    cells = []
    for cell in notebook.cells:
        cells.append(cell)
        if cell.cell_type == "code" and cell.get("outputs"):
            text = "\n".join(output_text(output) for output in cell.outputs)
            cells.append(new_raw_cell(text, metadata={"outputs": True}))
    shown = nbformat.v4.new_notebook(cells=cells, metadata=notebook.metadata)
    fmt = {
        "extension": ".py",
        "format_name": "percent",
        "notebook_metadata_filter": "-all",
        "cell_metadata_filter": "-all",
    }
    return jupytext.writes(shown, fmt=fmt)


def main(argv: list[str] | None = None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if len(paths) != 1:
        print("usage: notebook_diff.py NOTEBOOK.ipynb", file=sys.stderr)
        return 2
    with open(paths[0], encoding="utf-8") as file:
        sys.stdout.write(as_text(nbformat.read(file, as_version=4)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
