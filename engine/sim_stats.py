"""Streaming, mergeable statistics for the simulator: moments, histograms, shares, intervals.

Every figure a run reports is kept as exact integers: a score, a game's length and a count are
whole numbers, so :class:`Moments` keeps the count, the sum and the sum of squares as Python
integers (which never overflow) instead of Welford's running float mean and M2. Welford's
update exists to keep a float variance stable; exact integers need no such care, cost less per
game (two additions and a multiplication), and merge associatively and commutatively: a run cut
into chunks, played on one core, on every core or on a cluster, in any order, adds up to the
same integers and so prints the same bytes. Floats appear only when a figure is shown.

Intervals are 95% and use the normal approximation (``Z``), which the runs this tool makes
(hundreds of games and more) are large enough for; a share uses the Wilson score interval, which
stays inside 0..1 and behaves near 0% and 100%.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: The two-sided 95% normal quantile.
Z = 1.959963984540054


@dataclass
class Moments:
    """Count, sum, sum of squares, lowest and highest of integer samples; exact and mergeable."""

    n: int = 0
    total: int = 0
    squares: int = 0
    low: int | None = None
    high: int | None = None

    def add(self, x: int) -> None:
        """Take one sample."""
        self.n += 1
        self.total += x
        self.squares += x * x
        if self.low is None or x < self.low:
            self.low = x
        if self.high is None or x > self.high:
            self.high = x

    def merge(self, other: Moments) -> Moments:
        """Add ``other``'s samples to these (in place); return self."""
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        if other.low is not None and (self.low is None or other.low < self.low):
            self.low = other.low
        if other.high is not None and (self.high is None or other.high > self.high):
            self.high = other.high
        return self

    def minus(self, part: Moments) -> Moments:
        """The samples of these that are not in ``part`` (a subset of them); no min and max."""
        return Moments(self.n - part.n, self.total - part.total, self.squares - part.squares)

    @property
    def mean(self) -> float:
        """The mean (0 without samples)."""
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator), computed exactly then rounded."""
        if self.n < 2:
            return 0.0
        return (self.squares * self.n - self.total * self.total) / (self.n * (self.n - 1))

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        return math.sqrt(max(self.variance, 0.0))

    @property
    def half_width(self) -> float:
        """Half the 95% confidence interval of the mean."""
        return Z * self.sd / math.sqrt(self.n) if self.n else math.inf

    def as_list(self) -> list[Any]:
        """As JSON: ``[n, sum, sum of squares, min, max]``."""
        return [self.n, self.total, self.squares, self.low, self.high]

    @classmethod
    def from_list(cls, data: Iterable[Any]) -> Moments:
        """From :meth:`as_list`."""
        n, total, squares, low, high = data
        return cls(int(n), int(total), int(squares), low, high)

    def summary(self) -> dict[str, Any]:
        """Mean, sd and the 95% interval, rounded for JSON."""
        return {
            "n": self.n,
            "mean": round(self.mean, 4),
            "sd": round(self.sd, 4),
            "ci95": [round(self.mean - self.half_width, 4), round(self.mean + self.half_width, 4)]
            if self.n
            else None,
        }


def histogram_moments(histogram: Mapping[int, int]) -> Moments:
    """The moments of the samples a histogram (value -> count) counts."""
    m = Moments()
    for value, count in histogram.items():
        m.merge(Moments(count, value * count, value * value * count, value, value))
    return m


def histogram_quantile(histogram: Mapping[int, int], q: float) -> float:
    """The ``q`` quantile of a histogram's samples; the median (q=0.5) as ``statistics.median``
    gives it (the mean of the two middle samples when their count is even)."""
    n = sum(histogram.values())
    if n == 0:
        return 0.0
    values = sorted(histogram)
    if q == 0.5:
        ranks = ((n - 1) // 2, n // 2)
    else:
        rank = min(max(round(q * (n - 1)), 0), n - 1)
        ranks = (rank, rank)
    found: list[int] = []
    seen = 0
    for value in values:
        seen += histogram[value]
        while len(found) < 2 and seen > ranks[len(found)]:
            found.append(value)
        if len(found) == 2:
            break
    return (found[0] + found[1]) / 2


def merge_counts(into: Counter[Any], other: Mapping[Any, int]) -> None:
    """Add ``other``'s counts to ``into``."""
    for key, count in other.items():
        into[key] += count


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a share ``successes / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denominator
    return (max(centre - half, 0.0), min(centre + half, 1.0))


@dataclass(frozen=True)
class Difference:
    """A difference of two figures (b - a) with its 95% interval and how it was measured."""

    value: float
    half_width: float
    paired: bool
    n: int

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.value - self.half_width

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.value + self.half_width

    @property
    def significant(self) -> bool:
        """True when the 95% interval leaves out 0."""
        return self.n > 1 and (self.low > 0 or self.high < 0)

    def as_dict(self, scale: float = 1.0) -> dict[str, Any]:
        """As JSON (``scale`` 100 for percentage points)."""
        return {
            "difference": round(self.value * scale, 4),
            "ci95": [round(self.low * scale, 4), round(self.high * scale, 4)],
            "paired": self.paired,
            "significant": self.significant,
        }


def welch(a: Moments, b: Moments) -> Difference:
    """b's mean minus a's, two independent samples (Welch's standard error)."""
    if a.n == 0 or b.n == 0:
        return Difference(b.mean - a.mean, math.inf, False, 0)
    se = math.sqrt(a.variance / a.n + b.variance / b.n)
    return Difference(b.mean - a.mean, Z * se, False, min(a.n, b.n))


def paired(differences: Moments) -> Difference:
    """The mean of per-game differences with its interval (the same seeds played twice)."""
    return Difference(differences.mean, differences.half_width, True, differences.n)


def paired_share(plus: int, minus: int, n: int) -> Difference:
    """A paired difference of a yes/no figure: ``plus`` games where only the second run had it,
    ``minus`` where only the first did, of ``n`` paired games (the discordant pairs decide)."""
    if n == 0:
        return Difference(0.0, math.inf, True, 0)
    mean = (plus - minus) / n
    variance = ((plus + minus) - n * mean * mean) / (n - 1) if n > 1 else 0.0
    return Difference(mean, Z * math.sqrt(max(variance, 0.0) / n), True, n)


def share_difference(a: int, b: int, n: int) -> Difference:
    """Share ``b/n`` minus share ``a/n`` of one multinomial sample (player 2 against player 1:
    each game has one winner at most, so the two shares are not independent)."""
    if n == 0:
        return Difference(0.0, math.inf, False, 0)
    pa, pb = a / n, b / n
    variance = (pa + pb - (pb - pa) ** 2) / n
    return Difference(pb - pa, Z * math.sqrt(max(variance, 0.0)), False, n)


def signed(value: float, digits: int = 2) -> str:
    """``+1.25`` / ``-0.50``: a difference always shows its sign."""
    return f"{value:+.{digits}f}"


def verdict(what: str, difference: Difference, unit: str = "", digits: int = 2) -> str:
    """A plain sentence saying whether a difference is significant at 95%."""
    if difference.n < 2:
        # One game has no spread to measure: its interval would read "+100.0 to +100.0", as
        # sure as can be, beside "not significant".
        games = "no game" if difference.n == 0 else "one game"
        return (
            f"{what}: {signed(difference.value, digits)}{unit} from {games}: too few for an "
            "interval; these games cannot tell the two apart (play more games)."
        )
    if difference.paired and difference.value == 0 and difference.half_width == 0:
        # Game for game the same at both: "play more games to narrow the interval" of an
        # interval that is already none sent the designer to play more for nothing.
        return f"{what}: the same in every game at both (paired on the same seeds)."
    interval = (
        f"{signed(difference.value, digits)}{unit} "
        f"(95% CI {signed(difference.low, digits)} to {signed(difference.high, digits)}{unit})"
    )
    if difference.significant:
        return f"{what}: {interval}, significant at 95%."
    return (
        f"{what}: {interval}: not significant at 95%; these games cannot tell the two apart "
        "(play more games to narrow the interval)."
    )
