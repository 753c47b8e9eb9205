"""tools/sweep_13.py: it trains and tests notebook 10's heads as notebook 13 does, from the same recipe.

The sweep itself (105 seeds, minutes) is not part of `make test`. These tests check that it takes
the recipe, the mean-token score and the formatter from pe_utils, and that on the notebook's five
seeds it prints what notebook 13 prints.
"""

import nbformat
import numpy as np

from pe_utils import notebook_helpers, rope, training
from tools import sweep_13
from tools.paths import ROOT

NB13 = ROOT / "notebooks" / "13_what_models_do_with_position.ipynb"


def test_the_sweep_takes_the_recipe_from_pe_utils():
    assert (sweep_13.V, sweep_13.d, sweep_13.n, sweep_13.k) == training.SIZES
    assert sweep_13.TRAINING is training.TRAINING and sweep_13.training_data is training.training_data
    assert sweep_13.offset_terms is training.offset_terms
    assert sweep_13.mean_range is notebook_helpers.mean_range
    plain, marked = sweep_13.test_sets(start=False), sweep_13.test_sets(start=True)
    for m, (tokens, targets) in training.look_back_test_sets().items():
        np.testing.assert_array_equal(plain[m][0], tokens)
        np.testing.assert_array_equal(plain[m][1], targets)
        np.testing.assert_array_equal(marked[m][0][:, 1:], tokens[:, 1:])
        assert np.all(marked[m][0][:, 0] == sweep_13.START) and np.all(marked[m][1][:, :3] == -1)


def test_cos_sin_coefficients_give_ropes_score():
    q, key = np.random.default_rng(3).normal(size=(2, 8))
    a, b = sweep_13.cos_sin_coefficients(q, key)
    omega = 10000.0 ** (-np.arange(4) / 4)
    for shift in (0, 3, 50):
        expected = rope(q, 2.0) @ rope(key, 2.0 + shift)
        assert np.isclose(a @ np.cos(shift * omega) + b @ np.sin(shift * omega), expected, rtol=1e-12)


def test_on_the_notebooks_five_seeds_the_sweep_prints_what_notebook_13_prints(monkeypatch, capsys):
    monkeypatch.setattr(sweep_13, "SEEDS", range(5))
    sweep_13.section_1()
    printed = capsys.readouterr().out
    cells = nbformat.read(NB13, as_version=4).cells
    stored = "".join(
        output.get("text", "") for cell in cells if cell.cell_type == "code" for output in cell.outputs
    )
    agreement = "same prediction as uniform attention, % of targets: "
    notebook_value = stored.split(agreement)[1].splitlines()[0]  # "48 (45–52)"
    assert f"over seeds and lengths: {notebook_value}\n" in printed
    assert "<s> scores lowest and the own token below the others' mean, seeds of 105: 5\n" in printed
