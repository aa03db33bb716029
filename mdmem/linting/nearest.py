"""The known id nearest to an unknown one, by edit distance: lint's suggestion for a typo.

A suggestion is for a typo, so only ids within a third of the token's length (at
least 2 edits) are considered; a token that far from every id gets none. That
bound lets a bigram index pick the few candidates worth measuring, and keeps the
measuring to a narrow band of the edit-distance table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def typo_limit(token: str) -> int:
    """The most edits a typo of `token` may hold."""
    return max(2, len(token) // 3)


class Nearest:
    """The known id with the fewest edits from a token; ties go to the alphabetically first.

    Candidates come from a bigram index: k edits destroy at most 2k of a token's
    distinct bigrams, so an id within k edits shares all but 2k of them. Only those
    candidates are measured.
    """

    def __init__(self, ids: Iterable[str]) -> None:
        self._ids = sorted(set(ids))
        self._postings: dict[str, list[int]] | None = None  # built on the first search
        self._cache: dict[str, str | None] = {}

    def __call__(self, token: str) -> str | None:
        if token not in self._cache:
            found = self.ranked(token, 1)
            self._cache[token] = found[0] if found else None
        return self._cache[token]

    def ranked(self, token: str, count: int) -> list[str]:
        """Up to `count` known ids within a typo of `token`, fewest edits first."""
        limit = typo_limit(token)
        best: list[tuple[int, str]] = []  # sorted; once full, its last sets the bound
        for candidate in self._candidates(token, limit):
            bound = best[-1][0] if len(best) == count else limit
            distance = edit_distance(token, candidate, bound)
            if distance is not None and (len(best) < count or (distance, candidate) < best[-1]):
                best = sorted([*best, (distance, candidate)])[:count]
        return [candidate for _, candidate in best]

    def _candidates(self, token: str, limit: int) -> list[str]:
        grams = _bigrams(token)
        needed = len(grams) - 2 * limit
        if needed <= 0:
            return [i for i in self._ids if abs(len(i) - len(token)) <= limit]
        if self._postings is None:
            self._postings = {}
            for index, fact_id in enumerate(self._ids):
                for gram in _bigrams(fact_id):
                    self._postings.setdefault(gram, []).append(index)
        shared: Counter[int] = Counter()
        for gram in grams:
            shared.update(self._postings.get(gram, ()))
        # Most shared bigrams first: a close id found early tightens the bound for the rest.
        ranked = sorted((-count, index) for index, count in shared.items() if count >= needed)
        return [self._ids[index] for _, index in ranked]


def _bigrams(text: str) -> set[str]:
    return {text[index : index + 2] for index in range(len(text) - 1)}


def edit_distance(first: str, second: str, limit: int) -> int | None:
    """Levenshtein distance, or None when it exceeds `limit`.

    Only the band of cells within `limit` of the diagonal can hold a distance up to
    `limit`, so only those are computed; the rest count as `limit + 1`.
    """
    if abs(len(first) - len(second)) > limit:
        return None
    over = limit + 1
    width = len(second)
    previous = [column if column <= limit else over for column in range(width + 1)]
    for row, char in enumerate(first, 1):
        low, high = max(1, row - limit), min(width, row + limit)
        current = [over] * (width + 1)
        current[0] = row if row <= limit else over
        for column in range(low, high + 1):
            current[column] = min(
                previous[column - 1] + (char != second[column - 1]),
                previous[column] + 1,
                current[column - 1] + 1,
                over,
            )
        if min(current[low - 1 : high + 1]) > limit:
            return None
        previous = current
    return previous[width] if previous[width] <= limit else None
