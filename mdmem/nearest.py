"""The known id nearest to an unknown one, by edit distance: lint's suggestion for a typo."""

from __future__ import annotations

from collections.abc import Iterable


class Nearest:
    """The known id with the smallest edit distance to a token; ties go to the smaller id."""

    def __init__(self, ids: Iterable[str]) -> None:
        self._by_length: dict[int, list[str]] = {}
        for fact_id in sorted(set(ids)):
            self._by_length.setdefault(len(fact_id), []).append(fact_id)
        self._longest = max(self._by_length, default=0)
        self._cache: dict[str, str | None] = {}

    def __call__(self, token: str) -> str | None:
        if token not in self._cache:
            self._cache[token] = self._search(token)
        return self._cache[token]

    def _search(self, token: str) -> str | None:
        best: tuple[int, str] | None = None
        size = len(token)
        # Lengths nearest first: a length difference of d costs at least d edits.
        for delta in range(max(size, self._longest) + 1):
            if best is not None and delta > best[0]:
                break
            for length in sorted({size - delta, size + delta}):
                for candidate in self._by_length.get(length, ()):
                    limit = best[0] if best is not None else max(size, length)
                    distance = edit_distance(token, candidate, limit)
                    if distance is not None and (best is None or (distance, candidate) < best):
                        best = (distance, candidate)
        return None if best is None else best[1]


def edit_distance(first: str, second: str, limit: int) -> int | None:
    """Levenshtein distance, or None as soon as it must exceed `limit`."""
    if abs(len(first) - len(second)) > limit:
        return None
    previous = list(range(len(second) + 1))
    for row, char in enumerate(first, 1):
        current = [row]
        for column, other in enumerate(second, 1):
            current.append(
                min(previous[column - 1] + (char != other), previous[column] + 1, current[-1] + 1)
            )
        if min(current) > limit:
            return None
        previous = current
    return previous[-1] if previous[-1] <= limit else None
