"""The checkers of notebook 12 accept the reference answers and explain typical mistakes."""

import math

import numpy as np

import pe_utils
from pe_utils.exercises import nb12
from tests.exercise_contract import printed_solution_test

EXERCISES = [nb12.mystery_1d, nb12.mystery_grid, nb12.mae_emb_h, nb12.mrope_axis, nb12.nerf_channels]

test_printed_solution_is_accepted = printed_solution_test(EXERCISES)


def test_mystery_1d_is_ddpm_and_each_other_name_is_explained():
    # DDPM written out: ω_k = 10000^(−k/(h−1)), h = 4, [sin | cos]
    t = np.arange(4.0)[:, None]
    omega = 10000.0 ** (-np.arange(4) / 3)
    np.testing.assert_allclose(
        nb12.mystery_table_1d(), np.hstack([np.sin(t * omega), np.cos(t * omega)]), atol=1e-15
    )
    assert nb12.mystery_1d.check("ddpm")
    assert nb12.mystery_1d.check(" DDPM ")
    assert "h − 1" in nb12.mystery_1d.check("marian").message
    assert "cosines first" in nb12.mystery_1d.check("guided_diffusion").message
    assert "interleaved" in nb12.mystery_1d.check("vaswani2017").message
    assert "not one of the words" in nb12.mystery_1d.check("tensorflow").message
    assert not nb12.mystery_1d.check(3)


def test_mystery_grid_is_timm_and_each_other_name_is_explained():
    # timm's default: [sin y | sin x | cos y | cos x], ω_k = 10000^(−k/2)
    omega = 10000.0 ** (-np.arange(2) / 2)
    rows = []
    for y in range(2):
        for x in range(2):
            rows.append(
                np.concatenate([np.sin(y * omega), np.sin(x * omega), np.cos(y * omega), np.cos(x * omega)])
            )
    np.testing.assert_allclose(nb12.mystery_table_grid(), rows, atol=1e-15)
    assert nb12.mystery_grid.check("timm")
    for wrong, words in [("mae", "channels 0–3"), ("big_vision", "block order"), ("mocov3", "all sines")]:
        assert words in nb12.mystery_grid.check(wrong).message


def test_mae_emb_h_value_and_mistakes():
    # token 6 of a 4-wide grid: column 2, row 1; emb_h = [sin(xω_0..3) | cos(xω_0..3)], ω_0 = 1
    assert nb12.mae_emb_h.check(math.cos(2.0))
    assert nb12.mae_emb_h.check(-0.4161)
    assert "row" in nb12.mae_emb_h.check(round(math.cos(1.0), 4)).message
    assert "token index" in nb12.mae_emb_h.check(math.cos(6.0)).message
    assert "sines first" in nb12.mae_emb_h.check(math.sin(2.0)).message
    assert "interleaved" in nb12.mae_emb_h.check(math.sin(0.02)).message
    assert "4 decimals" in nb12.mae_emb_h.check(-0.416).message
    # the sign dropped: cos(2) = −0.41615 < 0, as 2 > π/2
    assert "wrong sign" in nb12.mae_emb_h.check(0.4161).message
    assert "wrong sign" in nb12.mae_emb_h.check(abs(math.cos(2.0))).message


def test_mrope_axis_and_mistakes():
    bands = [16, 24, 24] * 2  # Hugging Face's list repetition
    edges = np.cumsum([0] + bands)
    chunk = int(np.searchsorted(edges, 100, side="right")) - 1
    assert ("time", "height", "width")[chunk % 3] == "height"
    assert nb12.mrope_axis.check("height")
    assert "repeats" in nb12.mrope_axis.check("width").message
    assert "pair 100 − 64 = 36" in nb12.mrope_axis.check("time").message
    assert "not one of the words" in nb12.mrope_axis.check("depth").message


def test_nerf_channels_and_mistakes():
    count = 3 + sum(3 for _ in range(4) for _ in ("sin", "cos"))
    assert nb12.nerf_channels.check(count)
    assert "input itself" in nb12.nerf_channels.check(24).message
    assert "63" in nb12.nerf_channels.check(63).message
    assert "one coordinate" in nb12.nerf_channels.check(9).message
    assert not nb12.nerf_channels.check(27.5)


def test_the_notebooks_own_spellings_are_accepted():
    # the notebook writes "guided-diffusion", "MoCo v3", "big_vision", "the temporal axis", "h", "w"
    for exercise, answers in [
        (nb12.mystery_1d, ["DDPM", " ddpm ", "'ddpm'"]),
        (nb12.mystery_grid, ["timm", "TIMM", "timm (default)", "pytorch-image-models"]),
        (nb12.mrope_axis, ["height", "Height", "h", "H", "height axis"]),
    ]:
        for answer in answers:
            assert exercise.check(answer), (exercise, answer)
    # aliases of the wrong choices get that choice's explanation, not "not one of the words"
    assert "cosines first" in nb12.mystery_1d.check("guided-diffusion").message
    assert "cosines first" in nb12.mystery_1d.check("Guided Diffusion").message
    assert "interleaved" in nb12.mystery_1d.check("Vaswani").message
    assert "all sines" in nb12.mystery_grid.check("MoCo v3").message
    assert "block order" in nb12.mystery_grid.check("big vision").message
    assert "pair 100 − 64 = 36" in nb12.mrope_axis.check("temporal").message
    assert "pair 100 − 64 = 36" in nb12.mrope_axis.check("t").message
    assert "repeats" in nb12.mrope_axis.check("w").message


def test_tensor2tensor_makes_the_same_table_and_is_accepted_with_a_note():
    same = pe_utils.rosetta_encoding("tensor2tensor", np.arange(4.0), 8)
    np.testing.assert_array_equal(same, nb12.mystery_table_1d())
    result = nb12.mystery_1d.check("tensor2tensor")
    assert result and result.message.startswith("Correct!") and "'ddpm'" in result.message
    # a name that is neither a choice nor the same table is still refused, naming the choices
    assert "not one of the words" in nb12.mystery_1d.check("diffusion").message
    assert "not one of the words" in nb12.mystery_1d.check("ddpm, marian").message
