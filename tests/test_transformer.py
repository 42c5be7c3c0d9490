"""The encoder's arithmetic (chunklab.embeddings.transformer) against the plain formulas in
float64: GELU with `math.erf`, layer norm, and attention with the textbook softmax.

The encoder takes shortcuts that must not change these values: GELU rearranged around an erf
approximation, layer norm by dot products, and a softmax that skips the max shift when a bound
proves exp cannot overflow. The attention inputs below are real token vectors, scaled so that
every path is taken: scores small enough to skip the shift, a mix, and scores far past
float32's exp range.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.transformer import attention, gelu, layer_norm, load_bert

ROOT = Path(__file__).resolve().parent.parent
TOKENS = 64


def exact_gelu(x: np.ndarray) -> np.ndarray:
    return np.array([v * (1 + math.erf(v / math.sqrt(2))) / 2 for v in x.astype(np.float64)])


def test_gelu_is_the_exact_gelu_to_float32_precision():
    x = np.concatenate(
        [np.linspace(-12, 12, 48_001), [0.0, -0.0, 1e-30, -1e-30, 40, -40, 1e4, -1e4, 3e20]]
    ).astype(np.float32)
    got = gelu(x)
    assert got.dtype == np.float32 and got.shape == x.shape
    # float32 carries about 6e-8 of relative precision: the bound is a few units of it, and the
    # tanh approximation of GELU (off by up to 1e-3) or erf's sign lost would fail it.
    np.testing.assert_allclose(got, exact_gelu(x), rtol=1e-6, atol=5e-7)
    assert np.array_equal(gelu(x[::-1]), got[::-1])  # each number on its own


def test_layer_norm_matches_the_formula_and_leaves_its_input_alone():
    rng = np.random.default_rng(7)
    rows = rng.standard_normal((40, 384)) * rng.uniform(0.1, 10, (40, 1)) + rng.uniform(
        -5, 5, (40, 1)
    )
    x = rows.astype(np.float32)
    before = x.copy()
    gain = rng.uniform(0.5, 1.5, 384).astype(np.float32)
    bias = rng.uniform(-1, 1, 384).astype(np.float32)
    eps = np.float32(1e-12)
    got = layer_norm(x, (gain, bias), eps)
    exact = x.astype(np.float64)
    centred = exact - exact.mean(axis=1, keepdims=True)
    want = centred / np.sqrt((centred**2).mean(axis=1, keepdims=True) + eps) * gain + bias
    assert got.dtype == np.float32 and np.array_equal(x, before)
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)


@pytest.fixture(scope="module")
def token_vectors() -> np.ndarray:
    """Layer 0's input for the first TOKENS word pieces of two of the series' documents."""
    bert, embedder = load_bert(), MiniLMEmbedder()
    texts = [p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("data/*.md"))[:2]]
    vectors = []
    for text in texts:
        ids = np.array(embedder.encoding(text).ids[:TOKENS])
        assert len(ids) == TOKENS
        embedded = bert.words[ids] + bert.positions[:TOKENS] + bert.token_type
        vectors.append(layer_norm(embedded, bert.norm, bert.eps))
    return np.stack(vectors)


def textbook_attention(x: np.ndarray, heads: int, real: np.ndarray | None = None) -> np.ndarray:
    """softmax(Q K^T / sqrt(d)) V per head, in float64, shifting every row by its maximum."""
    layer = load_bert().layers[0]
    q, k, v = np.split(x.astype(np.float64) @ layer.qkv_w + layer.qkv_b, 3, axis=1)
    size = q.shape[1] // heads
    out = []
    for h in range(heads):
        cols = slice(h * size, (h + 1) * size)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(size)
        if real is not None:
            scores[:, ~real] = -np.inf
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        out.append(weights / weights.sum(axis=1, keepdims=True) @ v[:, cols])
    return np.concatenate(out, axis=1) @ layer.out_w + layer.out_b


def score_bounds(x: np.ndarray) -> np.ndarray:
    """Each query's Cauchy-Schwarz bound on its scores in base 2, per head: |q| max |k|."""
    bert = load_bert()
    layer = bert.layers[0]
    qkv = (x @ layer.base2_qkv_w + layer.base2_qkv_b).reshape(len(x), 3, bert.heads, -1)
    norms = np.linalg.norm(qkv[:, :2], axis=-1)
    return norms[:, 0] * norms[:, 1].max(axis=0)


# `attention` skips the max shift for a row whose bound is below 96: at x 0.25 no row is
# shifted, at x 1.5 some are and some are not, at x 6 every row is (scores in the thousands,
# where exp overflows float32 unshifted).
@pytest.mark.parametrize("scale, shifted", [(0.25, "none"), (1.5, "some"), (6.0, "all")])
def test_attention_matches_the_textbook_softmax_whatever_the_size_of_the_scores(
    token_vectors, scale, shifted
):
    bert = load_bert()
    x = token_vectors[0] * np.float32(scale)
    share = (score_bounds(x) >= 96).mean()
    assert {"none": share == 0, "some": 0 < share < 1, "all": share == 1}[shifted]
    got = attention(x, None, bert.layers[0], (1, TOKENS, bert.heads))
    want = textbook_attention(x, bert.heads)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-5 * np.abs(want).max())


def test_padding_gets_no_attention(token_vectors):
    bert = load_bert()
    real = np.arange(TOKENS) < 40
    mask_bias = np.where(real, 0, np.finfo(np.float32).min).astype(np.float32)[None, :]
    got = attention(token_vectors[0], mask_bias, bert.layers[0], (1, TOKENS, bert.heads))
    want = textbook_attention(token_vectors[0], bert.heads, real)
    np.testing.assert_allclose(got[real], want[real], rtol=0, atol=2e-5 * np.abs(want).max())


def test_a_texts_attention_does_not_depend_on_the_text_beside_it(token_vectors):
    """One text whose scores are small beside one whose scores need the shift, in one call: the
    first text's numbers are bit for bit those it gets alone (the shift is decided per row)."""
    bert = load_bert()
    calm = token_vectors[0] * np.float32(0.25)
    wild = token_vectors[1] * np.float32(6.0)
    together = attention(
        np.concatenate([calm, wild]), None, bert.layers[0], (2, TOKENS, bert.heads)
    )
    alone = attention(calm, None, bert.layers[0], (1, TOKENS, bert.heads))
    assert np.array_equal(together[:TOKENS], alone)
    assert np.array_equal(
        together[TOKENS:], attention(wild, None, bert.layers[0], (1, TOKENS, bert.heads))
    )
