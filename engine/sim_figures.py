"""The figures a designer reads off a run, worked out from its exact tally: each with its 95%
interval, and the differences between two runs (paired on the same seeds where they were)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.sim_stats import (
    Difference,
    Moments,
    histogram_moments,
    paired,
    paired_share,
    share_difference,
    welch,
    wilson,
)

if TYPE_CHECKING:
    from engine.sim import PairTally, SimReport

#: Printed under every per-card table: what the effect estimate is and is not.
CARD_CAVEAT = (
    "Caveat: these effects are observational, not the card's causal effect: a card is played "
    "when the policy sees a use for it and drawn as the game goes (where a ship sails, what a "
    "player buys), so the games compared differ in more than the card. To measure one card, "
    "compare a variant without it (cardc sim --compare)."
)


def _share(count: int, n: int) -> dict[str, Any]:
    low, high = wilson(count, n)
    return {
        "count": count,
        "share": round(count / n, 6) if n else 0.0,
        "ci95": [round(low, 6), round(high, 6)],
    }


def _moments(m: Moments) -> dict[str, Any]:
    return {**m.summary(), "min": m.low, "max": m.high}


def card_effects(report: SimReport, card: str) -> tuple[Difference | None, Difference | None]:
    """A card's two effect estimates: the mean score of samples that played it against those
    that drew it and never played it, and of samples that drew it against those that never did
    (None where either group is empty)."""
    tally = report.tally.cards[card]
    played = None
    if tally.played.n and tally.unplayed.n:
        played = welch(tally.unplayed, tally.played)
    not_drawn = histogram_moments(report.tally.scores).minus(tally.drawn)
    drawn = welch(not_drawn, tally.drawn) if tally.drawn.n and not_drawn.n else None
    return played, drawn


def seat_labels(report: SimReport) -> tuple[str, str]:
    """The two winners a report compares: player 1 and player 2, or, in a game whose seats
    play named sides (``seat_label``: "Land", "Sea"), its first two sides by name."""
    sides = sorted(report.tally.sides)
    return (sides[0], sides[1]) if len(sides) >= 2 else ("player 1", "player 2")


def seat_difference(report: SimReport) -> Difference | None:
    """Player 2's win share minus player 1's (competitive), with its interval; in a game of
    named sides the second side's minus the first's (:func:`seat_labels`)."""
    if report.mode != "competitive":
        return None
    wins = report.tally.wins
    first, second = seat_labels(report)
    return share_difference(wins.get(first, 0), wins.get(second, 0), report.games)


def figures(report: SimReport) -> dict[str, Any]:
    """Every figure of ``report``, for its JSON."""
    tally = report.tally
    score = histogram_moments(tally.scores)
    samples = score.n
    out: dict[str, Any] = {
        "score": {
            **_moments(score),
            "median": report.median,
            "afloat_mean": None if report.afloat_mean is None else round(report.afloat_mean, 4),
            "histogram": {str(k): tally.scores[k] for k in sorted(tally.scores)},
        },
        "titles": dict(report.titles),
        "sink_rate": round(report.sink_rate, 6),
        "sink": _share(tally.games_with_sinking, report.games),
        "games_with_sinking": tally.games_with_sinking,
        "ships_sunk": tally.ships_sunk,
        "wins": dict(report.wins),
        **(
            {
                "points_by": {
                    k: round(n / report.games, 4) for k, n in sorted(tally.points_by.items())
                }
            }
            if tally.points_by and report.games
            else {}
        ),
        "win_share": {w: _share(n, report.games) for w, n in report.wins},
        "end": {e: _share(tally.ends[e], report.games) for e in sorted(tally.ends)},
        "length": {
            **_moments(histogram_moments(tally.lengths)),
            "histogram": {str(k): tally.lengths[k] for k in sorted(tally.lengths)},
        },
    }
    seats = seat_difference(report)
    if seats is not None:
        out["seat_difference"] = seats.as_dict(100)
    cards: dict[str, Any] = {}
    for card in sorted(tally.cards):
        figures_of = tally.cards[card]
        played, drawn = card_effects(report, card)
        cards[card] = {
            "title": dict(report.card_titles).get(card, card),
            "drawn": figures_of.drawn.n,
            "played": figures_of.played.n,
            "held": figures_of.held,
            "drawn_share": round(figures_of.drawn.n / samples, 6) if samples else 0.0,
            "effect_played": None if played is None else played.as_dict(),
            "effect_drawn": None if drawn is None else drawn.as_dict(),
        }
    out["cards"] = cards
    out["cards_caveat"] = CARD_CAVEAT
    return out


def differences(
    base: SimReport, other: SimReport, pair: PairTally | None
) -> dict[str, tuple[float, float, Difference, Difference | None]]:
    """Figure -> (base value, other value, difference, unpaired difference) of two runs.

    With a ``pair`` tally (the same seeds played at both) each difference is paired; without
    one (runs of different seeds) it is the unpaired one. Shares are fractions (0..1).
    """
    out: dict[str, tuple[float, float, Difference, Difference | None]] = {}
    a, b = base.score, other.score
    unpaired = welch(a, b)
    out["mean score"] = (a.mean, b.mean, paired(pair.score) if pair else unpaired, unpaired)
    la, lb = histogram_moments(base.tally.lengths), histogram_moments(other.tally.lengths)
    length_unpaired = welch(la, lb)
    out["game length"] = (
        la.mean,
        lb.mean,
        paired(pair.length) if pair else length_unpaired,
        length_unpaired,
    )

    def share(key: str, label: str, count_a: int, count_b: int, n_a: int, n_b: int) -> None:
        sa = count_a / n_a if n_a else 0.0
        sb = count_b / n_b if n_b else 0.0
        ma = Moments(n_a, count_a, count_a, 0, 1)
        mb = Moments(n_b, count_b, count_b, 0, 1)
        unpaired_share = welch(ma, mb)
        if pair is not None:
            plus, minus = pair.flags.get(key, [0, 0])
            n = pair.samples if key.startswith("title:") else pair.games
            out[label] = (sa, sb, paired_share(plus, minus, n), unpaired_share)
        else:
            out[label] = (sa, sb, unpaired_share, unpaired_share)

    ta, tb = base.tally, other.tally
    if ta.ships_sink or tb.ships_sink:  # a game without ships has no sink rate to compare
        share("sink", "sink rate", ta.games_with_sinking, tb.games_with_sinking, ta.games, tb.games)
    for end in sorted(set(ta.ends) | set(tb.ends)):
        share(f"end:{end}", f"end: {end}", ta.ends[end], tb.ends[end], ta.games, tb.games)
    sa, sb = histogram_moments(ta.scores).n, histogram_moments(tb.scores).n
    for title in _title_order(base, other):
        share(f"title:{title}", f"title: {title}", ta.titles[title], tb.titles[title], sa, sb)
    for win in sorted(set(ta.wins) | set(tb.wins)):
        share(f"win:{win}", f"wins: {win}", ta.wins[win], tb.wins[win], ta.games, tb.games)
    return out


def _title_order(base: SimReport, other: SimReport) -> list[str]:
    """The titles to compare, in the base's order; none for a game without titles."""
    from engine.sim_tally import NO_TITLE

    order = [t for t, _ in base.titles]
    order += [t for t, _ in other.titles if t not in order]
    return order if any(t != NO_TITLE for t in order) else []


def differences_as_dict(
    diffs: Mapping[str, tuple[float, float, Difference, Difference | None]],
) -> dict[str, Any]:
    """:func:`differences` as JSON."""
    out = {}
    for name, (va, vb, diff, unpaired_diff) in diffs.items():
        out[name] = {
            "base": round(va, 6),
            "other": round(vb, 6),
            **diff.as_dict(),
            "unpaired_ci95": None
            if unpaired_diff is None
            else [round(unpaired_diff.low, 6), round(unpaired_diff.high, 6)],
        }
    return out
