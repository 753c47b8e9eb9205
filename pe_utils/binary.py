"""Positions written in binary (notebook 02).

Bit ``b`` of ``p`` flips every ``2**b`` steps: a square wave of period
``2**(b+1)``. Notebook 02 uses it as the discrete ancestor of the sinusoids.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_count, check_table_size


def binary_codes(n_positions: int, n_bits: int | None = None) -> np.ndarray:
    """Return the binary digits of the positions ``0 … n_positions − 1``.

    ``codes[p, b] = (p >> b) & 1``: column ``b`` is bit ``b``, least
    significant first. Introduced in notebook 02.

    Parameters
    ----------
    n_positions : int
        How many positions, ``n ≥ 0``.
    n_bits : int, optional
        How many bits per position; the default is the fewest that tell all
        ``n`` positions apart (at least 1). Must satisfy ``2**n_bits ≥ n``.

    Returns
    -------
    np.ndarray
        ``(n_positions, n_bits)`` int64 array of 0s and 1s.
    """
    n_positions = check_count(n_positions, "n_positions")
    fewest = max(1, (n_positions - 1).bit_length())
    if n_bits is None:
        n_bits = fewest
    else:
        n_bits = check_count(n_bits, "n_bits")
        if n_bits < fewest:
            raise ValueError(
                f"n_bits must be at least {fewest} to tell {n_positions} positions apart, got {n_bits}"
            )
    # At least one row: the bit shifts alone take n_bits entries.
    check_table_size((max(n_positions, 1), n_bits), np.int64, name="binary code table")
    positions = np.arange(n_positions, dtype=np.int64)[:, None]
    # Bits 63 and up of a non-negative int64 are 0; shifting by 63 gives exactly that.
    shifts = np.minimum(np.arange(n_bits, dtype=np.int64), 63)[None, :]
    return (positions >> shifts) & 1
