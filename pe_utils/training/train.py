"""Training the head with Adam (notebook 10): ``adam_update`` (one step of Kingma & Ba's rule) and
``train_head``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._checks import (
    check_finite_array,
    check_positive_count,
    check_positive_real,
)
from .gradient import _loss_and_gradient, _Task
from .head import LookBackHead

#: The most Adam steps ``train_head`` takes (notebook 10 uses 100).
MAX_STEPS: int = 100_000


@dataclass(frozen=True)
class TrainingRun:
    """What :func:`train_head` returns: the trained head and the loss before each step.

    Introduced in notebook 10.
    """

    head: LookBackHead
    losses: np.ndarray


def adam_update(
    parameter: np.ndarray,
    gradient: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    step: int,
    *,
    learning_rate: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-8,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One Adam step (Kingma & Ba, 2015) for one parameter array.

    ``m ← β₁m + (1−β₁)g``, ``v ← β₂v + (1−β₂)g²``,
    ``θ ← θ − η · (m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε)`` with ``t = step ≥ 1``.
    Returns the new ``(θ, m, v)``; the inputs are not changed. Introduced in
    notebook 10.

    Parameters
    ----------
    parameter, gradient, first, second : arrays of one shape
        ``θ``, ``g``, ``m`` and ``v``; finite.
    step : int
        ``t``, from 1 (the bias correction divides by ``1 − β^t``).
    learning_rate : float
        ``η``, finite and positive.
    beta1, beta2 : float
        In ``[0, 1)``.
    epsilon : float
        Finite and positive.

    Returns
    -------
    (np.ndarray, np.ndarray, np.ndarray)
        The new ``θ``, ``m`` and ``v``.
    """
    step = check_positive_count(step, "step")
    learning_rate = check_positive_real(learning_rate, "learning_rate")
    for beta, name in ((beta1, "beta1"), (beta2, "beta2")):
        if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real) or not 0 <= beta < 1:
            raise ValueError(f"{name} must be a real number in [0, 1), got {beta!r}")
    epsilon = check_positive_real(epsilon, "epsilon")
    parameter = check_finite_array(parameter, "parameter")
    arrays = {"gradient": gradient, "first": first, "second": second}
    for name, array in arrays.items():
        arrays[name] = check_finite_array(array, name)
        if arrays[name].shape != parameter.shape:
            raise ValueError(
                f"{name} must have the shape of parameter, {parameter.shape}, got {arrays[name].shape}"
            )
    return _adam_step(
        parameter,
        arrays["gradient"],
        arrays["first"],
        arrays["second"],
        step,
        learning_rate,
        beta1,
        beta2,
        epsilon,
    )


def _adam_step(
    parameter: np.ndarray,
    gradient: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    step: int,
    learning_rate: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    epsilon: float = 1e-8,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`adam_update` without the checks (training calls it every step, on checked arrays)."""
    first = beta1 * first + (1.0 - beta1) * gradient
    second = beta2 * second + (1.0 - beta2) * gradient**2
    corrected_first = first / (1.0 - beta1**step)
    corrected_second = second / (1.0 - beta2**step)
    parameter = parameter - learning_rate * corrected_first / (np.sqrt(corrected_second) + epsilon)
    return parameter, first, second


def train_head(
    head: LookBackHead,
    tokens: Any,
    targets: Any,
    *,
    steps: int = 100,
    learning_rate: float = 0.05,
) -> TrainingRun:
    """Train the head's query and key maps (and learned table) with full-batch Adam.

    Every step uses the whole batch, so the run is a deterministic function of
    the head it starts from and the data: the same seeds give the same run.
    Each step is :func:`look_back_loss_and_gradient` followed by
    :func:`adam_update` for every trained array (the data are checked once).
    Introduced in notebook 10.

    Parameters
    ----------
    head : LookBackHead
        The starting point, e.g. from :func:`init_head`; it is not changed.
    tokens, targets : int arrays, shape (sequences, n)
        From :func:`look_back_task`.
    steps : int
        Number of Adam steps, at least 1 (notebook 10 uses 100).
    learning_rate : float
        Finite and positive.

    Returns
    -------
    TrainingRun
        The trained head and the ``steps`` losses measured before each step.
    """
    task = _Task.of(head, tokens, targets)
    steps = check_positive_count(steps, "steps")
    if steps > MAX_STEPS:
        raise ValueError(f"steps must be at most {MAX_STEPS} (full-batch Adam on a small task), got {steps}")
    learning_rate = check_positive_real(learning_rate, "learning_rate")
    parameters = head.parameters()
    first = {name: np.zeros_like(array) for name, array in parameters.items()}
    second = {name: np.zeros_like(array) for name, array in parameters.items()}
    losses = np.empty(steps)
    for step in range(1, steps + 1):
        losses[step - 1], gradient = _loss_and_gradient(head, parameters, task)
        if not np.isfinite(losses[step - 1]):
            raise ValueError(f"training diverged at step {step} (loss is not finite): lower learning_rate")
        for name in parameters:
            parameters[name], first[name], second[name] = _adam_step(
                parameters[name], gradient[name], first[name], second[name], step, learning_rate
            )
    return TrainingRun(replace(head, **parameters), losses)
