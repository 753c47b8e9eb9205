"""One test per convention the course attributes to a library: pe_utils beside the real code.

The checks live in checks_*.py (one module per library); each compares pe_utils with the library on
random inputs of several sizes, against a per-entry error bound (tests/libraries/_support.py).
A check that fails on purpose until pe_utils catches up with a release goes into EXPECTED_TO_FAIL
(xfail, strict: it turns into a failure the moment the fix lands, and the mark must go). Issue 25's two
(the padded-slot value and a right-padded row's decode ids of transformers 5.x) pass since
``positions_from_mask`` follows 5.x by default.
"""

from __future__ import annotations

import checks_torch
import checks_transformers
import checks_vision
import pytest

ISSUE_25 = pytest.mark.xfail(strict=True, reason="pe_utils follows 4.x until issue 25's fix")
EXPECTED_TO_FAIL: set[str] = set()  # e.g. {"generate_padded_slots", "generate_right_padded_decode"}

CASES = [
    pytest.param(
        function,
        id=f"{module.__name__.removeprefix('checks_')}:{name}",
        marks=[ISSUE_25] if name in EXPECTED_TO_FAIL else [],
    )
    for module in (checks_transformers, checks_vision, checks_torch)
    for name, function in module.CHECKS.items()
]


@pytest.mark.parametrize("check", CASES)
def test_convention(check):
    check()
