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
from dataclasses import dataclass
from functools import cache

import numpy as np

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
    """Each vector shifted to mean 0 and scaled to variance 1, then by the learnt gain and bias."""
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * norm[0] + norm[1]


# erf by Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, float32's own precision):
# numpy has no erf, and math.erf one number at a time would cost more than the whole layer.
_AS_P = F32(0.3275911)
_AS_A = tuple(F32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, in float32."""
    z = np.abs(x)
    t = F32(1) / (F32(1) + _AS_P * z)
    a1, a2, a3, a4, a5 = _AS_A
    poly = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))))
    return np.copysign(F32(1) - poly * np.exp(-z * z), x)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU (not the tanh approximation)."""
    return F32(0.5) * x * (F32(1) + erf(x * F32(1 / np.sqrt(2))))


def attention(x: np.ndarray, mask_bias: np.ndarray, layer: Layer, heads: int) -> np.ndarray:
    """Multi-head self-attention over a batch `x` (batch, tokens, 384); returns the same shape.

    `mask_bias` is 0 for a real token and a huge negative number for padding, added to the
    scores so padding gets no attention (as `transformers` does it).
    """
    batch, tokens, width = x.shape
    size = width // heads
    qkv = (x @ layer.qkv_w + layer.qkv_b).reshape(batch, tokens, 3, heads, size)
    q, k, v = (qkv[:, :, i].transpose(0, 2, 1, 3) for i in range(3))  # (batch, heads, tokens, size)
    scores = q @ k.transpose(0, 1, 3, 2) * F32(1 / np.sqrt(size)) + mask_bias[:, None, None, :]
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = scores / scores.sum(axis=-1, keepdims=True)
    context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, tokens, width)
    return context @ layer.out_w + layer.out_b


def encode(bert: Bert, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Token vectors (batch, tokens, 384) for word-piece ids (batch, tokens) and their mask."""
    tokens = ids.shape[1]
    if tokens > bert.max_positions:
        raise ValueError(f"{tokens} word pieces, but the model has {bert.max_positions} positions")
    x = bert.words[ids] + bert.positions[:tokens] + bert.token_type
    x = layer_norm(x, bert.norm, bert.eps)
    mask_bias = (F32(1) - mask.astype(F32)) * np.finfo(F32).min
    for layer in bert.layers:
        x = layer_norm(x + attention(x, mask_bias, layer, bert.heads), layer.norm1, bert.eps)
        up = gelu(x @ layer.up_w + layer.up_b)
        x = layer_norm(x + up @ layer.down_w + layer.down_b, layer.norm2, bert.eps)
    return x


def mean_pool(vectors: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The average of each text's token vectors under its mask (padding left out), unit length."""
    weights = mask.astype(F32)[:, :, None]
    pooled = (vectors * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), F32(1e-9))
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.maximum(norms, F32(1e-12))
