"""The course's tests, one folder per part of the code (``make test`` runs all but ``libraries/`` and
the three tests marked ``browser``, which ``make check-slides`` runs).

- ``maths/``             ``pe_utils``'s mathematics: a file per idea (``test_rope.py`` for
  ``pe_utils/rope.py``), with bad input and hypothesis properties (``test_properties.py``)
- ``notebook_helpers/``  ``pe_utils/notebook_helpers/``: setup, figures, reporting, the explorers
- ``exercises/``         ``pe_utils/exercises/``: the engine, what every exercise does, each notebook's
- ``tools/``             ``tools/``: navigation, links and formulas, the site, the decks, the browser
  checker and its record, the seed sweeps, the requirements
- ``course/``            the notebooks as a learner, a teacher and CI meet them: stored outputs,
  figures, the teacher's guide, a real JupyterLab, every deck and site page in a real browser
  (``make check-slides``; ``make test`` checks its record, ``course/browser_check_record.json``)
- ``libraries/``         ``make test-libraries``: pe_utils beside torch, transformers, diffusers and timm
- ``test_import_rules.py``  the mathematics imports no helper, the helpers no toolchain
- ``conftest.py`` (hypothesis settings, the order files start in), ``strategies.py`` (shared
  hypothesis strategies), ``exercise_contract.py`` (what an exercise must do)

The notebooks themselves run under nbval (``pytest notebooks``) with ``nbval_sanitize.cfg``.
"""
