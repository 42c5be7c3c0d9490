"""The encoder's arithmetic (chunklab.embeddings.transformer) against the plain formulas in
float64: GELU with `math.erf`, layer norm, and attention with the textbook softmax.

The encoder takes shortcuts that must not change these values: GELU through a polynomial
fitted to the normal distribution's logit, layer norm by dot products, and a softmax that skips
the max shift when a bound proves exp cannot overflow. The attention inputs below are real
token vectors, scaled so that every path is taken: scores small enough to skip the shift, a
mix, and scores far past float32's exp range. Then the blocks and the two threads the encoder
runs in (`even_blocks`, `two_cores.encode_batches`), which must change no number at all.
"""

from __future__ import annotations

import importlib.util
import math
import threading
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.transformer import (
    GELU_LOGIT,
    attention,
    encode,
    even_blocks,
    feed_forward,
    gelu,
    layer_norm,
    load_bert,
    mean_pool,
)
from chunklab.embeddings.two_cores import encode_batches

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


def test_gelu_polynomial_is_what_its_fitting_script_makes():
    path = ROOT / "scripts" / "fit_gelu.py"
    spec = importlib.util.spec_from_file_location("fit_gelu", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    fitted = script.logit_coefficients()
    # the same float32 numbers, give or take one unit where another LAPACK rounds differently
    np.testing.assert_allclose(np.array(GELU_LOGIT, dtype=np.float64), fitted, rtol=2.5e-7)


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


def same_up_to_rounding(got: np.ndarray, want: np.ndarray, ulps: int = 16) -> bool:
    """Equal but for float32 rounding: the same shape, and no number further from the other
    than `ulps` float32 steps of the largest magnitude. Bit-for-bit equality is what the
    encoder gets where the matrix library computes a row the same way whatever the rows beside
    it; OpenBLAS's kernels do not promise that (its Haswell kernel, on AVX2 machines, sums a
    row in another order when the row count changes), so the tests hold the encoder to what no
    kernel can move: rounding. A wrong row, a lost row or a wrong shift is far past it."""
    if got.shape != want.shape:
        return False
    if want.size == 0:
        return True
    scale = max(float(np.abs(want).max()), np.finfo(np.float32).tiny)
    return float(np.abs(got - want).max()) <= ulps * float(np.finfo(np.float32).eps) * scale


def test_up_to_rounding_accepts_rounding_and_refuses_a_wrong_row(token_vectors):
    x = token_vectors[0]
    assert same_up_to_rounding(np.nextafter(x, np.float32(np.inf)), x)
    assert not same_up_to_rounding(x[::-1], x)  # rows out of order
    assert not same_up_to_rounding(x[:-1], x)  # a row lost
    assert not same_up_to_rounding(x * np.float32(1.001), x)


def test_a_texts_attention_does_not_depend_on_the_text_beside_it(token_vectors):
    """One text whose scores are small beside one whose scores need the shift, in one call: the
    first text's numbers are those it gets alone, up to rounding (the shift is decided per
    row)."""
    bert = load_bert()
    calm = token_vectors[0] * np.float32(0.25)
    wild = token_vectors[1] * np.float32(6.0)
    together = attention(
        np.concatenate([calm, wild]), None, bert.layers[0], (2, TOKENS, bert.heads)
    )
    alone = attention(calm, None, bert.layers[0], (1, TOKENS, bert.heads))
    assert same_up_to_rounding(together[:TOKENS], alone)
    assert same_up_to_rounding(
        together[TOKENS:], attention(wild, None, bert.layers[0], (1, TOKENS, bert.heads))
    )


@given(st.integers(0, 5000), st.integers(1, 600))
def test_even_blocks_cut_as_few_and_as_equal_blocks_as_possible(n, most):
    blocks = even_blocks(n, most)
    sizes = [len(range(n)[block]) for block in blocks]
    assert [i for block in blocks for i in range(n)[block]] == list(range(n))  # all, in order
    assert len(blocks) == -(-n // most)  # as few as blocks of `most` rows need
    assert not sizes or (max(sizes) <= most and max(sizes) - min(sizes) <= 1)


@pytest.mark.parametrize("n", [2, 160, 513, 1025])
def test_feed_forward_gives_each_row_the_same_numbers_whatever_the_blocks(token_vectors, n):
    bert, width = load_bert(), token_vectors.shape[-1]
    x = np.resize(token_vectors.reshape(-1, width), (n, width))  # real token vectors, repeated
    whole = feed_forward(x, bert.layers[0], bert.eps)
    assert np.array_equal(whole, feed_forward(x, bert.layers[0], bert.eps))  # deterministic
    assert same_up_to_rounding(whole, feed_forward(x, bert.layers[0], bert.eps, rows=100, cached=7))
    # pieces of 2 to 130 rows, as texts of any length would make (never one row: a text has
    # at least [CLS] and [SEP], and numpy multiplies a single row another way)
    bounds = np.cumsum([0, *[2, 3, 5, 64, 130] * (n // 204 + 1)])
    bounds = [int(b) for b in bounds if b < n - 1] + [n]
    pieces = [feed_forward(x[a:b], bert.layers[0], bert.eps) for a, b in pairwise(bounds)]
    assert same_up_to_rounding(whole, np.concatenate(pieces))


def some_batches() -> list[tuple[np.ndarray, np.ndarray]]:
    """Batches as the embedder makes them (one text, an even and an odd number, padding), and
    an empty one, of the series' word pieces."""
    ids = MiniLMEmbedder().encoding((ROOT / "data" / "travel_policy.md").read_text()).ids
    batches = []
    for texts, length in [(1, 12), (4, 30), (7, 9), (0, 5), (5, 17)]:
        rows = np.array([ids[40 * t : 40 * t + length] for t in range(texts)], dtype=np.int64)
        mask = np.ones((texts, length), dtype=np.int64)
        mask[1::2, length - 3 :] = 0  # every other text padded
        batches.append((rows.reshape(texts, length), mask))
    return batches


def test_encode_batches_gives_what_encode_gives_batch_by_batch():
    bert, batches = load_bert(), some_batches()
    got = encode_batches(bert, batches, mean_pool)
    want = [mean_pool(encode(bert, ids, mask), mask) for ids, mask in batches]
    assert [g.shape for g in got] == [w.shape for w in want]
    assert all(same_up_to_rounding(g, w) for g, w in zip(got, want, strict=True))
    vectors = encode_batches(bert, batches[1:3])  # token vectors, when nothing is to finish
    assert all(
        same_up_to_rounding(v, encode(bert, *b)) for v, b in zip(vectors, batches[1:3], strict=True)
    )


def test_encode_batches_stops_both_threads_when_either_fails():
    bert, batches = load_bert(), some_batches()[1:3] * 6
    done_by = []

    def finish(vectors: np.ndarray, mask: np.ndarray) -> np.ndarray:
        done_by.append(threading.current_thread().name)
        if len(done_by) == 3:
            raise KeyboardInterrupt  # the user's Ctrl-C, in whichever thread gets there
        return vectors

    with pytest.raises(KeyboardInterrupt):
        encode_batches(bert, batches, finish)
    assert len(done_by) < len(batches)  # neither thread went on to the end
