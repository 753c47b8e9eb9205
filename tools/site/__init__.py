"""The course's web site: Sphinx + myst-nb + sphinx-book-theme (``python -m tools.site.build``)."""
