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
the matrix products (`make bench` holds it within 1.2x of those products alone): every
element-wise step overwrites an array it owns instead of allocating one, works on blocks that
stay in the processor's cache, and some constants are folded into weights once, at load time.
Each shortcut keeps every row's numbers independent of the rows beside it, so a text gets the
same vector bit for bit whatever else is in its batch.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import numpy as np
from threadpoolctl import ThreadpoolController

from chunklab.tokens.wordpiece import read_model_file

F32 = np.float32


@dataclass(frozen=True)
class Layer:
    """One encoder layer; matrices stored as (inputs, outputs), so a step is `x @ w + b`.

    The last three fields are not the model's but derived from it once, at load time, so that
    the encoder does less work per token (`attention` and `feed_forward` say how they are used).
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
    half_down_w: np.ndarray  # down_w / 2, exactly (a power of two): the feed-forward makes 2 GELU


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
    down_w = np.ascontiguousarray(w("output.dense.weight").T)
    return Layer(
        qkv_w=qkv_w,
        qkv_b=qkv_b,
        out_w=np.ascontiguousarray(w("attention.output.dense.weight").T),
        out_b=w("attention.output.dense.bias"),
        norm1=(w("attention.output.LayerNorm.weight"), w("attention.output.LayerNorm.bias")),
        up_w=np.ascontiguousarray(w("intermediate.dense.weight").T),
        up_b=w("intermediate.dense.bias"),
        down_w=down_w,
        down_b=w("output.dense.bias"),
        norm2=(w("output.LayerNorm.weight"), w("output.LayerNorm.bias")),
        base2_qkv_w=(qkv_w * to_base2).astype(F32),
        base2_qkv_b=(qkv_b * to_base2).astype(F32),
        half_down_w=down_w * F32(0.5),
    )


@cache
def load_bert() -> Bert:
    """The MiniLM weights, read once per process from the checked model file."""
    from safetensors.numpy import load

    config = json.loads(read_model_file("config.json"))
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


# erf by Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7 (float32's own precision):
#     erf(z) = sign(z) (1 - P(t) exp(-z^2)),  P(t) = a1 t + a2 t^2 + ... + a5 t^5,
#     t = 1 / (1 + p |z|)
# numpy has no erf, and math.erf one number at a time would cost more than the whole layer.
_AS_P = 0.3275911
_AS_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)

# GELU(x) = x (1 + erf(x / sqrt 2)) / 2 with that erf, rearranged (`twice_gelu_in_place`):
# t = 1 / (1 + p |x| / sqrt 2) = r tau with tau = 1 / (r + |x|) and r = sqrt 2 / p, so the
# polynomial a1 t + ... + a5 t^5 is (a1 r) tau + ... + (a5 r^5) tau^5, its coefficients
# multiplied out once, here; and exp(-x^2 / 2) is exp2(-x^2 log2(e) / 2).
_GELU_R = np.sqrt(2) / _AS_P
_GELU_A = tuple(F32(a * _GELU_R ** (k + 1)) for k, a in enumerate(_AS_A))
_HALF_LOG2_E = F32(-np.log2(np.e) / 2)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU (not the tanh approximation): x (1 + erf(x / sqrt 2)) / 2, as a new
    array; the encoder itself computes twice this in place (`twice_gelu_in_place`)."""
    out = np.array(x, dtype=F32)
    twice_gelu_in_place(out, np.empty((3, *out.shape), dtype=F32))
    out *= F32(0.5)
    return out


def twice_gelu_in_place(x: np.ndarray, work: np.ndarray) -> None:
    """`x` replaced by 2 GELU(x), with `work` (3 arrays shaped as `x`) as the only scratch: no
    array is allocated, so a block of `x` small enough for the processor's cache is read and
    written there through all nineteen passes.

    With erf(z) = sign(z) (1 - P(t) exp(-z^2)) and z = x / sqrt 2, x (1 + erf(z)) is::

        x + abs(x) - abs(x) P(t) exp(-x^2 / 2)

    (for x >= 0, x (2 - P e); for x < 0, x P e = -abs(x) P e): the sign and the "1 +" vanish,
    and the halving is left to the next product, whose weights are halved once at load time
    (`Layer.half_down_w`; halving is exact in floating point, so the product is the same).
    """
    a1, a2, a3, a4, a5 = _GELU_A
    magnitude, tau, poly = work
    np.abs(x, out=magnitude)
    np.add(magnitude, F32(_GELU_R), out=tau)
    np.divide(F32(1), tau, out=tau)
    np.multiply(tau, a5, out=poly)
    for a in (a4, a3, a2, a1):
        poly += a
        poly *= tau
    with np.errstate(over="ignore"):  # |x| > 1.8e19: x^2 is inf, exp2(-inf) is 0, as it should
        np.multiply(x, x, out=tau)
    tau *= _HALF_LOG2_E
    np.exp2(tau, out=tau)
    poly *= tau
    poly *= magnitude
    x += magnitude
    x -= poly


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


def feed_forward(
    x: np.ndarray, layer: Layer, eps: np.float32, rows: int = 512, cached: int = 256
) -> np.ndarray:
    """The layer's second half for token vectors `x` (n, 384), `rows` tokens at a time:
    LayerNorm(x + GELU(x W_in + b_in) W_out + b_out).

    The 1536-wide middle is the biggest array of the layer and GELU passes over it nineteen
    times, `cached` rows at a time with three scratch arrays of that size. Why 256 rows (1.5 MB
    an array, in the shared L3 cache rather than a core's 1 MB L2): smaller blocks made each
    pass a little cheaper alone, but `encode_in_halves` runs two of these at once, and each
    numpy call holds the GIL while it starts; with 32-row blocks the two threads waited for
    each other so long that GELU ran at 0.44-0.48 of twice its one-thread speed, with 256 rows
    at 0.89 (bench/bench_embedder.py measures the whole encoder). The residual, the bias and
    the layer norm are done on each `rows` block while it is still in the cache, not on the
    whole (n, 384) array afterwards. Each row's numbers are the same whatever the blocks.
    """
    out = np.empty_like(x)
    work = np.empty((3, cached, layer.up_w.shape[1]), dtype=F32)
    for start in range(0, x.shape[0], rows):
        up = x[start : start + rows] @ layer.up_w
        for block in range(0, up.shape[0], cached):
            part = up[block : block + cached]
            part += layer.up_b
            twice_gelu_in_place(part, work[:, : part.shape[0]])
        done = out[start : start + rows]
        np.matmul(up, layer.half_down_w, out=done)  # (2 GELU) (W / 2) = GELU W
        done += layer.down_b
        done += x[start : start + rows]
        layer_norm_in_place(done, layer.norm2, eps)
    return out


def add_and_norm(
    y: np.ndarray,
    x: np.ndarray,
    norm: tuple[np.ndarray, np.ndarray],
    eps: np.float32,
    rows: int = 512,
) -> np.ndarray:
    """LayerNorm(y + x), written into `y`, `rows` rows at a time: the sum and the layer norm's
    passes then read a block that is still in the cache, not the whole (n, 384) array each
    time. Row by row, the same numbers."""
    for start in range(0, y.shape[0], rows):
        block = y[start : start + rows]
        block += x[start : start + rows]
        layer_norm_in_place(block, norm, eps)
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
    x = x.reshape(batch * tokens, -1)
    layer_norm_in_place(x, bert.norm, bert.eps)
    mask_bias = None if mask.all() else (F32(1) - mask.astype(F32)) * np.finfo(F32).min
    for layer in bert.layers:
        attended = attention(x, mask_bias, layer, (batch, tokens, bert.heads))
        x = add_and_norm(attended, x, layer.norm1, bert.eps)
        x = feed_forward(x, layer, bert.eps)
    return x.reshape(batch, tokens, -1)


@cache
def _two_threads() -> tuple[ThreadPoolExecutor, ThreadpoolController]:
    return ThreadPoolExecutor(2, thread_name_prefix="chunklab-encode"), ThreadpoolController()


def encode_in_halves(bert: Bert, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """`encode`, with the batch's two halves run at once in two threads, one BLAS thread each.

    Why: about a tenth of the encoder's time is element-wise work (GELU, softmax, layer norm,
    bias adds) that numpy does on one core while the matrix products use BLAS's threads; with
    two cores, the element-wise part left one idle and BLAS's own threads spent time waiting for
    each other. Two halves in two threads (numpy and BLAS release the GIL) keep both cores busy
    with everything. Each text's numbers are the same: a row's result never depends on the rows
    beside it (the tests check vectors bit-for-bit across batch sizes). The BLAS thread limit is
    process-wide while it lasts (threadpoolctl), then restored.
    """
    if len(ids) < 2:
        return encode(bert, ids, mask)
    pool, controller = _two_threads()
    half = (len(ids) + 1) // 2
    with controller.limit(limits=1, user_api="blas"):
        parts = pool.map(
            lambda s: encode(bert, ids[s], mask[s]), (slice(0, half), slice(half, None))
        )
        return np.concatenate(list(parts))


def mean_pool(vectors: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The average of each text's token vectors under its mask (padding left out), unit length."""
    weights = mask.astype(F32)[:, :, None]
    pooled = (vectors * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), F32(1e-9))
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.maximum(norms, F32(1e-12))
