"""A BERT encoder in numpy: the forward pass of all-MiniLM-L6-v2, and nothing else.

Why write it rather than import torch: the model is 22 million numbers and six repetitions of
one layer, and every step a learner reads about (attention, the feed-forward block, layer norm,
mean pooling) is a line here. It reproduces sentence-transformers' vectors to about 1e-7.

The layer, as BERT defines it (Devlin et al. 2018; `transformers`' `BertLayer`):

    x = LayerNorm(x + Attention(x) W_o)          attention: softmax(Q K^T / sqrt(d)) V per head
    x = LayerNorm(x + GELU(x W_in) W_out)        GELU exact: x * (1 + erf(x / sqrt 2)) / 2

Everything is float32, as the weights are: under NumPy 2 a float32 array divided by a float64
scalar such as `np.sqrt(32)` becomes float64, so the scalars are made float32 first.
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
    """One encoder layer; matrices stored as (inputs, outputs), so a step is `x @ w + b`."""

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


def _layer(weights: dict[str, np.ndarray], i: int) -> Layer:
    def w(name: str) -> np.ndarray:
        return np.ascontiguousarray(weights[f"encoder.layer.{i}.{name}"], dtype=F32)

    attn = "attention.self."
    return Layer(
        qkv_w=np.ascontiguousarray(
            np.concatenate([w(attn + p + ".weight") for p in ("query", "key", "value")]).T
        ),
        qkv_b=np.concatenate([w(attn + p + ".bias") for p in ("query", "key", "value")]),
        out_w=np.ascontiguousarray(w("attention.output.dense.weight").T),
        out_b=w("attention.output.dense.bias"),
        norm1=(w("attention.output.LayerNorm.weight"), w("attention.output.LayerNorm.bias")),
        up_w=np.ascontiguousarray(w("intermediate.dense.weight").T),
        up_b=w("intermediate.dense.bias"),
        down_w=np.ascontiguousarray(w("output.dense.weight").T),
        down_b=w("output.dense.bias"),
        norm2=(w("output.LayerNorm.weight"), w("output.LayerNorm.bias")),
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
        layers=tuple(_layer(weights, i) for i in range(config["num_hidden_layers"])),
        heads=config["num_attention_heads"],
        eps=F32(config["layer_norm_eps"]),
    )


def layer_norm(x: np.ndarray, norm: tuple[np.ndarray, np.ndarray], eps: np.float32) -> np.ndarray:
    """Each vector shifted to mean 0 and scaled to variance 1, then by the learnt gain and bias.

    Written as `centred / sqrt(variance + eps) * gain + bias`, but the last three steps overwrite
    `centred` (`out=`) instead of making a new array each: the same numbers, fewer passes over
    memory. `x` itself is left as it was.
    """
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.square(centred).mean(axis=-1, keepdims=True)
    np.divide(centred, np.sqrt(variance + eps), out=centred)
    np.multiply(centred, norm[0], out=centred)
    return np.add(centred, norm[1], out=centred)


# erf by Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, float32's own precision):
# numpy has no erf, and math.erf one number at a time would cost more than the whole layer.
_AS_P = F32(0.3275911)
_AS_A = tuple(F32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, in float32:

        erf(x) = sign(x) (1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-x^2)),
        t = 1 / (1 + p |x|)

    GELU calls this on every number of the 1536-wide layer, so it is the encoder's costliest
    step after the matrix products. Each step therefore writes into one of three arrays (`out=`)
    rather than a new one per operation, and the polynomial is evaluated in place (Horner).
    """
    a1, a2, a3, a4, a5 = _AS_A
    z = np.abs(x)
    t = np.multiply(z, _AS_P)
    np.divide(F32(1), np.add(t, F32(1), out=t), out=t)
    poly = np.multiply(t, a5)
    for a in (a4, a3, a2, a1):
        np.multiply(np.add(poly, a, out=poly), t, out=poly)
    np.negative(np.square(z, out=z), out=z)
    np.multiply(poly, np.exp(z, out=z), out=poly)
    return np.copysign(np.subtract(F32(1), poly, out=poly), x, out=poly)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU (not the tanh approximation): x (1 + erf(x / sqrt 2)) / 2, as a new
    array; the encoder itself uses `gelu_in_place` (the same numbers)."""
    out = np.array(x, dtype=F32)
    gelu_in_place(out, np.empty((3, *out.shape), dtype=F32))
    return out


def gelu_in_place(x: np.ndarray, work: np.ndarray) -> None:
    """`x` replaced by GELU(x), bit-for-bit `erf`'s steps, with `work` (3 arrays shaped as `x`)
    as the only scratch: no array is allocated, so a block of `x` small enough for the
    processor's cache is read and written there through all twenty passes.

    Two rewrites keep every number: erf's sign is taken from `x` rather than from x / sqrt 2
    (the same sign), and x (1 + erf) / 2 multiplies in the same order as `gelu` always did.
    """
    a1, a2, a3, a4, a5 = _AS_A
    z, t, poly = work
    np.abs(np.multiply(x, F32(1 / np.sqrt(2)), out=z), out=z)
    np.multiply(z, _AS_P, out=t)
    np.divide(F32(1), np.add(t, F32(1), out=t), out=t)
    np.multiply(t, a5, out=poly)
    for a in (a4, a3, a2, a1):
        np.multiply(np.add(poly, a, out=poly), t, out=poly)
    np.exp(np.negative(np.square(z, out=z), out=z), out=z)
    np.multiply(poly, z, out=poly)
    np.copysign(np.subtract(F32(1), poly, out=poly), x, out=poly)
    poly += F32(1)
    np.multiply(poly, x, out=x)
    x *= F32(0.5)


def attention(
    x: np.ndarray, mask_bias: np.ndarray | None, layer: Layer, shape: tuple[int, int, int]
) -> np.ndarray:
    """Multi-head self-attention over the token vectors `x` (batch x tokens, 384) of a batch of
    `shape` (batch, tokens, heads); returns the same shape as `x`.

    `mask_bias` is 0 for a real token and a huge negative number for padding, added to the
    scores so padding gets no attention (as `transformers` does it); None when nothing is
    padded. The softmax is done in place in `scores`, for as many texts at a time as keep
    `scores` within about 1 MB (`_SCORES_FLOATS`): the softmax passes over it five times, and a
    core's cache holds that much, where a whole batch of 200-token texts needs 60 MB. Each
    text's scores are its own, so the numbers are the same either way.
    """
    batch, tokens, heads = shape
    width = x.shape[-1]
    size = width // heads
    qkv = x @ layer.qkv_w
    qkv += layer.qkv_b
    qkv = qkv.reshape(batch, tokens, 3, heads, size)
    context = np.empty((batch, tokens, heads, size), dtype=F32)
    texts = max(1, _SCORES_FLOATS // (heads * tokens * tokens))
    for s in range(0, batch, texts):
        # (texts, heads, tokens, size) views of the query, key and value, without a copy
        q, k, v = (qkv[s : s + texts, :, i].transpose(0, 2, 1, 3) for i in range(3))
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= F32(1 / np.sqrt(size))
        if mask_bias is not None:
            scores += mask_bias[s : s + texts, None, None, :]
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context[s : s + texts] = (scores @ v).transpose(0, 2, 1, 3)
    out = context.reshape(batch * tokens, width) @ layer.out_w
    out += layer.out_b
    return out


_SCORES_FLOATS = 1 << 18  # 1 MB of float32 attention scores: about a core's L2 cache


def feed_forward(
    x: np.ndarray, layer: Layer, eps: np.float32, rows: int = 256, cached: int = 32
) -> np.ndarray:
    """The layer's second half for token vectors `x` (n, 384), `rows` tokens at a time:
    LayerNorm(x + GELU(x W_in + b_in) W_out + b_out), in that order of additions.

    The 1536-wide middle is the biggest array of the layer and GELU passes over it some twenty
    times: its bias and GELU are done `cached` rows at a time (32 x 1536 floats, with GELU's three
    scratch arrays, fit a core's 1 MB L2 cache), so those passes stay in the cache instead of
    going out to memory and back; the products keep `rows` rows, where BLAS is efficient. The
    residual, the bias and the layer norm are then done on each block while it is still in the
    cache, not on the whole (n, 384) array afterwards. Each row's numbers are the same either way.
    """
    out = np.empty_like(x)
    work = np.empty((3, cached, layer.up_w.shape[1]), dtype=F32)
    for start in range(0, x.shape[0], rows):
        up = x[start : start + rows] @ layer.up_w
        for block in range(0, up.shape[0], cached):
            part = up[block : block + cached]
            part += layer.up_b
            gelu_in_place(part, work[:, : part.shape[0]])
        done = out[start : start + rows]
        np.matmul(up, layer.down_w, out=done)
        done += x[start : start + rows]
        done += layer.down_b
        done[...] = layer_norm(done, layer.norm2, eps)
    return out


def add_and_norm(
    y: np.ndarray,
    x: np.ndarray,
    norm: tuple[np.ndarray, np.ndarray],
    eps: np.float32,
    rows: int = 256,
) -> np.ndarray:
    """LayerNorm(y + x), written into `y`, `rows` rows at a time: the sum and the layer norm's
    passes then read a block that is still in the cache, not the whole (n, 384) array eight
    times. Row by row, the same numbers."""
    for start in range(0, y.shape[0], rows):
        block = y[start : start + rows]
        block += x[start : start + rows]
        block[...] = layer_norm(block, norm, eps)
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
    x = layer_norm(x.reshape(batch * tokens, -1), bert.norm, bert.eps)
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

    Why: about a fifth of the encoder's time is element-wise work (GELU, softmax, layer norm,
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
