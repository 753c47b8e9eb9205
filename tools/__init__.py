"""The course's build-and-check toolchain: run each tool from the repository with ``python -m tools.<name>``.

Nothing in ``pe_utils`` imports it (tests/test_import_rules.py). Where things are: ``paths`` (the
repository's folders and the notebooks in course order: the one home of both).

Keeping the notebooks in order
    ``navigation``          the generated navigation, contents list and README list (``make navigation``)
    ``run_notebooks``       re-run notebooks and store their outputs (``make outputs``)
    ``workspace``           copy the notebooks into workspace/ for a learner's own edits (``make workspace``)
    ``requirements_files``  environment.yml from requirements.txt (``make environment``)
    ``notebook_diff``       notebooks as text for ``git diff`` (``make dev``)
Checking them
    ``check_markdown``      every link and every formula of the notebooks and guides
    ``main_line``           the words of each notebook's main line (issue "Main line first")
    ``sweep_seeds``, ``sweep_13``  claims about random draws, re-checked over more seeds
Publishing them, and checking what is published
    ``build_slides``        reveal.js decks (``make slides``), from the HTML export in ``deck_html``
    ``site/``               the course's web site: Sphinx + myst-nb (``make site``)
    ``explorers_web``, ``course_fonts``  the explorers' HTML and the fonts both ship
    ``chromium``            the course's Chromium (unpacked from its npm package) and Node.js
    ``browser_check``       every deck and site page in that browser (``make check-slides``)
    ``browser_record``      its verdict, with a hash of the files it was reached from (``make test`` compares)
Not Python: ``npm_packages/`` (the npm packages and the Node.js scripts of the checks) and
``jupyterlab/`` (the course's JupyterLab settings).
"""
