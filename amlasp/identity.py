"""Values kept by the identity of the objects they were made from: a model or a problem is a frozen
dataclass whose hash costs more than the work a cache would save, and a command asks again with the
same objects, not equal copies."""

from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


def by_identity(cache: dict, size: int, owners: tuple, extra: object, make: Callable[[], T]) -> T:
    """`make()` for `owners` (and the hashable `extra`), kept in `cache` by the owners' identity, the
    last `size`: hashing a model (for an lru_cache) takes 20 us, a twentieth of a short plan's
    validation. The owners are held with the value, so that an id is not reused while it is kept."""
    key = (*map(id, owners), extra)
    hit = cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], owners)):
        return hit[1]
    value = make()
    cache[key] = (owners, value)
    if len(cache) > size:
        del cache[next(iter(cache))]
    return value


__all__ = ["by_identity"]
