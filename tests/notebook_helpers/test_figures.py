"""The course's figure functions draw what they say and label axes in its notation."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import pe_utils as pu
from pe_utils.notebook_helpers import figures


def test_course_style_is_seaborns_theme_without_importing_it():
    import matplotlib as mpl
    import seaborn as sns
    from matplotlib.colors import to_rgb

    codes = "bgrmyck"
    with mpl.rc_context():
        mpl.rcdefaults()
        defaults = dict(mpl.rcParams)
        sns.set_theme(context="notebook", style="whitegrid", palette=figures.PALETTE)
        themed, themed_codes = dict(mpl.rcParams), [to_rgb(code) for code in codes]
        mpl.rcdefaults()
        sns.set_color_codes("reset")  # matplotlib's own meanings of b, g, r, ...
        figures.use_course_style()
        course, course_codes = dict(mpl.rcParams), [to_rgb(code) for code in codes]
    assert course_codes == themed_codes, "one-letter colours differ from seaborn's"
    changed = {key for key in themed if themed[key] != defaults[key]} - {"image.cmap", "axes.prop_cycle"}
    assert changed == set(figures.SEABORN_THEME), "seaborn's theme changes other settings"
    # The course's sizes override seaborn's title and label sizes; everything else is seaborn's.
    own = {"axes.titlesize", "axes.labelsize"}
    assert {key: course[key] for key in changed - own} == {key: themed[key] for key in changed - own}
    assert [to_rgb(c) for c in course["axes.prop_cycle"].by_key()["color"]] == [
        to_rgb(c) for c in themed["axes.prop_cycle"].by_key()["color"]
    ]
    assert list(figures.COLORBLIND_HEX) == sns.color_palette(figures.PALETTE).as_hex()


def test_style_sets_the_course_resolution():
    figures.use_course_style()
    assert plt.rcParams["figure.dpi"] == 80
    assert plt.rcParams["image.cmap"] == figures.SEQUENTIAL_CMAP


def test_heatmap_shows_the_table_on_a_symmetric_diverging_scale():
    table = pu.sinusoidal_pe(16, 8)
    ax = figures.plot_table_heatmap(table)
    image = ax.get_images()[0]
    np.testing.assert_array_equal(image.get_array(), table)
    assert image.get_clim() == (-1, 1)
    assert image.get_cmap().name == figures.DIVERGING_CMAP
    assert ax.get_ylabel() == "position p"


def test_waves_draw_one_line_per_dimension():
    table = pu.sinusoidal_pe(40, 8)
    fig, ax = plt.subplots()
    returned = figures.plot_waves(table, [0, 3], ax=ax)
    assert returned is ax
    lines = ax.get_lines()
    assert len(lines) == 2
    np.testing.assert_array_equal(lines[1].get_ydata(), table[:, 3])
    assert "cos" in lines[1].get_label() and "sin" in lines[0].get_label()
    assert ax.get_xlabel() == "position p"


def test_similarity_matrix_and_profile():
    table = pu.sinusoidal_pe(12, 8)
    gram = table @ table.T
    ax = figures.plot_similarity_matrix(gram)
    assert ax.get_images()[0].get_clim() == (-4.0, 4.0)  # |PE(p)·PE(q)| ≤ d/2 = 4, reached at p = q
    ks = np.arange(-10, 11)
    profiles = [pu.similarity_profile(ks, 8), pu.similarity_profile(ks, 16)]
    ax = figures.plot_offset_profile(ks, profiles, labels=["d=8", "d=16"])
    assert len(ax.get_lines()) == 2
    assert ax.get_xlabel() == "offset k = q − p"


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: figures.plot_table_heatmap(np.ones(3)), "table"),
        (lambda: figures.plot_waves(np.ones((3, 4)), [4]), "dims"),
        (lambda: figures.plot_similarity_matrix(np.ones((2, 3))), "gram"),
        (lambda: figures.plot_offset_profile(np.arange(3), np.ones(4)), "profiles"),
        (lambda: figures.plot_offset_profile(np.arange(3), np.ones(3), labels=["a", "b"]), "labels"),
        (lambda: figures.plot_waves(np.ones((3, 4)), [1.5]), "dims"),
        (lambda: figures.plot_waves(np.ones((3, 4)), [0], positions=[0, 1]), "positions"),
        (lambda: figures.plot_table_heatmap(np.full((2, 2), np.nan)), "table"),
        (lambda: figures.plot_offset_profile(np.ones((2, 2)), np.ones((2, 2))), "offsets"),
        (lambda: figures.plot_offset_profile(np.arange(2), np.ones((1, 1, 2))), "profiles"),
    ],
)
def test_figures_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: figures.plot_waves(np.ones((3, 4)), 1), "dims"),
        (lambda: figures.plot_table_heatmap([["a", "b"]]), "table"),
        (lambda: figures.plot_similarity_matrix(np.ones((2, 2), dtype=bool)), "gram"),
    ],
)
def test_figures_reject_wrong_types(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_waves_against_given_positions():
    p = np.linspace(0.0, 10.0, 50)
    table = np.column_stack([np.sin(p), np.cos(p)])  # d = 2: [sin p, cos p]
    ax = figures.plot_waves(table, [0, 1], positions=p)
    np.testing.assert_array_equal(ax.get_lines()[0].get_xdata(), p)
    np.testing.assert_array_equal(ax.get_lines()[1].get_ydata(), np.cos(p))


def test_course_picture_draws_the_table_and_equal_arcs():
    """Notebook 00's figure: the table on the left; on the right every arrow turns k·ω_i."""
    fig = figures.plot_course_picture(n=20, d_model=8, k=2, starts=(1, 9, 15), pair=1)
    left, right = fig.axes
    p = np.arange(20)[:, None]
    omega = 10000.0 ** (-np.arange(0, 8, 2) / 8)  # ω_i = base^(−2i/d), written out
    expected = np.empty((20, 8))
    expected[:, 0::2], expected[:, 1::2] = np.sin(p * omega), np.cos(p * omega)
    np.testing.assert_allclose(left.get_images()[0].get_array(), expected, atol=1e-12)
    # one outline per row p and p + k, plus the two outlines (white, dashed) of pair 1's columns
    rows = [patch.get_y() + 0.5 for patch in left.patches if patch.get_width() == 8]
    assert sorted(rows) == [1, 3, 9, 11, 15, 17]
    assert [patch.get_x() for patch in left.patches if patch.get_width() == 2] == [1.5, 1.5]
    angles = p[:, 0] * omega[1]
    points = right.collections[0].get_offsets()
    np.testing.assert_allclose(points, np.column_stack([np.cos(angles), np.sin(angles)]), atol=1e-12)
    arrows = [text for text in right.texts if text.arrow_patch is not None]
    assert len(arrows) == 3
    for arrow in arrows:
        (x1, y1), (x0, y0) = arrow.xy, arrow.xyann
        turn = np.mod(np.arctan2(y1, x1) - np.arctan2(y0, x0), 2 * np.pi)
        assert turn == pytest.approx(2 * omega[1])  # the same arc k·ω_1 from every start
    assert right.get_aspect() == 1.0
    plt.close(fig)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"starts": (30,)}, ValueError, "starts"),
        ({"starts": (22,)}, ValueError, "starts"),  # 22 + k = 25 ≥ n = 24
        ({"starts": (-1,)}, ValueError, "starts"),
        ({"starts": ()}, TypeError, "starts"),
        ({"starts": 3}, TypeError, "starts"),
        ({"pair": 8}, ValueError, "pair"),
        ({"k": 0}, ValueError, "k"),
        ({"d_model": 7}, ValueError, "d_model"),
        ({"n": 2.5}, TypeError, "n"),
    ],
)
def test_course_picture_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        figures.plot_course_picture(**kwargs)


def test_setup_notebook_seeds_and_sets_printing():
    rng = pu.setup_notebook(seed=7)
    assert rng.integers(1000) == np.random.default_rng(7).integers(1000)
    assert np.get_printoptions()["precision"] == 4
    np.set_printoptions()  # restore numpy's defaults for other tests
