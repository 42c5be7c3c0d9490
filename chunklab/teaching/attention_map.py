"""A picture of one attention head: which token each token takes its value from.

Notebook 09 writes one head from scratch and prints one row of its weights; a map of every row is
faster to read than eight lists of eight numbers (each row sums to 1, so a dark cell is a token a
row leans on). Kept apart from `figures` because it draws what the transformer computes, not a
result of the series.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np


def plot_attention(weights: np.ndarray, tokens: Sequence[str], title: str):
    """Draw a head's weights, row i = what token i (the query) takes from each token (the keys)."""
    if weights.shape != (len(tokens), len(tokens)):
        raise ValueError(f"weights of shape {weights.shape} for {len(tokens)} tokens")
    figure, ax = plt.subplots(figsize=(4.6, 3.9))
    shown = ax.imshow(weights, cmap="Blues", vmin=0, vmax=float(weights.max()))  # its own range
    ax.set_xticks(range(len(tokens)), tokens, rotation=90)
    ax.set_yticks(range(len(tokens)), tokens)
    ax.set_xlabel("key: the token looked at")
    ax.set_ylabel("query: the token looking")
    ax.set_title(title)
    figure.colorbar(shown, ax=ax, fraction=0.046)
    figure.tight_layout()
    return figure
