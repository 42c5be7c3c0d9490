"""A BERT encoder in numpy: the forward pass of all-MiniLM-L6-v2, and nothing else.

Why write it rather than import torch: the model is 22 million numbers and six repetitions of
one layer, and every step a learner reads about (attention, the feed-forward block, layer norm,
mean pooling) is a line here. It reproduces the model card's similarity table to four decimals
(tests/test_minilm.py), and each step is checked against its float64 formula
(tests/test_transformer.py).

The layer, as BERT defines it (Devlin et al. 2018; `transformers`' `BertLayer`):

    x = LayerNorm(x + Attention(x) W_o)          attention: softmax(Q K^T / sqrt(d)) V per head
    x = LayerNorm(x + GELU(x W_in) W_out)        GELU exact: x * (1 + erf(x / sqrt 2)) / 2

Everything is float32, as the weights are: under NumPy 2 a float32 array divided by a float64
scalar such as `np.sqrt(32)` becomes float64, so the scalars are made float32 first.

The code is written for speed where numpy allows it, because nearly all the time should go to
the matrix products (`make bench` times it against those products alone; the target is 1.2x,
and short sentences sit near it: 1.15-1.18x on two cores of a shared machine, 1.13x in one
thread, what numpy's one-operation-per-pass element-wise work costs here): every
element-wise step overwrites an array it owns instead of allocating one, works on blocks that
stay in the processor's cache, and some constants are folded into weights once, at load time.
Each shortcut keeps every row's numbers independent of the rows beside it, so a text gets the
same vector bit for bit whatever else is in its batch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np

from chunklab.tokens.wordpiece import read_model_file, unzipped_model_file

F32 = np.float32


@dataclass(frozen=True)
class Layer:
    """One encoder layer; matrices stored as (inputs, outputs), so a step is `x @ w + b`.

    The last two fields are not the model's but derived from it once, at load time, so that
    the encoder does less work per token (`attention` says how they are used).
    """

    qkv_w: np.ndarray  # (384, 1152): query, key and value side by side, one multiplication
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    norm1: tuple[np.ndarray, np.ndarray]
    up_w: np.ndarray  # (384, 1536)
    up_b: np.ndarray
    down_w: np.ndarray  # (1536, 384)
    down_b: np.ndarray
    norm2: tuple[np.ndarray, np.ndarray]
    # qkv_w and qkv_b with the query's columns times log2(e) / sqrt(32): scores in base 2
    base2_qkv_w: np.ndarray
    base2_qkv_b: np.ndarray


@dataclass(frozen=True)
class Bert:
    """The weights of the whole encoder and the numbers from its config."""

    words: np.ndarray  # (30522, 384)
    positions: np.ndarray  # (512, 384)
    token_type: np.ndarray  # row 0 of the token-type table: every text is "sentence A"
    norm: tuple[np.ndarray, np.ndarray]
    layers: tuple[Layer, ...]
    heads: int
    eps: np.float32

    @property
    def max_positions(self) -> int:
        return self.positions.shape[0]


def _layer(weights: dict[str, np.ndarray], i: int, heads: int) -> Layer:
    def w(name: str) -> np.ndarray:
        return np.ascontiguousarray(weights[f"encoder.layer.{i}.{name}"], dtype=F32)

    attn = "attention.self."
    qkv_w = np.ascontiguousarray(
        np.concatenate([w(attn + p + ".weight") for p in ("query", "key", "value")]).T
    )
    qkv_b = np.concatenate([w(attn + p + ".bias") for p in ("query", "key", "value")])
    # Attention's softmax takes exp(q.k / sqrt(32)); with the query's weights and bias
    # multiplied once, here, by log2(e) / sqrt(32), q.k is already that score in base 2, and
    # exp2 of it is the same number: no pass over the (tokens x tokens) scores to scale them,
    # and numpy's exp2 costs half its exp.
    query = np.arange(qkv_b.shape[0]) < qkv_b.shape[0] // 3
    to_base2 = np.where(query, np.log2(np.e) / np.sqrt(qkv_b.shape[0] // 3 // heads), 1)
    return Layer(
        qkv_w=qkv_w,
        qkv_b=qkv_b,
        out_w=np.ascontiguousarray(w("attention.output.dense.weight").T),
        out_b=w("attention.output.dense.bias"),
        norm1=(w("attention.output.LayerNorm.weight"), w("attention.output.LayerNorm.bias")),
        up_w=np.ascontiguousarray(w("intermediate.dense.weight").T),
        up_b=w("intermediate.dense.bias"),
        down_w=np.ascontiguousarray(w("output.dense.weight").T),
        down_b=w("output.dense.bias"),
        norm2=(w("output.LayerNorm.weight"), w("output.LayerNorm.bias")),
        base2_qkv_w=(qkv_w * to_base2).astype(F32),
        base2_qkv_b=(qkv_b * to_base2).astype(F32),
    )


@cache
def load_bert() -> Bert:
    """The MiniLM weights, read once per process from the checked model file (its unzipped copy
    where one can be kept: `unzipped_model_file`)."""
    from safetensors.numpy import load, load_file

    config = json.loads(read_model_file("config.json"))
    unzipped = unzipped_model_file("model.safetensors")
    if unzipped is not None:
        weights = load_file(unzipped)
    else:
        weights = load(read_model_file("model.safetensors"))
    return Bert(
        words=weights["embeddings.word_embeddings.weight"],
        positions=weights["embeddings.position_embeddings.weight"],
        token_type=weights["embeddings.token_type_embeddings.weight"][0],
        norm=(weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"]),
        layers=tuple(
            _layer(weights, i, config["num_attention_heads"])
            for i in range(config["num_hidden_layers"])
        ),
        heads=config["num_attention_heads"],
        eps=F32(config["layer_norm_eps"]),
    )


def layer_norm(x: np.ndarray, norm: tuple[np.ndarray, np.ndarray], eps: np.float32) -> np.ndarray:
    """Each vector shifted to mean 0 and scaled to variance 1, then by the learnt gain and bias.
    A new array; `x` is left as it was (the encoder itself uses `layer_norm_in_place`)."""
    out = np.array(x, dtype=F32)
    layer_norm_in_place(out.reshape(-1, out.shape[-1]), norm, eps)
    return out


def layer_norm_in_place(
    x: np.ndarray, norm: tuple[np.ndarray, np.ndarray], eps: np.float32
) -> None:
    """`layer_norm` written over the rows of `x` (n, width): `centred / sqrt(variance + eps) *
    gain + bias`, with no (n, width) array allocated, so a block small enough for the
    processor's cache stays there through every pass.

    The mean and the variance are dot products (`np.vecdot`: each row with a row of 1/width,
    then the centred row with itself), which numpy does four times faster than `mean` and
    without a squared copy; and each row is multiplied by the reciprocal of its deviation rather
    than divided by it.
    """
    width = x.shape[-1]
    x -= np.vecdot(x, _filled(width, 1 / width))[:, None]
    deviation = np.sqrt(np.vecdot(x, x) / F32(width) + eps)
    x *= np.divide(F32(1), deviation)[:, None]
    x *= norm[0]
    x += norm[1]


@cache
def _filled(n: int, value: float) -> np.ndarray:
    """A read-only float32 vector of `n` times `value`, made once."""
    vector = np.full(n, value, dtype=F32)
    vector.flags.writeable = False
    return vector


# GELU(x) = x Phi(x), Phi the normal distribution function, and Phi(x) = 1 / (1 + exp(-l(x)))
# for l = log(Phi / (1 - Phi)), its logit: an odd, smooth function, about 1.6 x near 0 and
# x^2 / 2 far out. So l(x) = x h(x^2) for a smooth h, and GELU(x) = x / (1 + 2**(x H(x^2)))
# with H = -log2(e) h, which a polynomial of degree 6 follows closely enough that GELU is
# off by at most 6e-7 (at x near 4, where GELU is 4: a few units of float32's precision) and
# by at most 0.15 of the bound tests/test_transformer.py holds it to against math.erf, for
# every float32 x. Its coefficients, from H(0) up, are a least-squares fit weighted by
# GELU's own error bound (scripts/fit_gelu.py makes them; the test checks they are its
# output). Far out the polynomial grows the right way (its last coefficient is negative), so
# 2**(x H) goes to 0 for large x (GELU = x) and to infinity for very negative x (GELU = -0).
# numpy has no erf, and math.erf one number at a time would cost more than the whole layer.
GELU_LOGIT = tuple(
    F32(c)
    for c in (
        -2.30221,
        -0.10483279,
        9.184521e-05,
        0.00016043079,
        -1.1588837e-05,
        3.9325403e-07,
        -5.3908358e-09,
    )
)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU (not the tanh approximation): x (1 + erf(x / sqrt 2)) / 2, as a new
    array; the encoder itself computes it in place (`gelu_in_place`)."""
    out = np.array(x, dtype=F32)
    gelu_in_place(out, np.empty((2, *out.shape), dtype=F32))
    return out


def gelu_in_place(x: np.ndarray, work: np.ndarray) -> None:
    """`x` replaced by GELU(x) = x / (1 + exp2(x H(x^2))) (`GELU_LOGIT` says why), with `work`
    (2 arrays shaped as `x`) as the only scratch: no array is allocated, so a block of `x`
    small enough for the processor's cache is read and written there through all seventeen
    passes (twelve of them the polynomial, by Horner's rule).
    """
    squares, power = work
    h0, h1, h2, h3, h4, h5, h6 = GELU_LOGIT
    with np.errstate(over="ignore"):  # |x| > 1.8e19: x^2 is inf, and so is x H, as it should
        np.multiply(x, x, out=squares)
        np.multiply(squares, h6, out=power)
        power += h5
        for h in (h4, h3, h2, h1, h0):
            power *= squares
            power += h
        power *= x
        np.exp2(power, out=power)
    power += F32(1)
    x /= power


# Softmax needs exp(score) not to overflow. Every score of a query q is at most |q| max|k|
# (Cauchy-Schwarz); while that bound is below 96 (scores are in base 2: 2**96 is 7.9e28),
# 2**score, a sum of 512 of them, and that sum times a value vector stay far inside float32
# (3.4e38), and the largest score is above -96, so not every term underflows.
_UNSHIFTED_BOUND = F32(96)


def attention(
    x: np.ndarray, mask_bias: np.ndarray | None, layer: Layer, shape: tuple[int, int, int]
) -> np.ndarray:
    """Multi-head self-attention over the token vectors `x` (batch x tokens, 384) of a batch of
    `shape` (batch, tokens, heads); returns the same shape as `x`.

    `mask_bias` is 0 for a real token and a huge negative number for padding, added to the
    scores so padding gets no attention (as `transformers` does it); None when nothing is padded.

    The softmax, weights = exp(s - m) / sum(exp(s - m)) for each query's row of scores s, keeps
    its value but skips most of its passes over the (tokens x tokens) scores:
      - the scaling by 1/sqrt(32) is in the query's weights, with log2(e), so that exp2 of the
        scores is exp of the scaled ones (`Layer.base2_qkv_w`);
      - the shift m is there only to keep exp from overflowing: it is 0 for a row whose
        Cauchy-Schwarz bound is below `_UNSHIFTED_BOUND`, and the row's maximum otherwise
        (in MiniLM, some rows of the first layer on long texts);
      - the row sums are a product with a column of ones, and the division by them is done
        on the (tokens x 32) result of `weights @ v`, not on the weights.
    Scores are made for as many texts at a time as keep them within about 1 MB
    (`_SCORES_FLOATS`), a core's cache. Every step is per text and per row, so a text's numbers
    never depend on what else is in its batch.
    """
    batch, tokens, heads = shape
    width = x.shape[-1]
    size = width // heads
    qkv = x @ layer.base2_qkv_w
    qkv += layer.base2_qkv_b
    qkv = qkv.reshape(batch, tokens, 3, heads, size)
    queries_and_keys = qkv[:, :, :2]
    norms = np.sqrt(np.vecdot(queries_and_keys, queries_and_keys))  # (batch, tokens, 2, heads)
    # bound[b, h, t]: |q_t| times the longest key of text b in head h
    bound = (norms[:, :, 0] * norms[:, :, 1].max(axis=1, keepdims=True)).transpose(0, 2, 1)
    ones = _filled(tokens, 1)[:, None]
    context = np.empty((batch, tokens, heads, size), dtype=F32)
    texts = max(1, _SCORES_FLOATS // (heads * tokens * tokens))
    for s in range(0, batch, texts):
        # (texts, heads, tokens, size) views of the query, key and value, without a copy
        q, k, v = (qkv[s : s + texts, :, i].transpose(0, 2, 1, 3) for i in range(3))
        scores = q @ k.transpose(0, 1, 3, 2)
        if mask_bias is not None:
            scores += mask_bias[s : s + texts, None, None, :]
        risky = bound[s : s + texts, :, :, None] >= _UNSHIFTED_BOUND
        if risky.any():
            scores -= np.where(risky, scores.max(axis=-1, keepdims=True), F32(0))
        np.exp2(scores, out=scores)
        sums = scores @ ones
        np.divide(scores @ v, sums, out=context[s : s + texts].transpose(0, 2, 1, 3))
    out = context.reshape(batch * tokens, width) @ layer.out_w
    out += layer.out_b
    return out


_SCORES_FLOATS = 1 << 18  # 1 MB of float32 attention scores: about a core's L2 cache


def even_blocks(n: int, most: int) -> list[slice]:
    """`n` rows cut into as few blocks of at most `most` rows as possible, of equal size give
    or take one row: 320 rows at most 256 are two of 160, not 256 and 64.

    Why equal: a small last block is a round of short numpy calls, and when two threads run
    the encoder (`two_cores.encode_batches`), short calls are where they wait for each other's
    GIL (GELU over 320 rows in two threads ran at 0.69-0.88 of twice one thread's speed cut
    256 + 64, at 0.86-0.89 cut 160 + 160). And numpy multiplies a single row by a matrix
    another way (a matrix-vector product, summing in another order), so a block of one row
    would give that row other last digits than it gets in a bigger block; with blocks of at
    least half of `most` rows, every block the encoder multiplies has more than one.
    """
    count = -(-n // most)
    bounds = [i * n // count for i in range(count + 1)] if count else [0]
    return [slice(start, end) for start, end in pairwise(bounds)]


def feed_forward(
    x: np.ndarray, layer: Layer, eps: np.float32, rows: int = 512, cached: int = 256
) -> np.ndarray:
    """The layer's second half for token vectors `x` (n, 384), at most `rows` tokens at a
    time: LayerNorm(x + GELU(x W_in + b_in) W_out + b_out).

    The 1536-wide middle is the biggest array of the layer and GELU passes over it seventeen
    times, at most `cached` rows at a time with two scratch arrays of that size. Why 256 rows
    (1.5 MB an array, in the shared L3 cache rather than a core's 1 MB L2): smaller blocks made
    each pass a little cheaper alone, but `two_cores.encode_batches` runs two of these at
    once, and each numpy call holds the GIL while it starts; with 32-row blocks the two threads
    waited for each other so long that GELU ran at 0.44-0.48 of twice its one-thread speed,
    with 256 rows at 0.89; and with 512 rows the two threads' arrays crowd each other out of
    the cache (0.79-0.84). Blocks are of equal size (`even_blocks`). The residual, the bias and
    the layer norm are done on each `rows` block while it is still in the cache, not on the
    whole (n, 384) array afterwards. Each row's numbers are the same whatever the blocks.
    """
    out = np.empty_like(x)
    work = np.empty((2, min(len(x), cached), layer.up_w.shape[1]), dtype=F32)
    for block in even_blocks(len(x), rows):
        up = x[block] @ layer.up_w
        for cut in even_blocks(len(up), cached):
            part = up[cut]
            part += layer.up_b
            gelu_in_place(part, work[:, : len(part)])
        done = out[block]
        np.matmul(up, layer.down_w, out=done)
        done += layer.down_b
        done += x[block]
        layer_norm_in_place(done, layer.norm2, eps)
    return out


def add_and_norm(
    y: np.ndarray,
    x: np.ndarray,
    norm: tuple[np.ndarray, np.ndarray],
    eps: np.float32,
    rows: int = 512,
) -> np.ndarray:
    """LayerNorm(y + x), written into `y`, at most `rows` rows at a time (`even_blocks`): the
    sum and the layer norm's passes then read a block that is still in the cache, not the
    whole (n, 384) array each time. Row by row, the same numbers."""
    for block in even_blocks(len(y), rows):
        part = y[block]
        part += x[block]
        layer_norm_in_place(part, norm, eps)
    return y


def encode(bert: Bert, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Token vectors (batch, tokens, 384) for word-piece ids (batch, tokens) and their mask.

    Inside, the batch's tokens are rows of one matrix (batch x tokens, 384): each product with a
    weight matrix is then one big multiplication rather than one per text.
    """
    batch, tokens = ids.shape
    if tokens > bert.max_positions:
        raise ValueError(f"{tokens} word pieces, but the model has {bert.max_positions} positions")
    x = bert.words[ids] + bert.positions[:tokens] + bert.token_type
    x = x.reshape(batch * tokens, bert.words.shape[1])
    layer_norm_in_place(x, bert.norm, bert.eps)
    mask_bias = None if mask.all() else (F32(1) - mask.astype(F32)) * np.finfo(F32).min
    for layer in bert.layers:
        attended = attention(x, mask_bias, layer, (batch, tokens, bert.heads))
        x = add_and_norm(attended, x, layer.norm1, bert.eps)
        x = feed_forward(x, layer, bert.eps)
    return x.reshape(batch, tokens, bert.words.shape[1])


def mean_pool(vectors: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The average of each text's token vectors under its mask (padding left out), unit length."""
    weights = mask.astype(F32)[:, :, None]
    pooled = (vectors * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), F32(1e-9))
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.maximum(norms, F32(1e-12))
