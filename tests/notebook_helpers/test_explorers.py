"""The interactive explorers (pe_utils.notebook_helpers.explorers): valid Vega-Lite v5, described,
with sliders, and computing the course's own numbers.

The numbers are checked where they are made: each chart is compiled by vega-lite and run by
Vega in Node.js (tools/npm_packages/eval_vega.mjs, no renderer, no network) at two slider
settings, and the data sets it computes are compared with ``sinusoidal_pe``,
``similarity_profile``, ``shift_matrix``, ``wavelengths`` and ``rope_frequencies``, whose
values are computed independently by NumPy here. One Node.js process runs every chart. That each
is drawn, and redrawn as its sliders move, in the course's Chromium is checked by the test marked
``browser``, which `make check-slides` runs.
"""

import html
import json
import re
import subprocess

import jsonschema
import numpy as np
import pytest

import pe_utils
from pe_utils.notebook_helpers import explorers
from pe_utils.rope_scaling import rope_frequencies
from tools import chromium, explorers_web  # Node.js and the course's Chromium; the explorers' HTML
from tools.paths import ROOT

NPM_FOLDER = ROOT / "tools" / "npm_packages"
SCRIPT = NPM_FOLDER / "eval_vega.mjs"
SCHEMA = NPM_FOLDER / "node_modules" / "vega-lite" / "build" / "vega-lite-schema.json"

NODE = [str(chromium.node_executable())]

# A few more slider settings drawn at random (seeded), on the sliders' own grids.
_rng = np.random.default_rng(2026)


def _random(count, **draw):
    return [{name: pick() for name, pick in draw.items()} for _ in range(count)]


def _exponent(low, high):
    return lambda: round(float(_rng.integers(10 * low, 10 * high + 1)) / 10, 1)


# Each explorer at its defaults, and slider settings to evaluate it at: chosen ones (not the
# defaults), then random ones.
CASES = {
    "table": (
        explorers.table_explorer(),
        [{"d": 16, "log10_base": 2.0}, {"d": 128, "log10_base": 4.6}]
        + _random(2, d=lambda: 2 * int(_rng.integers(1, 65)), log10_base=_exponent(1, 5)),
    ),
    "rotation": (
        explorers.rotation_explorer(),
        [{"k": 5, "p": 0, "i": 0}, {"k": -17, "p": 13, "i": 6}]
        + _random(
            3,
            k=lambda: int(_rng.integers(-30, 31)),
            p=lambda: int(_rng.integers(0, 20)),
            i=lambda: int(_rng.integers(0, 8)),
        ),
    ),
    "profile": (
        explorers.profile_explorer(),
        [{"d": 8, "log10_base": 1.5}, {"d": 200, "log10_base": 4.0}]
        + _random(2, d=lambda: 2 * int(_rng.integers(1, 129)), log10_base=_exponent(1, 5)),
    ),
    "wavelength": (
        explorers.wavelength_explorer(),
        [{"log10_base": 2.0, "log2_length": 8}, {"log10_base": 5.7, "log2_length": 15}],
    ),
    "scaling": (
        explorers.scaling_explorer(),
        [
            {"s": 4.0, "rule": "linear"},
            {"s": 16.0, "rule": "ntk"},
            {"s": 2.5, "rule": "yarn"},
            {"s": 32.0, "rule": "llama3"},
        ]
        + [{"s": float(_rng.integers(2, 65)) / 2, "rule": rule} for rule in explorers.SCALING_RULES],
    ),
}
SLIDERS = {
    "table": ["d", "log10_base"],
    "rotation": ["k", "p", "i"],
    "profile": ["d", "log10_base"],
    "wavelength": ["log10_base", "log2_length"],
    "scaling": ["s", "rule"],
}
# Notebook 12: patch (2, 5) of an 8 × 8 grid; k_x runs over −2 … 5 and k_y over −5 … 2.
CASES["grid_shift"] = (
    explorers.grid_shift_explorer(),
    [{"kx": 5, "ky": -5, "i": 0}, {"kx": -2, "ky": 2, "i": 15}]
    + _random(
        3,
        kx=lambda: int(_rng.integers(-2, 6)),
        ky=lambda: int(_rng.integers(-5, 3)),
        i=lambda: int(_rng.integers(0, 16)),
    ),
)
SLIDERS["grid_shift"] = ["kx", "ky", "i"]


def require_vega():
    if not (NPM_FOLDER / "node_modules" / "vega" / "package.json").exists() or not SCHEMA.exists():
        pytest.fail("vega and vega-lite are not installed: run `make test` (tools/npm_packages/package.json)")


@pytest.fixture(scope="module")
def runs():
    """Each case's data sets at each of its settings, as computed by Vega; and its warnings."""
    require_vega()
    payload = [{"spec": chart.to_dict(), "settings": settings} for chart, settings in CASES.values()]
    result = subprocess.run(
        NODE + [str(SCRIPT)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=NPM_FOLDER,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(zip(CASES, json.loads(result.stdout), strict=True))


def rows_with(run, *fields):
    """The rows of the one data set of ``run`` whose rows hold all of ``fields``."""
    found = [rows for rows in run.values() if rows and all(field in rows[0] for field in fields)]
    assert found, f"no data set with fields {fields}"
    return found[0]


@pytest.mark.parametrize("name", CASES)
def test_spec_is_valid_vega_lite_v5_with_description_and_sliders(name):
    require_vega()
    chart, _ = CASES[name]
    spec = chart.to_dict()
    jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(spec)
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    assert chart.params == SLIDERS[name]
    assert all("bind" in param and "name" in param["bind"] for param in spec["params"])
    assert len(chart.description.split()) >= 20 and chart.description.endswith(".")
    bundle, metadata = chart._repr_mimebundle_()
    assert metadata == {"application/vnd.vegalite.v5+json": {"embed_options": {"actions": False}}}
    assert set(bundle) == {"application/vnd.vegalite.v5+json", "text/plain"}
    assert bundle["text/plain"] == "[interactive figure] " + chart.description
    assert bundle["application/vnd.vegalite.v5+json"] == spec


@pytest.mark.parametrize("name", CASES)
def test_compiles_without_warnings(runs, name):
    assert runs[name]["warnings"] == []
    assert set(SLIDERS[name]) <= set(runs[name]["signals"])


def test_table_equals_sinusoidal_pe(runs):
    for setting, run in zip(CASES["table"][1], runs["table"]["runs"], strict=True):
        d, base = setting["d"], 10.0 ** setting["log10_base"]
        rows = rows_with(run, "p", "j", "value")
        assert len(rows) == 50 * d
        table = np.full((50, d), np.nan)
        for row in rows:
            table[row["p"], row["j"]] = row["value"]
        np.testing.assert_allclose(table, pe_utils.sinusoidal_pe(50, d, base=base), rtol=0, atol=1e-9)


def test_rotation_image_is_shift_matrix_times_pe(runs):
    d, base = 16, 10000.0
    for setting, run in zip(CASES["rotation"][1], runs["rotation"]["runs"], strict=True):
        k, p, i = setting["k"], setting["p"], setting["i"]
        (row,) = rows_with(run, "sin_p", "cos_p", "sin_image", "cos_image")
        pe_p = pe_utils.sinusoidal_pe(p + 1, d, base=base)[p]
        image = pe_utils.shift_matrix(k, d, base=base) @ pe_p
        np.testing.assert_allclose([row["sin_p"], row["cos_p"]], pe_p[2 * i : 2 * i + 2], atol=1e-12)
        np.testing.assert_allclose([row["sin_image"], row["cos_image"]], image[2 * i : 2 * i + 2], atol=1e-12)
        # Drawn at x = cos, y = sin: the image is the point of position p + k, k·ω_i further on.
        angle = np.arctan2(row["sin_image"], row["cos_image"]) - np.arctan2(row["sin_p"], row["cos_p"])
        turn = k * pe_utils.frequencies(d, base)[i]
        assert abs(np.angle(np.exp(1j * (angle - turn)))) < 1e-9
        orbit = rows_with(run, "q", "x", "y")
        np.testing.assert_allclose(
            [[r["y"], r["x"]] for r in orbit],
            pe_utils.sinusoidal_pe(20, d, base=base)[:, 2 * i : 2 * i + 2],
            atol=1e-12,
        )


def test_profile_equals_similarity_profile(runs):
    for setting, run in zip(CASES["profile"][1], runs["profile"]["runs"], strict=True):
        d, base = setting["d"], 10.0 ** setting["log10_base"]
        rows = sorted(rows_with(run, "k", "f"), key=lambda row: row["k"])
        offsets = np.array([row["k"] for row in rows])
        np.testing.assert_array_equal(offsets, np.arange(-200, 201))
        expected = np.cos(np.multiply.outer(offsets, base ** (-np.arange(0, d, 2) / d))).sum(axis=1)
        np.testing.assert_allclose([row["f"] for row in rows], expected, rtol=0, atol=1e-9)
        np.testing.assert_allclose(expected, pe_utils.similarity_profile(offsets, d, base=base), atol=1e-9)
        (half,) = rows_with(run, "half")
        assert half["half"] == d / 2


def test_wavelengths_equal_pe_utils(runs):
    for setting, run in zip(CASES["wavelength"][1], runs["wavelength"]["runs"], strict=True):
        base, length = 10.0 ** setting["log10_base"], 2 ** setting["log2_length"]
        rows = sorted(rows_with(run, "i", "wavelength"), key=lambda row: row["i"])
        computed = np.array([row["wavelength"] for row in rows])
        np.testing.assert_allclose(computed, pe_utils.wavelengths(128, base), rtol=1e-12)
        assert [row["turns"] == "more than L" for row in rows] == list(computed > length)
        assert 0 < sum(computed > length) < 64  # both colours are on show at these settings


def test_scaling_divisors_equal_rope_frequencies(runs):
    d, base, length = 128, 500000.0, 8192
    keys = {
        "linear": {},
        "ntk": {},
        "yarn": {"original_max_position_embeddings": length, "beta_fast": 32.0, "beta_slow": 1.0},
        "llama3": {
            "original_max_position_embeddings": length,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
        },
    }
    omega = base ** (-np.arange(0, d, 2) / d)
    for setting, run in zip(CASES["scaling"][1], runs["scaling"]["runs"], strict=True):
        rule = setting["rule"]
        scaling = {"rope_type": rule, "factor": setting["s"], **keys[rule]}
        rows = sorted(rows_with(run, "i", "divisor", "wavelength"), key=lambda row: row["i"])
        divisor = np.array([row["divisor"] for row in rows])
        expected = omega / rope_frequencies(d, base=base, scaling=scaling)
        np.testing.assert_allclose(divisor, expected, rtol=1e-9)
        np.testing.assert_allclose([row["wavelength"] for row in rows], 2 * np.pi / omega, rtol=1e-12)
        if rule in ("yarn", "llama3"):  # both ends of the ramp are on show
            assert divisor[0] == 1.0 and divisor[-1] == pytest.approx(setting["s"])


def test_explorer_object():
    chart = explorers.table_explorer(20, 8, base=100.0)
    spec = chart.to_dict()
    spec["description"] = "changed"
    assert chart.description != "changed" and repr(chart).startswith("[interactive figure] Heatmap")
    assert json.loads(chart.to_json()) == chart.to_dict()
    assert chart.to_dict()["params"][0]["value"] == 8 and chart.to_dict()["params"][1]["value"] == 2.0
    with pytest.raises(ValueError, match="description"):
        explorers.Explorer({"mark": "point"})
    with pytest.raises(TypeError, match="spec"):
        explorers.Explorer("not a spec")


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: explorers.table_explorer(0), ValueError, "n_positions"),
        (lambda: explorers.table_explorer(10.5), TypeError, "n_positions"),
        (lambda: explorers.table_explorer(d_model=7), ValueError, "d_model"),
        (lambda: explorers.table_explorer(d_model=130), ValueError, "d_model"),
        (lambda: explorers.table_explorer(base=1.0), ValueError, "base"),
        (lambda: explorers.table_explorer(base=5000.0), ValueError, "power of ten"),
        (lambda: explorers.table_explorer(base="10000"), TypeError, "base"),
        (lambda: explorers.rotation_explorer(pair=8), ValueError, "pair"),
        (lambda: explorers.rotation_explorer(offset=31), ValueError, "offset"),
        (lambda: explorers.rotation_explorer(position=True), TypeError, "position"),
        (lambda: explorers.profile_explorer(max_offset=0), ValueError, "max_offset"),
        (lambda: explorers.wavelength_explorer(length=1000), ValueError, "length"),
        (lambda: explorers.scaling_explorer(rope_type="dynamic"), ValueError, "rope_type"),
        (lambda: explorers.scaling_explorer(factor=8.3), ValueError, "factor"),
        (lambda: explorers.scaling_explorer(factor=0.5), ValueError, "factor"),
        (lambda: explorers.scaling_explorer(low_freq_factor=4.0), ValueError, "high_freq_factor"),
        (lambda: explorers.scaling_explorer(beta_fast=0.5), ValueError, "beta_fast"),
        (
            lambda: explorers.scaling_explorer(original_max_position_embeddings=0),
            ValueError,
            "original_max_position_embeddings",
        ),
    ],
)
def test_bad_arguments_are_refused_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---- On the site and in the slides (tools/explorers_web.py, tools/npm_packages/explorers_check.mjs)


def explorer_notebook(charts):
    """A notebook whose code cells display ``charts`` as stored by a kernel (vegalite + text/plain)."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    cells = [new_markdown_cell("# 01 — Explorers\n\nScratch page.")]
    for count, chart in enumerate(charts, start=1):
        data, metadata = chart._repr_mimebundle_()
        cells.append(
            new_code_cell(
                "chart", execution_count=count, outputs=[new_output("display_data", data, metadata=metadata)]
            )
        )
    return nbformat.validator.normalize(new_notebook(cells=cells))[1]


def test_site_form_of_an_explorer_holds_its_spec_inertly_and_its_description():
    spec = explorers.table_explorer().to_dict()
    spec["description"] += " </script><script>alert(1)</script> & <!--"
    page = explorers_web.explorer_html(spec)
    assert page.count("<script") == 1 and "alert(1)</script>" not in page
    inner = page.split('class="pe-explorer-spec">', 1)[1].rsplit("</script>", 1)[0]
    assert json.loads(inner) == {key: value for key, value in spec.items() if key != "$schema"}
    label = re.search(r'<figure class="pe-explorer" role="figure" aria-label="([^"]*)">', page)
    assert label and html.unescape(label.group(1)) == spec["description"]


def test_preprocessor_and_scripts_only_where_there_are_explorers(tmp_path):
    from nbconvert.exporters import HTMLExporter

    notebook = explorer_notebook([explorers.rotation_explorer()])
    stored = json.dumps(notebook, sort_keys=True)
    exporter = HTMLExporter(template_name="lab")
    postprocess = explorers_web.enable(exporter, tmp_path)
    plain = postprocess("<html><head></head><body>no explorer</body></html>")
    assert plain == "<html><head></head><body>no explorer</body></html>" and not (tmp_path / "vega").exists()
    body, _ = exporter.from_notebook_node(notebook)
    assert json.dumps(notebook, sort_keys=True) == stored  # the notebook itself is not changed
    page = postprocess(body)
    assert explorers_web.count_explorers(page) == 1
    assert "[interactive figure]" not in page  # the HTML form wins over the text form
    scripts = [
        f'<script src="vega/{name}"></script>'
        for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
    ]
    positions = [page.index(script) for script in scripts]
    assert positions == sorted(positions) and positions[0] > page.index('class="pe-explorer"')
    assert "https://" not in page.split("<body", 1)[1]  # tests/tools/test_tools.py: pages are offline
    for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js", "NOTICE.txt"):
        assert (tmp_path / "vega" / name).stat().st_size > 0


@pytest.mark.browser  # `make check-slides` runs it, before the check of the course
def test_every_explorer_draws_and_redraws_in_a_real_browser(tmp_path):
    """Headless Chromium, network off: each explorer is drawn, each slider moves it, no console error."""
    require_vega()
    from nbconvert.exporters import HTMLExporter

    exporter = HTMLExporter(template_name="lab")
    postprocess = explorers_web.enable(exporter, tmp_path)
    body, _ = exporter.from_notebook_node(explorer_notebook([chart for chart, _ in CASES.values()]))
    # No CDN scripts: the lab template's require.js and MathJax are not what is tested here.
    body = re.sub(r'<script[^>]*src="https?://[^"]*"[^>]*>\s*</script>', "", body)
    (tmp_path / "page.html").write_text(postprocess(body), encoding="utf-8")
    command = [*NODE, str(NPM_FOLDER / "explorers_check.mjs"), "--browser", str(chromium.chromium())]
    result = subprocess.run(
        [*command, str(tmp_path / "page.html")], capture_output=True, text=True, timeout=120, cwd=NPM_FOLDER
    )
    # A crash of Node or the browser leaves no report: show what it printed, not a JSON error.
    assert result.stdout.strip(), f"no report (exit {result.returncode}); stderr:\n{result.stderr[-3000:]}"
    report = json.loads(result.stdout)["pages"][str(tmp_path / "page.html")]
    assert report["problems"] == [] and result.returncode == 0, report
    assert report["count"] == len(CASES)
    assert report["moved"] == sum(len(SLIDERS[name]) for name in CASES)  # every slider (and one radio)


def test_grid_shift_rotates_each_block_onto_the_shifted_patch(runs):
    # MAE's table (d = 64, m = 16 frequencies per axis) on an 8 × 8 grid, patch (x, y) = (2, 5)
    d, m, size, (x0, y0) = 64, 16, 8, (2, 5)
    table = pe_utils.sincos_2d(size, size, d)
    start = table[y0 * size + x0]
    for setting, run in zip(CASES["grid_shift"][1], runs["grid_shift"]["runs"], strict=True):
        kx, ky, i = setting["kx"], setting["ky"], setting["i"]
        moved = table[(y0 + ky) * size + x0 + kx]  # the shifted patch, on the grid
        rotated = pe_utils.grid_shift_matrix(kx, ky, d) @ start
        np.testing.assert_allclose(rotated, moved, atol=1e-12)
        blocks = {row["block"]: row for rows in run.values() for row in rows if "sin_image" in row}
        # channels of pair i: x block sin i, cos m + i; y block sin 2m + i, cos 3m + i
        omega_i = 10000.0 ** (-i / m)
        for name, (sin_col, cos_col) in {"x": (i, m + i), "y": (2 * m + i, 3 * m + i)}.items():
            row = blocks[name]
            np.testing.assert_allclose(row["theta"], (kx if name == "x" else ky) * omega_i, rtol=1e-12)
            np.testing.assert_allclose([row["sin_p"], row["cos_p"]], start[[sin_col, cos_col]], atol=1e-12)
            np.testing.assert_allclose(
                [row["sin_image"], row["cos_image"]], moved[[sin_col, cos_col]], atol=1e-12
            )
        moved_patch = {
            (row["x_moved"], row["y_moved"]) for rows in run.values() for row in rows if "x_moved" in row
        }
        assert moved_patch == {(x0 + kx, y0 + ky)}
        grid = rows_with(run, "index", "x", "y")
        every_patch = [(y, x) for y in range(size) for x in range(size)]
        assert sorted((row["y"], row["x"]) for row in grid) == every_patch


def test_grid_shift_titles_give_the_turn_to_three_significant_digits():
    # "turn 0.000 rad" for the slow pairs would hide the turn: '.3~g' shows 0.00178
    spec = explorers.grid_shift_explorer().to_dict()
    titles = [panel["title"]["text"]["expr"] for panel in spec["hconcat"][1:]]
    assert len(titles) == 2
    assert all("'.3~g'" in title and "* pow(10000.0, -i / 16)" in title for title in titles)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: explorers.grid_shift_explorer(d_model=66), ValueError, "multiple of 4"),
        (lambda: explorers.grid_shift_explorer(d_model=2), ValueError, "d_model"),
        (lambda: explorers.grid_shift_explorer(base=1.0), ValueError, "base"),
        (lambda: explorers.grid_shift_explorer(size=1), ValueError, "size"),
        (lambda: explorers.grid_shift_explorer(patch=(8, 0)), ValueError, "patch"),
        (lambda: explorers.grid_shift_explorer(patch=3), TypeError, "patch"),
        (lambda: explorers.grid_shift_explorer(shift=(6, 0)), ValueError, "shift"),  # off the grid
        (lambda: explorers.grid_shift_explorer(shift=(0, 1.5)), TypeError, "shift"),
        (lambda: explorers.grid_shift_explorer(pair=16), ValueError, "pair"),
    ],
)
def test_grid_shift_explorer_refuses_bad_arguments_by_name(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---- The scaling explorer's rules against rope_frequencies, over a grid of settings and slider values

# Explorer settings (d, base, L and each rule's fixed keys), each run at every rule and these s.
SCALING_CONFIGS = [
    {"d_model": 128, "base": 500000.0, "original_max_position_embeddings": 8192},
    {
        "d_model": 64,
        "base": 10000.0,
        "original_max_position_embeddings": 2048,
        "beta_fast": 16.0,
        "beta_slow": 2.0,
        "low_freq_factor": 2.0,
        "high_freq_factor": 8.0,
    },
    {
        "d_model": 16,
        "base": 100.0,
        "original_max_position_embeddings": 64,
        "low_freq_factor": 0.5,
        "high_freq_factor": 3.0,
    },
    {
        "d_model": 512,
        "base": 1e6,
        "original_max_position_embeddings": 131072,
        "beta_fast": 64.0,
        "beta_slow": 0.5,
    },
    {"d_model": 4, "base": 10.0, "original_max_position_embeddings": 32, "beta_fast": 3.0, "beta_slow": 1.5},
]
SCALING_FACTORS = [1.0, 1.5, 2.5, 8.0, 32.0]
SCALING_SETTINGS = [{"s": s, "rule": rule} for rule in explorers.SCALING_RULES for s in SCALING_FACTORS]


def _expected_divisors(config, setting):
    """``ω_i / ω'_i`` by pe_utils.rope_frequencies for the explorer ``config`` at one slider ``setting``."""
    d, base, length = config["d_model"], config["base"], config["original_max_position_embeddings"]
    keys = {
        "yarn": {
            "original_max_position_embeddings": length,
            "beta_fast": config.get("beta_fast", 32.0),
            "beta_slow": config.get("beta_slow", 1.0),
        },
        "llama3": {
            "original_max_position_embeddings": length,
            "low_freq_factor": config.get("low_freq_factor", 1.0),
            "high_freq_factor": config.get("high_freq_factor", 4.0),
        },
    }
    scaling = {"rope_type": setting["rule"], "factor": setting["s"], **keys.get(setting["rule"], {})}
    return rope_frequencies(d, base=base) / rope_frequencies(d, base=base, scaling=scaling)


def _divisors(run):
    rows = sorted(rows_with(run, "i", "divisor", "wavelength"), key=lambda row: row["i"])
    return np.array([row["divisor"] for row in rows])


def _spec_with(spec, field, old, new):
    """A copy of ``spec`` whose calculate transform ``as: field`` has ``old`` replaced by ``new``."""
    spec = json.loads(json.dumps(spec))
    found = [
        step for layer in spec["layer"] for step in layer.get("transform", []) if step.get("as") == field
    ]
    assert len(found) == 1 and old in found[0]["calculate"], (field, old)
    found[0]["calculate"] = found[0]["calculate"].replace(old, new)
    return spec


# One slip per rule, each a plausible mistake in its Vega expression: linear divides by s + 0.5;
# ntk forgets the exponent d/(d−2); yarn rounds the ramp's low end up instead of down; llama3
# runs its ramp backwards.
SLIPS = {
    "linear": (
        "omega_scaled",
        "rule == 'linear' ? datum.omega / s",
        "rule == 'linear' ? datum.omega / (s + 0.5)",
    ),
    "ntk": ("omega_ntk", "pow(s, {d} / {d2})", "pow(s, 1)"),
    "yarn": ("yarn_low", "floor(", "ceil("),
    "llama3": (
        "omega_llama3",
        "(1 - datum.smooth) * datum.omega / s + datum.smooth * datum.omega",
        "datum.smooth * datum.omega / s + (1 - datum.smooth) * datum.omega",
    ),
}


@pytest.fixture(scope="module")
def scaling_runs():
    """Vega's divisors for each config at every setting; then for each slip, the slipped default chart."""
    require_vega()
    specs = [explorers.scaling_explorer(**config).to_dict() for config in SCALING_CONFIGS]
    slipped = []
    for rule, (field, old, new) in SLIPS.items():
        # Two settings of the explorer are enough to show that a slip is caught and touches no
        # other rule (every setting would triple the Vega runs of this file).
        for config, spec in list(zip(SCALING_CONFIGS, specs, strict=True))[:2]:
            d = config["d_model"]
            slipped.append((rule, config, _spec_with(spec, field, old.format(d=d, d2=d - 2), new)))
    payload = [{"spec": spec, "settings": SCALING_SETTINGS} for spec in specs] + [
        {"spec": spec, "settings": SCALING_SETTINGS} for _, _, spec in slipped
    ]
    result = subprocess.run(
        NODE + [str(SCRIPT)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=NPM_FOLDER,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout)
    return out[: len(specs)], list(zip(slipped, out[len(specs) :], strict=True))


def test_scaling_rules_equal_rope_frequencies_over_a_grid(scaling_runs):
    """Every rule, at 5 factors s, for 5 settings of d (4 to 512), base (10 to 10⁶), L and the keys."""
    runs, _ = scaling_runs
    assert set(explorers.SCALING_RULES) == {"linear", "ntk", "yarn", "llama3"}
    for config, result in zip(SCALING_CONFIGS, runs, strict=True):
        assert result["warnings"] == []
        for setting, run in zip(SCALING_SETTINGS, result["runs"], strict=True):
            np.testing.assert_allclose(
                _divisors(run), _expected_divisors(config, setting), rtol=1e-9, err_msg=f"{config} {setting}"
            )


def test_a_slip_in_any_rule_expression_is_caught(scaling_runs):
    """The comparison above fails for a copy of the spec with one rule's expression slipped."""
    _, slipped = scaling_runs
    for rule in SLIPS:
        caught = []
        for (slip_rule, config, _), result in slipped:
            if slip_rule != rule:
                continue
            for setting, run in zip(SCALING_SETTINGS, result["runs"], strict=True):
                same = np.allclose(_divisors(run), _expected_divisors(config, setting), rtol=1e-9, atol=0)
                if setting["rule"] != rule:
                    assert same, (rule, config, setting)  # the slip touches its own rule only
                else:
                    caught.append(not same)
        assert any(caught), f"a slip in the {rule} expression went unnoticed"
