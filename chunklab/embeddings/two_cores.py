"""MiniLM's batches on two cores: each batch cut in two halves, encoded at once in two threads.

Why not let BLAS use both cores? About a tenth of the encoder's time is element-wise work
(GELU, softmax, layer norm, bias adds) that numpy does on one core while the matrix products use
BLAS's threads; with two cores, the element-wise part left one idle and BLAS's own threads spent
time waiting for each other. Two halves in two threads, one BLAS thread each (numpy and BLAS
release the GIL while they compute), keep both cores busy with everything. Each text's numbers
are the same as `encode` gives it alone: a row's result never depends on the rows beside it
(tests/test_minilm.py checks vectors bit for bit across batch sizes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from functools import cache
from threading import Event

import numpy as np
from threadpoolctl import ThreadpoolController

from chunklab.embeddings.transformer import Bert, encode


@cache
def _second_thread() -> tuple[ThreadPoolExecutor, ThreadpoolController]:
    return ThreadPoolExecutor(1, thread_name_prefix="chunklab-encode"), ThreadpoolController()


def _as_encoded(vectors: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return vectors


def encode_batches(
    bert: Bert,
    batches: Sequence[tuple[np.ndarray, np.ndarray]],
    finish: Callable[[np.ndarray, np.ndarray], np.ndarray] = _as_encoded,
) -> list[np.ndarray]:
    """`finish(encode(bert, ids, mask), mask)` for each batch (ids, mask), in order, with every
    batch cut in two halves encoded at once in two threads, one BLAS thread each: the calling
    thread encodes the first half of every batch, one batch after another, while a worker
    thread does the second halves. `finish` (`mean_pool`, say) must treat each text alone, as
    it is given each half on its own.

    Why all the batches in one call: the two threads meet once, at the end, instead of after
    each batch, where the first to finish waited for the other (256 sentences in batches of
    32: 1.6-2.1% faster). The BLAS thread limit is process-wide while it lasts (threadpoolctl),
    then restored.
    """
    halves = [(len(ids) + 1) // 2 for ids, _ in batches]
    firsts = [(ids[:h], mask[:h]) for (ids, mask), h in zip(batches, halves, strict=True)]
    seconds = [(ids[h:], mask[h:]) for (ids, mask), h in zip(batches, halves, strict=True)]

    stop = Event()  # set when either thread fails (Ctrl-C, say): the other stops early too

    def run(parts: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
        done = []
        try:
            for ids, mask in parts:
                if stop.is_set():
                    break
                done.append(finish(encode(bert, ids, mask), mask))
        except BaseException:
            stop.set()
            raise
        return done

    if not any(len(ids) for ids, _ in seconds):  # texts one by one: BLAS's threads instead
        return run(firsts)
    worker, controller = _second_thread()
    with controller.limit(limits=1, user_api="blas"):
        later = worker.submit(run, seconds)  # a batch of one text has an empty second half
        try:
            ours = run(firsts)
        finally:
            wait([later])  # never lift the BLAS limit while the worker still runs under it
    theirs = later.result()  # raises the worker's error, if it had one
    return [np.concatenate(pair) for pair in zip(ours, theirs, strict=True)]
