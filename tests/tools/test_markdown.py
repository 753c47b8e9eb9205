"""Links resolve and formulas render: every markdown cell of every notebook, README and CONTRIBUTING.

The LaTeX check renders every formula with MathJax 3 (tools/npm_packages, installed by
``make test``) in one Node.js process; the checker itself is tested on formulas known to
be good and known to be bad.
"""

import nbformat
import pytest

from tools import check_markdown

NOTEBOOK_MARKDOWN = list(check_markdown.notebook_markdown())
DOCUMENTS = list(check_markdown.document_markdown())


# ---- the course's own markdown -------------------------------------------------------------


def test_every_relative_link_and_image_resolves():
    problems = [
        problem for text in NOTEBOOK_MARKDOWN + DOCUMENTS for problem in check_markdown.broken_links(text)
    ]
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_every_formula_renders_in_mathjax():
    problems = check_markdown.math_problems(NOTEBOOK_MARKDOWN)
    assert not problems, "LaTeX that MathJax 3 cannot render:\n" + "\n".join(problems)


def test_the_course_has_formulas_to_check():
    formulas = [f for text in NOTEBOOK_MARKDOWN for f in check_markdown.extract_math(text.text)[0]]
    assert len(formulas) >= 5


# ---- the checker, on known good and bad input -----------------------------------------------


GOOD_LATEX = [
    check_markdown.Formula(r"\omega_i = \text{base}^{-2i/d}", display=False),
    check_markdown.Formula(r"\mathrm{PE}(p)_{2i} = \sin(p\,\omega_i)", display=True),
    check_markdown.Formula(
        r"\begin{pmatrix} \cos\theta & \sin\theta \\ -\sin\theta & \cos\theta \end{pmatrix}", display=True
    ),
    check_markdown.Formula(r"\begin{aligned} a &= b \\ c &= d \end{aligned}", display=True),
    check_markdown.Formula(r"\lVert x \rVert^2 = \tfrac{d}{2}", display=False),
]
BAD_LATEX = [
    (r"\frac{1}{", "Missing close brace"),
    (r"\unknownmacro x", "Undefined control sequence"),
    (r"x^{2", "missing close brace"),
    (r"\begin{foo} x \end{foo}", "Unknown environment"),
    (r"\left( x", "Extra \\left"),
    (r"a & b", "Misplaced &"),
]


@pytest.fixture(scope="module")
def rendered():
    """What MathJax answers for every good and bad formula below: one Node.js process for all."""
    formulas = GOOD_LATEX + [check_markdown.Formula(tex, display=False) for tex, _ in BAD_LATEX]
    return dict(zip(formulas, check_markdown.render_errors(formulas), strict=True))


def test_good_latex_renders(rendered):
    assert [rendered[formula] for formula in GOOD_LATEX] == [None] * len(GOOD_LATEX)


@pytest.mark.parametrize(("tex", "message"), BAD_LATEX)
def test_bad_latex_is_reported(rendered, tex, message):
    error = rendered[check_markdown.Formula(tex, display=False)]
    assert error is not None and message.lower() in error.lower(), error


def test_math_is_found_outside_code_and_escaped_dollars():
    text = (
        "Costs \\$5. Inline $a_1$, display $$b$$, \\(c\\), \\[d\\],\n"
        "\\begin{align} e &= f \\end{align} and `$not math$`.\n"
        "```python\nx = '$not math either$'\n```\n"
    )
    formulas, problems = check_markdown.extract_math(text)
    assert [(f.tex, f.display) for f in formulas] == [
        ("a_1", False),
        ("b", True),
        ("c", False),
        ("d", True),
        ("\\begin{align} e &= f \\end{align}", True),
    ]
    assert problems == []


def test_an_unclosed_dollar_is_reported():
    formulas, problems = check_markdown.extract_math("It costs $5.\n\nNothing closes it.", "cell 3")
    assert formulas == []
    assert problems and "cell 3" in problems[0] and "unclosed $" in problems[0]


def test_links_are_found_in_markdown_tables_and_html_but_not_code_or_math():
    text = (
        '[a](a.ipynb) ![b](img/b.png) <img src="c.png"> `[no](x.md)` $[n](y.md)$\n\n'
        "| h |\n|---|\n| [t](t.md) |\n"
    )
    assert check_markdown.link_targets(text) == ["a.ipynb", "img/b.png", "c.png", "t.md"]


def test_broken_and_escaping_links_are_reported(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Title\n\n## section")]
    nbformat.write(notebook, notebooks / "01_a.ipynb")
    (tmp_path / "README.md").write_text("")
    text = (
        "[ok](01_a.ipynb#section) [web](https://example.org) [here](#top) "
        "[missing](02_b.ipynb) [up](../README.md) [abs](/etc/passwd) [space](01%5Fa.ipynb)"
    )
    markdown = check_markdown.Markdown(text, "cell 0", notebooks)
    problems = check_markdown.broken_links(markdown, notebooks)
    assert len(problems) == 3, problems
    assert "'02_b.ipynb' does not resolve" in problems[0]
    assert "leaves the notebooks folder" in problems[1]
    assert "absolute link" in problems[2]
    readme = check_markdown.Markdown("[nb](notebooks/01_a.ipynb)", "README.md", tmp_path, is_notebook=False)
    assert check_markdown.broken_links(readme, notebooks) == []


def test_anchors_must_name_a_heading_both_jupyterlab_and_the_site_can_find(tmp_path):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# 03 — Title\n\n## 5. Properties, each checked"),
        nbformat.v4.new_markdown_cell("```python\n# not a heading\n```\n### Why $T_k$?\n\n## Why 2π"),
    ]
    nbformat.write(notebook, notebooks / "03_a.ipynb")
    (tmp_path / "README.md").write_text("# Course\n\n## Questions learners ask\n")
    good = "[a](03_a.ipynb#5.-Properties,-each-checked) [b](../README.md#questions-learners-ask)"
    assert check_markdown.broken_links(check_markdown.Markdown(good, "c", notebooks), tmp_path) == []
    bad = (
        "[typo](03_a.ipynb#5.-Properties) [code](03_a.ipynb#not-a-heading) "
        "[math](03_a.ipynb#Why-%24T_k%24?) [greek](03_a.ipynb#Why-2π) [self](#nowhere)"
    )
    markdown = check_markdown.Markdown(bad, "c", notebooks, source=notebooks / "03_a.ipynb")
    problems = check_markdown.broken_links(markdown, notebooks)
    assert len(problems) == 5, problems
    assert "no heading with id '5.-Properties'" in problems[0]
    assert "no heading with id 'not-a-heading'" in problems[1]
    assert "math" in problems[2]
    assert "encodes this id unlike JupyterLab" in problems[3]
    assert "'nowhere'" in problems[4]
