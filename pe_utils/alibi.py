"""ALiBi: a bias linear in the distance instead of frequencies (notebook 09, the contrast to rescaling).

ALiBi (Press et al. 2022) adds ``−m_h·(p − q)`` to the score of the query at position ``p`` and the
key at ``q ≤ p`` in head ``h``; :func:`alibi_slopes` gives the slopes ``m_h``.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_positive_count, check_table_size


def _power_of_two_slopes(n_heads: int) -> list[float]:
    """``2^(−8/n)·(2^(−8/n))^h`` for ``h = 0 … n−1``, the geometric slopes for ``n = 2^a`` heads."""
    start = 2.0 ** (-8.0 / n_heads)
    return [start ** (head + 1) for head in range(n_heads)]


def alibi_slopes(n_heads: int) -> np.ndarray:
    """Return ALiBi's per-head slopes ``m_h`` (Press et al. 2022).

    For ``n = 2^a`` heads the slopes are the geometric sequence that starts at
    ``2^(−8/n)`` with that same ratio: ``m_h = 2^(−8(h+1)/n)``, ``h = 0 … n−1``
    (8 heads: ``1/2, 1/4, …, 1/256``). For other ``n`` the authors' code
    (``get_slopes`` in ofirpress/attention_with_linear_biases) takes the
    ``2^a`` slopes of the largest power of two ``2^a < n``, then the first
    ``n − 2^a`` of every other slope of ``2^(a+1)`` heads (``m_0, m_2, …``), that
    is ``2^(−4(2j+1)/2^a)`` for ``j = 0, 1, …``. These do not all fall between
    the first ``2^a``: the first, ``2^(−4/2^a)``, lies above every one of them;
    extra slope ``j ≥ 1`` lies between base slopes ``j − 1`` and ``j`` (12 heads:
    ``2^−0.5`` above ``1/2``, then ``2^−1.5``, ``2^−2.5``, ``2^−3.5`` between
    ``1/2, 1/4, 1/8, 1/16``). Head ``h`` adds ``−m_h·(p − q)`` to the score of
    the query at ``p`` and the key at ``q ≤ p``. Introduced in notebook 09.

    Parameters
    ----------
    n_heads : int
        Positive.

    Returns
    -------
    np.ndarray
        ``(n_heads,)`` float64 array, in head order.
    """
    n_heads = check_positive_count(n_heads, "n_heads")
    check_table_size((n_heads,), np.float64, name="slopes")
    power = 1 << (n_heads.bit_length() - 1)  # the largest power of two ≤ n
    slopes = _power_of_two_slopes(power)
    if power < n_heads:
        slopes += _power_of_two_slopes(2 * power)[0::2][: n_heads - power]
    return np.array(slopes, dtype=np.float64)
