"""Sphinx configuration of the course's web site (``make site``, tools/site/build.py).

Sphinx + myst-nb + sphinx-book-theme (the engine of Jupyter Book 1), pinned in
requirements-site.txt. The sources are staged by tools/site/build.py into ``_build/site-src/``:
README.md as ``index.md``, the notebooks and TEACHING.md next to it, so every page keeps its old
address (``_build/site/03_the_sinusoidal_formula.html``). Nothing is executed (the stored outputs
are shown) and nothing is fetched: MathJax, vega and the theme's own files are copied into
``_build/site/_static/`` (tools/site/course_site.py).
"""

import sys
from pathlib import Path

# Sphinx reads this file by path: the repository (where the tools package is) goes on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools import navigation  # noqa: E402  (the course's title)
from tools.site import course_site  # noqa: E402  (the course's Sphinx extension: explorers, anchors, MathJax, fonts)

project = navigation.COURSE_TITLE
author = "The course's authors"
copyright = "the course's authors"
root_doc = "index"
extensions = ["myst_nb", "tools.site.course_site"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# Notebooks: shown with their stored outputs, read by the course's reader (explorers as HTML).
nb_execution_mode = "off"
nb_custom_formats = {".ipynb": ["tools.site.course_site.read_notebook", {}]}
nb_merge_streams = True
# Markdown as JupyterLab reads it: $…$ and $$…$$ math, tables, HTML blocks; headings carry
# JupyterLab's anchors (``#6.-Two-layouts,-one-permutation``) so that every link keeps working.
myst_enable_extensions = ["dollarmath", "amsmath", "strikethrough"]
myst_dmath_double_inline = True
myst_heading_anchors = 6
myst_heading_slug_func = "tools.site.course_site.jupyter_slug"
suppress_warnings = ["myst.strikethrough"]

# MathJax 3 from the course's npm package, copied into _static/mathjax/ (never a CDN), with
# JupyterLab 4's TeX settings; on every page, so that the browser check can wait on it.
mathjax_path = course_site.MATHJAX_URL
mathjax3_config = None  # course_site adds MathJax's settings (deck_html.MATHJAX_CONFIG, as the decks)

html_theme = "sphinx_book_theme"
html_title = navigation.COURSE_TITLE
html_static_path = [str(Path(__file__).resolve().parent / "static")]
html_css_files = ["course-site.css"]
html_copy_source = True  # the download button gives the notebook
html_show_sourcelink = False
html_show_search_summary = False  # a summary is fetched from each found page: file:// forbids fetch()
html_last_updated_fmt = None
html_context = {
    "default_mode": "light",  # without it the theme logs "Got invalid theme mode"
    # Sphinx rebuilds every page when its configuration changes, not when an extension's code does:
    # this value changes with the code of tools/site/ and the course's explorer HTML.
    "course_site_code": course_site.code_digest(),
}
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "home_page_in_toc": True,
    "navigation_with_keys": False,
    "show_navbar_depth": 1,
}
