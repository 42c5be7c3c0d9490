"""`Memo`: values computed once per process, by key, in a memory of bounded size.

Why: a few slow pure steps are asked the same question again and again within one process (a
chunker counts the same paragraph's word pieces as it packs; late chunking reads the same
windows of a page for each variant tried). Their answers depend on the key alone, so one
computed answer serves every later ask. The memory is emptied whole when it holds `most`
values: simpler than an LRU, and a process that moves on to other texts soon refills it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """At most `most` values by key, each computed by the first `get` that asks for it."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.values: dict[Hashable, V] = {}

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        value = self.values.get(key)
        if value is None:
            if len(self.values) >= self.most:
                self.values.clear()
            value = self.values[key] = compute()
        return value
