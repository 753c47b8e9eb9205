"""Every number notebook 13 says was checked outside it, re-run over more seeds; prints them all.

``python -m tools.sweep_13``              every section (a few minutes on one core)
``python -m tools.sweep_13 --sections 5``  one or more sections (1 … 5) only

Not part of ``make test``: it trains 500-odd heads. Each section repeats the notebook's own
experiment with the notebook's sizes, recipe and seeding, over more seeds, and prints what the
notebook quotes (its cell says which section of this script). The notebook's five seeds are
seeds 0–4 here; "100 more seeds" are seeds 5–104.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pe_utils import (  # noqa: E402
    first_negative_offset,
    frequencies,
    init_head,
    look_back_accuracy,
    similarity_profile,
    smallest_base,
    train_head,
)
from pe_utils.notebook_helpers import mean_range  # noqa: E402
from pe_utils.training import (  # noqa: E402
    SIZES,
    TEST_LENGTHS,
    TIE_TOLERANCE,
    TRAINING,
    LookBackHead,
    head_output,
    look_back_predictions,
    look_back_test_sets,
    offset_terms,
    training_data,
    with_start_token,
)

V, d, n, k = SIZES  # notebook 10's task, as in notebook 13
START = V  # the start token of section 1
SEEDS = range(105)  # the notebook's 0–4 and 100 more


def test_sets(start: bool) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Notebook 10's test sets at n, 2n, 4n (with a start token for section 1)."""
    sets = look_back_test_sets()
    return {m: with_start_token(tokens) for m, (tokens, _) in sets.items()} if start else sets


def nope_head(s: int, start: LookBackHead | None = None) -> LookBackHead:
    start = init_head("none", V + 1, d, seed=s) if start is None else start
    return train_head(start, *with_start_token(training_data(s)[0]), **TRAINING).head


def rope_head(p: float, s: int, start: LookBackHead | None = None) -> LookBackHead:
    start = init_head("rope", V, d, seed=s, rope_proportion=p) if start is None else start
    return train_head(start, *training_data(s), **TRAINING).head


def cos_sin_coefficients(q: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Section 2's a_i and b_i: s(k) = Σ a_i cos kω_i + b_i sin kω_i."""
    a = q[..., 0::2] * key[..., 0::2] + q[..., 1::2] * key[..., 1::2]
    b = q[..., 1::2] * key[..., 0::2] - q[..., 0::2] * key[..., 1::2]
    return a, b


def pair_shares(W: np.ndarray) -> np.ndarray:
    column = (W**2).sum(axis=0)
    return (column[0::2] + column[1::2]) / column.sum()


def show(label: str, value: object) -> None:
    print(f"  {label}: {value}")


def section_1() -> None:
    print("§1. One head without positions, trained with a start token (seeds 0–104)")
    tests = test_sets(start=True)
    zeros = np.zeros((d, d))
    uniform = LookBackHead("none", np.zeros((V + 1, d)), zeros, zeros)
    counting = np.array([look_back_accuracy(uniform, *test) for test in tests.values()])
    alternating = np.tile([3, 5], n // 2)[None]
    gaps, weights, agreement, rule, periodic, best = [], [], [], 0, 0, 0.0
    for s in SEEDS:
        head = nope_head(s)
        accuracy = np.array([look_back_accuracy(head, *test) for test in tests.values()])
        gaps.append(np.abs(accuracy - counting).max())
        best = max(best, accuracy.max())
        weights.append(
            max(
                (np.arange(2, m + 1) * head_output(head, tokens)[:, 1:, START]).max()
                for m, (tokens, _) in tests.items()
            )
        )
        for tokens, targets in tests.values():
            has = targets >= 0
            same = look_back_predictions(head, tokens)[has] == look_back_predictions(uniform, tokens)[has]
            agreement.append(same.mean())
        scores = (head.embeddings @ head.W_q) @ (head.embeddings @ head.W_k).T
        rows = scores[:V]
        own = np.diag(rows[:, :V])
        others = (rows[:, :V].sum(1) - own) / (V - 1)
        rule += bool(np.all(np.argmin(rows, axis=1) == START) and np.all(own < others))
        odd = head_output(head, alternating)[0, 1::2]
        periodic += bool(np.allclose(odd, odd[0], atol=1e-12))
    more = slice(5, None)  # the seeds beyond the notebook's (none in a five-seed run)
    show(
        "largest gap to uniform attention, seeds 5–104 (points)",
        round(100 * max(gaps[more], default=np.nan), 2),
    )
    show("largest gap, seeds 0–104, under 4 points", max(gaps) < 0.04)
    show("every accuracy under 50 %, seeds 0–104", best < 0.5)
    show(
        "largest (p+1)·o_p[<s>] at p ≥ 1, seeds 5–104 (%)", round(100 * max(weights[more], default=np.nan), 2)
    )
    show("under 5 % in every seed 0–104", max(weights) < 0.05)
    show("<s> scores lowest and the own token below the others' mean, seeds of 105", rule)
    show(
        "same prediction as uniform attention, % of targets, mean (min–max) over seeds and lengths",
        mean_range(agreement, percent=True),
    )
    show("o_1 = o_3 = … on 3, 5, 3, 5, …, seeds of 105", periodic)


def section_2() -> None:
    print("§2. RoPE's score over 1024 offsets, 256 draws per seed (draw seeds 0–199)")
    d_head, N, offsets = 128, 256, np.arange(1024)
    omega = frequencies(d_head)
    waves = np.cos(np.outer(offsets, omega)), np.sin(np.outer(offsets, omega))
    f = similarity_profile(offsets, d_head)
    largest = {"independent": [], "aligned": []}
    se_ratio, pooled_z, pooled_sum, pooled_sq = [], [], 0.0, 0.0
    for s in range(200):
        draws = np.random.default_rng(s).normal(size=(2, N, d_head))
        for name, (x, y), expected in (("independent", draws, 0.0), ("aligned", draws[[0, 0]], 2 * f)):
            a, b = cos_sin_coefficients(x, y)
            sample = a @ waves[0].T + b @ waves[1].T
            mean, se = sample.mean(0), sample.std(0, ddof=1) / np.sqrt(N)
            largest[name].append(np.max(np.abs(mean - expected) / se))
            if name == "independent":
                se_ratio.append(abs(se.mean() / np.sqrt(d_head / N) - 1))
                pooled_sum, pooled_sq = pooled_sum + sample.sum(0), pooled_sq + (sample**2).sum(0)
        if s % 5 == 4:  # the notebook's pooled check, seeds in groups of five
            count = 5 * N
            mean = pooled_sum / count
            se = np.sqrt((pooled_sq - count * mean**2) / (count - 1) / count)
            pooled_z.append(np.max(np.abs(mean) / se))
            pooled_sum, pooled_sq = 0.0, 0.0
    for name, values in largest.items():
        show(f"{name}: largest |mean − expectation|/SE over 200 seeds", round(max(values), 2))
    show("largest |SE / √(d/N) − 1| over 200 seeds (%)", round(100 * max(se_ratio), 2))
    show("independent, 5 seeds pooled (1280 draws), 40 groups: largest |mean|/SE", round(max(pooled_z), 2))
    show("5 SE of a pooled mean, 5·√(128/1280)", round(5 * np.sqrt(d_head / (5 * N)), 2))


def section_3_and_4() -> None:
    print("§3–4. RoPE and p-RoPE heads (seeds 0–104; groups of five are seeds 5g … 5g+4)")
    plain = test_sets(start=False)
    proportions = (0.25, 0.375, 0.75, 1.0)
    accuracy = {p: [] for p in proportions}
    ratio_025, peaks, share_rules, norm_rule = [], [], 0, 0
    for s in SEEDS:
        for p in proportions:
            head = rope_head(p, s)
            accuracy[p].append([look_back_accuracy(head, *plain[m]) for m in TEST_LENGTHS])
            score = offset_terms(head, np.arange(2 * n)).sum(-1)  # the mean score, offsets 0 … 31
            peaks.append(int(np.argmax(score[:n])))
            if p == 0.25:
                ratio_025.append(score[21] / score[k])
            if p == 1.0:
                start = init_head("rope", V, d, seed=s)
                ok = True
                for name in ("W_q", "W_k"):
                    after, before = pair_shares(getattr(head, name)), pair_shares(getattr(start, name))
                    ok &= bool(
                        after[0] > 0.3
                        and after[0] > before[0]
                        and after[:3].sum() > 0.6
                        and after[3:].sum() < before[3:].sum()
                    )
                    rows = head.embeddings @ getattr(head, name)
                    norm_rule += int(np.argmax(np.hypot(rows[:, 0::2], rows[:, 1::2]).mean(0)) == 0)
                share_rules += ok
    accuracy = {p: np.array(values) for p, values in accuracy.items()}
    rope = accuracy[1.0]
    show("§3: pair 0 > 0.3 and above its start, pairs 0–2 > 0.6, slow pairs lose (seeds of 105)", share_rules)
    show("§3: largest mean norm on pair 0, W_q and W_k (heads of 210)", norm_rule)
    groups = [list(range(g, g + 5)) for g in range(0, len(SEEDS), 5)]
    held = sum(
        bool(
            all(np.all(accuracy[p][g, 0] >= 0.98) for p in (0.25, 0.75, 1.0))
            and np.all(np.abs(accuracy[0.75][g] - rope[g]) < 0.01)
            and accuracy[0.25][g, 1].mean() < rope[g, 1].mean() - 0.02
        )
        for g in groups
    )
    show(f"§4: the notebook's three accuracy asserts hold (groups of {len(groups)})", held)
    show("§4: p = 0.25 below RoPE at 2×, single seeds of 105", int(np.sum(accuracy[0.25][:, 1] < rope[:, 1])))
    show(
        "§4: groups where all five seeds of p = 0.25 are below RoPE at 2×",
        sum(bool(np.all(accuracy[0.25][g, 1] < rope[g, 1])) for g in groups),
    )
    at_4 = [100 * (accuracy[0.25][g, 2].mean() - rope[g, 2].mean()) for g in groups]
    show(
        "§4: 4×, group means of p = 0.25 below / above RoPE",
        f"{sum(x < 0 for x in at_4)} / {sum(x > 0 for x in at_4)}, "
        f"from {min(at_4):+.1f} to {max(at_4):+.1f} points",
    )
    show("§4: p = 0.25, score at offset 21 / at offset 2, smallest of 105", round(min(ratio_025), 3))
    show(
        f"§4: offset score over j < {n} peaks at j = k (heads of {len(peaks)})",
        sum(peak == k for peak in peaks),
    )
    difference = 100 * (accuracy[0.375] - rope)
    show(
        "§4: p = 0.375 (pairs 0–2) minus RoPE, mean over 105 seeds at n, 2n, 4n (points)",
        np.round(difference.mean(0), 2).tolist(),
    )
    show(
        "§4: p = 0.375 minus RoPE, largest |difference| of one seed (points)",
        np.round(np.abs(difference).max(0), 1).tolist(),
    )
    show(
        "§4: p = 0.25 minus RoPE, mean over 105 seeds (points)",
        np.round(100 * (accuracy[0.25] - rope).mean(0), 1).tolist(),
    )


def top_two(model: LookBackHead, test: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    tokens, targets = test
    return np.sort(head_output(model, tokens), axis=-1)[..., -2:][targets >= 0]


def nudges() -> None:
    print("§4, the nudge: every kind of head retrained from weights nudged by 1e-12 (seeds 0–19)")
    plain, tests = test_sets(start=False), test_sets(start=True)
    moved, closest = 0.0, np.inf
    for s in range(20):
        kinds = [("rope", p, plain) for p in (0.25, 0.75, 1.0)] + [("none", 1.0, tests)]
        for variant, p, test_sets_ in kinds:
            vocab = V if variant == "rope" else V + 1
            start = init_head(variant, vocab, d, seed=s, rope_proportion=p)
            noise = 1 + 1e-12 * np.random.default_rng(5).normal(size=start.W_q.shape)
            nudged_start = LookBackHead(
                variant, start.embeddings, start.W_q * noise, start.W_k, rope_proportion=p
            )
            trained, nudged = (
                rope_head(p, s, start_) if variant == "rope" else nope_head(s, start_)
                for start_ in (None, nudged_start)
            )
            for test in test_sets_.values():
                moved = max(moved, np.abs(top_two(nudged, test) - top_two(trained, test)).max())
                closest = min(closest, np.diff(top_two(trained, test), axis=-1).min())
    show("largest move of a top-two output", f"{moved:.1e}")
    show("every lead over the tie tolerance + 10 times that", bool(closest > TIE_TOLERANCE + 10 * moved))


def section_5() -> None:
    print("§5. Men et al.'s Table 2, 16k–1M, on a two-significant-figure grid from 10³ to 10⁹ (d = 128)")
    grid = np.array([m / 10 * 10.0**e for e in range(3, 10) for m in range(10, 100)])
    paper = {16: 3.1e5, 32: 6.4e5, 64: 2.1e6, 128: 7.8e6, 256: 3.6e7, 512: 6.4e7, 1024: 5.1e8}
    clock = time.process_time()
    found = {size: smallest_base(size * 1000, 128, grid) for size in paper}
    seconds = time.process_time() - clock
    print(f"  {'L':>6} {'paper':>8} {'grid, L = k·1000':>17} {'paper base holds for':>40}")
    for size, base in paper.items():
        verdicts = []
        for length in (size * 1000, size * 1024):
            for last, label in ((length, "m ≤ L"), (length - 1, "m < L")):
                holds = int(first_negative_offset(128, base, max_offset=last)) > last
                verdicts.append(
                    f"{'k·1000' if length % 1000 == 0 else 'k·1024'}, {label}: {'yes' if holds else 'no'}"
                )
        print(f"  {size:>5}k {base:8.1e} {found[size]:17.1e}   " + "; ".join(verdicts))
    show("L = 10⁶ instead of 1,024,000", f"{smallest_base(10**6, 128, grid):.1e}")
    show("CPU seconds of the 16k–1M grid scan", round(seconds, 1))


SECTIONS = {"1": section_1, "2": section_2, "3": section_3_and_4, "4": nudges, "5": section_5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sections",
        default="12345",
        help="which to run: 1 (§1), 2 (§2), 3 (§3 and §4), 4 (§4's nudge), 5 (§5)",
    )
    chosen = parser.parse_args().sections
    unknown = sorted(set(chosen) - set(SECTIONS))
    if not chosen or unknown:
        parser.error(f"--sections takes digits among {''.join(SECTIONS)} (such as 25), got {chosen!r}")
    for key, run in SECTIONS.items():
        if key in chosen:
            run()


if __name__ == "__main__":
    main()
