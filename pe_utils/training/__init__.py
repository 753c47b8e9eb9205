"""A head that learns to look back (notebook 10; its p-RoPE variant, notebook 13).

The task: a sequence of random tokens ``t_0 … t_{n−1}``; at every position
``p ≥ k`` the target is ``t_{p−k}``, the token ``k`` places back (positions
``p < k`` have no target and are left out of the loss).

The model: one causal attention head. Its values are the tokens' one-hot
vectors, so its output at ``p`` is a probability distribution over the
vocabulary, ``o_p[v] = Σ_{q ≤ p, t_q = v} A_pq``. Only the query and key maps
are trained (and, for the ``"learned"`` variant, the position table). With
``x_p`` the input row of position ``p`` and ``s_pq = q_p · k_q / √d_k``::

    A_pq = exp(s_pq) / Σ_{r ≤ p} exp(s_pr),      loss_p = −log o_p[t_{p−k}].

The gradient with respect to the scores is ``∂loss_p/∂s_pq = A_pq − R_pq``,
where ``R_pq = A_pq [t_q = t_{p−k}] / o_p[t_{p−k}]`` is the attention restricted
to the keys that carry the target token, renormalised; the bilinear score
passes it on to the query and key maps (``look_back_loss_and_gradient``).

Four ways to give the head positions (``VARIANTS``):

- ``"none"``        ``x_p = E[t_p]``, no positional information;
- ``"sinusoidal"``  ``x_p = E[t_p] + PE(p)``, the paper's additive encoding;
- ``"learned"``     ``x_p = E[t_p] + P[p]``, a trained table with one row per
  trained position (no rows beyond it);
- ``"rope"``        ``q_p = rope(x_p W_q, p)``, ``k_q = rope(x_q W_k, q)`` with
  ``x_p = E[t_p]``.

``E`` is a fixed random token embedding (not trained). Introduced in
notebook 10.

p-RoPE (notebook 13): a ``"rope"`` head with ``rope_proportion = p < 1``
rotates only its fastest ``K = int(p·d_k // 2)`` pairs and leaves the others
unrotated (Barbero et al. 2024, arXiv:2410.06205; frequencies from
:func:`pe_utils.frequency_use.p_rope_frequencies`). ``p = 1`` is the RoPE head of
notebook 10, ``p = 0`` a head with no positions.
"""

from .analysis import (
    commuting_share,
    offset_terms,
)
from .gradient import (
    look_back_loss,
    look_back_loss_and_gradient,
)
from .head import (
    TIE_TOLERANCE,
    VARIANTS,
    LookBackHead,
    head_attention,
    head_inputs,
    head_output,
    head_scores,
    init_head,
    look_back_accuracy,
    look_back_predictions,
)
from .recipe import (
    DATA_SEED_OFFSET,
    SIZES,
    TEST_LENGTHS,
    TEST_POSITIONS,
    TRAINING,
    TRAINING_SEQUENCES,
    TaskSizes,
    look_back_test_sets,
    training_data,
    with_start_token,
)
from .task import (
    NO_TARGET,
    look_back_targets,
    look_back_task,
)
from .train import (
    MAX_STEPS,
    TrainingRun,
    adam_update,
    train_head,
)

__all__ = [
    "DATA_SEED_OFFSET",
    "LookBackHead",
    "MAX_STEPS",
    "NO_TARGET",
    "SIZES",
    "TEST_LENGTHS",
    "TEST_POSITIONS",
    "TIE_TOLERANCE",
    "TRAINING",
    "TRAINING_SEQUENCES",
    "TaskSizes",
    "TrainingRun",
    "VARIANTS",
    "adam_update",
    "commuting_share",
    "head_attention",
    "head_inputs",
    "head_output",
    "head_scores",
    "init_head",
    "look_back_accuracy",
    "look_back_loss",
    "look_back_loss_and_gradient",
    "look_back_predictions",
    "look_back_targets",
    "look_back_task",
    "look_back_test_sets",
    "offset_terms",
    "train_head",
    "training_data",
    "with_start_token",
]
