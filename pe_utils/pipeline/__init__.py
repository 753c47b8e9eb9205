"""Positions in the pipeline: padding, a KV cache, packing, checkpoint conversion (notebook 11).

The formula of RoPE is one line; the bugs practitioners file are in the bookkeeping
around it. This module holds the pieces notebook 11 checks them with:

- :func:`positions_from_mask`: position ids from a left- or right-padded attention mask,
  as Hugging Face's ``generate`` computes them (transformers 5.x by default, 4.x on request:
  they differ only at padded slots);
- a small causal attention decoder with a KV cache (:class:`DecoderWeights`,
  :func:`decoder_weights`, :func:`decoder_forward`, :func:`prefill`,
  :func:`decode_step`, :class:`KVCache`): keys are rotated at their own positions
  before they enter the cache, and prefill followed by decode steps equals one pass over
  the whole sequence;
- packing several documents in one row: :func:`packed_positions` (positions restart at
  0 in every document) and :func:`block_causal_mask` (no attention across documents);
- :func:`permute_qk_rows`: Hugging Face's permutation of the rows of ``W_q`` and ``W_k``
  that converts a checkpoint from interleaved to half-split pairs, and its inverse.

Conventions: a query or key is a row; the decoder's weights map a token ``x`` (a row of
length ``d_model``) to ``x @ W_q[h]`` for head ``h``. Hugging Face and PyTorch store a
linear layer as ``(out, in)`` and compute ``W x``: :func:`permute_qk_rows` works on that
layout, the one its source uses.
"""

from .checkpoints import (
    permute_qk_rows,
)
from .decoder import (
    ENCODINGS,
    DecoderWeights,
    KVCache,
    decode_step,
    decoder_forward,
    decoder_weights,
    prefill,
)
from .positions import (
    PADDED_POSITION,
    PADDED_POSITIONS,
    RELEASES,
    block_causal_mask,
    packed_positions,
    positions_from_mask,
)

__all__ = [
    "DecoderWeights",
    "ENCODINGS",
    "KVCache",
    "PADDED_POSITION",
    "PADDED_POSITIONS",
    "RELEASES",
    "block_causal_mask",
    "decode_step",
    "decoder_forward",
    "decoder_weights",
    "packed_positions",
    "permute_qk_rows",
    "positions_from_mask",
    "prefill",
]
