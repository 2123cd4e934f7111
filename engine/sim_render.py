"""The simulator's reports as text: a run's figures with their intervals, a comparison of two
runs, a sweep, and one game as the paper logbook would read.

Imported by :mod:`engine.sim` (which re-exports ``render_report`` and ``render_logbook``); it
reads the simulator's names at call time, so either module may be imported first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.sim_stats import Difference, histogram_moments, signed, verdict, wilson

if TYPE_CHECKING:
    from engine.sim import PairTally, Played, SimReport

#: Most bars a score histogram prints (scores are grouped into bins of equal width).
HISTOGRAM_BINS = 14


def _number(value: float) -> str:
    """A statistic as a reader wants it: no '.0' on whole numbers."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def bin_width(low: int, high: int, bins: int = HISTOGRAM_BINS) -> int:
    """A bin width (1, 2, 5, 10, 20, 50 ...) that shows ``low``..``high`` in ``bins`` bars or
    fewer."""
    span = high - low + 1
    width = 1
    while True:
        for step in (1, 2, 5):
            if span <= step * width * bins:
                return step * width
        width *= 10


def binned(histogram: Mapping[int, int], width: int) -> list[tuple[int, int]]:
    """(bin start, count) of a histogram in bins of ``width``, every bin from the lowest to the
    highest one shown (empty bins too, so the shape reads right)."""
    if not histogram:
        return []
    bins: dict[int, int] = {}
    for value, count in histogram.items():
        start = (value // width) * width
        bins[start] = bins.get(start, 0) + count
    first, last = min(bins), max(bins)
    return [(start, bins.get(start, 0)) for start in range(first, last + 1, width)]


def _histogram_lines(histogram: Mapping[int, int]) -> list[str]:
    if not histogram:
        return []
    width = bin_width(min(histogram), max(histogram))
    rows = binned(histogram, width)
    total = sum(histogram.values())
    peak = max(count for _, count in rows) or 1
    lines = []
    for start, count in rows:
        label = str(start) if width == 1 else f"{start}-{start + width - 1}"
        bar = "#" * round(30 * count / peak)
        lines.append(f"  {label:>9}  {count:>8,}  {_percent(count / total):>6}  {bar}".rstrip())
    return lines


def _interval(share_count: int, n: int) -> str:
    low, high = wilson(share_count, n)
    return f"{_percent(low)} to {_percent(high)}"


def render_report(report: SimReport, cards: bool = True) -> str:
    """The report as readable tables: the score with its spread and interval and its
    histogram, the sink rate and how games ended, the length, titles, wins and cards."""
    from engine.sim_figures import CARD_CAVEAT, card_effects, seat_difference, seat_labels
    from engine.sim_tally import NO_TITLE

    tally = report.tally
    count = f"{report.games:,} {report.mode} game{'s' if report.games != 1 else ''}"
    seeds = ", ".join(str(s) for s, _ in report.runs)
    lines = [
        f"{report.title}: {report.label}: {count}, policy {report.policy}, "
        f"seed{'s' if len(report.runs) > 1 else ''} {seeds}",
        "",
    ]
    label = "team score" if report.mode == "coop" else "score"
    per = " (each player's)" if report.mode == "competitive" else ""
    score = report.score
    lines.append(f"{label}{per}")
    lines.append(
        f"  {'mean':<8}{_number(report.mean):>8}   ± {score.half_width:.2f} "
        f"(95% CI {score.mean - score.half_width:.2f} to {score.mean + score.half_width:.2f}), "
        f"sd {score.sd:.2f}"
    )
    for name, value in (("median", report.median), ("min", report.min), ("max", report.max)):
        lines.append(f"  {name:<8}{_number(value):>8}")
    afloat = tally.afloat
    if report.afloat_mean is not None and afloat.n != score.n:
        lines.append(
            f"  {'afloat':<8}{_number(report.afloat_mean):>8}   mean without the sunk "
            f"({afloat.n:,} of {score.n:,})"
        )
    lines += ["", f"{label} distribution", *_histogram_lines(tally.scores)]
    if tally.ships_sink:
        ships = "" if report.players == 1 else f"; {report.ships_sunk:,} ships"
        lines += [
            "",
            f"sink rate  {100 * report.sink_rate:5.1f}%   "
            f"({report.games_with_sinking:,} of {report.games:,} games{ships}; "
            f"95% CI {_interval(report.games_with_sinking, report.games)})",
        ]
    length = histogram_moments(tally.lengths)
    lines += [
        "",
        f"game length  mean {length.mean:.2f} rounds ± {length.half_width:.2f}, "
        f"min {length.low}, max {length.high}",
    ]
    if tally.turns:
        turns = histogram_moments(tally.turns)
        lines.append(
            f"             mean {turns.mean:.2f} turns ± {turns.half_width:.2f}, "
            f"min {turns.low}, max {turns.high}"
        )
    lines.append("")
    width = max([len("end of the game"), *(len(e) for e in tally.ends)])
    lines.append(f"{'end of the game':<{width}}  {'games':>7}  {'share':>6}  95% CI")
    for end in sorted(tally.ends, key=lambda e: (-tally.ends[e], e)):
        n = tally.ends[end]
        lines.append(
            f"{end:<{width}}  {n:>7,}  {_percent(n / report.games):>6}  "
            f"{_interval(n, report.games)}"
        )
    width = len("title")
    if any(title != NO_TITLE for title, _ in report.titles):
        # A game whose flow gives no titles has nothing to count here.
        lines.append("")
        total = sum(n for _, n in report.titles) or 1
        width = max([width, *(len(t) for t, _ in report.titles)])
        lines.append(f"{'title':<{width}}  {'count':>7}  {'share':>6}")
        for title, n in report.titles:
            bar = "#" * round(30 * n / total)
            lines.append(f"{title:<{width}}  {n:>7,}  {100 * n / total:5.1f}%  {bar}".rstrip())
    if report.mode == "competitive":
        width = max([width, *(len(w) for w, _ in report.wins)])
        lines += ["", f"{'winner':<{width}}  {'games':>7}  {'share':>6}  95% CI"]
        for who, n in report.wins:
            lines.append(
                f"{who:<{width}}  {n:>7,}  {100 * n / report.games:5.1f}%  "
                f"{_interval(n, report.games)}"
            )
        seats = seat_difference(report)
        if seats is not None:
            lines += ["", _seat_sentence(seats, seat_labels(report))]
    if tally.points_by and report.games:
        # Points by the layer (or other source) that scored them, all seats together.
        titles = dict(report.card_titles)
        named = {k: titles.get(k, k).replace("_", " ") for k in tally.points_by}
        width = max([len("points per layer"), *(len(t) for t in named.values())])
        lines += ["", f"{'points per layer':<{width}}  {'mean':>7}  {'share':>6}"]
        total = sum(tally.points_by.values()) or 1
        for key in sorted(tally.points_by, key=lambda k: (-tally.points_by[k], k)):
            n = tally.points_by[key]
            lines.append(
                f"{named[key]:<{width}}  {n / report.games:>7.1f}  {100 * n / total:5.1f}%"
            )
    if cards and tally.cards:
        # The column is as wide as the titles of the cards in the table, for the header and
        # every row alike (the rows took every card's, so a game whose longest titles are of
        # cards never drawn, Land vs Sea's scoring layers, printed its rows out of line).
        all_titles = dict(report.card_titles)
        titles = {c: all_titles.get(c, c) for c in tally.cards}
        lines += ["", _card_header(titles)]
        for card in sorted(tally.cards, key=lambda c: (titles[c], c)):
            lines.append(_card_line(report, card, titles, card_effects(report, card)))
        lines += [
            "",
            *_wrap(
                "drawn, played, held: samples (games, or players in competitive) that drew the "
                "card, played it, held it at the end. Effects: the difference in mean score, "
                "± its 95% interval (* significant): samples that played it against those that "
                "drew it and never played it; that drew it against those that never did."
            ),
            *_wrap(CARD_CAVEAT),
        ]
    return "\n".join(lines)


def _seat_sentence(seats: Difference, labels: tuple[str, str] = ("player 1", "player 2")) -> str:
    points = Difference(seats.value * 100, seats.half_width * 100, False, seats.n)
    first, second = labels
    return verdict(
        f"{second[0].upper()}{second[1:]}'s win share minus {first}'s", points, " points", 1
    )


_CARD_COLUMNS = ("drawn", "played", "held", "played vs unplayed", "drawn vs not")


def _card_header(titles: Mapping[str, str]) -> str:
    width = max([len("card"), *(len(t) for t in titles.values())])
    return (
        f"{'card':<{width}}  {'drawn':>7}  {'played':>7}  {'held':>7}  "
        f"{'played-unplayed':>22}  {'drawn-not drawn':>22}"
    )


def _effect(diff: Difference | None) -> str:
    if diff is None:
        return "-"
    star = "*" if diff.significant else " "
    return f"{signed(diff.value)} ± {diff.half_width:.2f}{star}"


def _card_line(
    report: SimReport,
    card: str,
    titles: Mapping[str, str],
    effects: tuple[Difference | None, Difference | None],
) -> str:
    width = max([len("card"), *(len(t) for t in titles.values())])
    tally = report.tally.cards[card]
    return (
        f"{titles.get(card, card):<{width}}  {tally.drawn.n:>7,}  {tally.played.n:>7,}  "
        f"{tally.held:>7,}  {_effect(effects[0]):>22}  {_effect(effects[1]):>22}"
    ).rstrip()


def _wrap(text: str, width: int = 96) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def render_compare(base: SimReport, other: SimReport, pair: PairTally | None) -> str:
    """Two runs side by side: each figure's difference (other minus base) with its 95%
    interval, paired on the same seeds when ``pair`` is given, and a sentence for each figure
    the games cannot tell apart."""
    from engine.sim_figures import differences

    how = "paired: the same seeds at both" if pair is not None else "unpaired: different seeds"
    lines = [
        f"{base.title}: {other.label} against {base.label}: {base.games:,} {base.mode} games "
        f"each, policy {base.policy}, seed {base.seed} ({how})",
        "",
    ]
    diffs = differences(base, other, pair)
    width = max(len(name) for name in diffs)
    la, lb = base.label, other.label
    col = max(len(la), len(lb), 8)
    lines.append(
        f"{'figure':<{width}}  {la:>{col}}  {lb:>{col}}  {'difference (95% CI)':<36}"
        + ("  unpaired would be" if pair is not None else "")
    )
    quiet = []
    for name, (va, vb, diff, unpaired) in diffs.items():
        share = name not in ("mean score", "game length")
        scale, unit = (100, " pts") if share else (1, "")
        shown_a = _percent(va) if share else f"{va:.2f}"
        shown_b = _percent(vb) if share else f"{vb:.2f}"
        interval = (
            f"{signed(diff.value * scale)}{unit} ({signed(diff.low * scale)} to "
            f"{signed(diff.high * scale)}){'' if diff.significant else ' n.s.'}"
        )
        extra = ""
        if pair is not None and unpaired is not None:
            extra = f"  ± {unpaired.half_width * scale:.2f}"
        lines.append(f"{name:<{width}}  {shown_a:>{col}}  {shown_b:>{col}}  {interval:<36}{extra}")
        if not diff.significant and (va or vb):
            points = Difference(diff.value * scale, diff.half_width * scale, diff.paired, diff.n)
            quiet.append(verdict(f"{name}", points, unit))
    lines += [
        "",
        f"Differences are {lb} minus {la}; pts are percentage points; n.s.: not significant "
        "at 95%.",
    ]
    if quiet:
        lines += ["", *quiet]
    return "\n".join(lines)


def render_sweep(reports: Sequence[SimReport], pairs: Sequence[PairTally]) -> str:
    """A sweep: each point's mean score, sink rate (or, in a game without ships, its length)
    and difference against the first point (paired on the same seeds)."""
    from engine.sim_figures import differences

    base = reports[0]
    lines = [
        f"{base.title}: sweep of {len(reports)} points, {base.games:,} {base.mode} games each on "
        f"the same seeds, policy {base.policy}, seed {base.seed}",
        "",
    ]
    width = max([len("point"), *(len(r.label) for r in reports)])
    # A game without ships has no sink rate (it printed 0.0% at every point): its points are
    # told apart by their length instead.
    ships = any(r.tally.ships_sink for r in reports)
    column = "sink rate" if ships else "game length"
    lines.append(
        f"{'point':<{width}}  {'mean score (95% CI)':<24}  {column:>12}  vs {base.label} (paired)"
    )
    for index, report in enumerate(reports):
        score = report.score
        low, high = score.mean - score.half_width, score.mean + score.half_width
        cell = f"{score.mean:.2f} ({low:.2f}-{high:.2f})"
        versus = ""
        if index:
            diff = differences(base, report, pairs[index - 1])["mean score"][2]
            versus = f"{signed(diff.value)} ({signed(diff.low)} to {signed(diff.high)})" + (
                "" if diff.significant else " n.s."
            )
        if ships:
            figure = _percent(report.sink_rate)
        else:
            figure = f"{histogram_moments(report.tally.lengths).mean:.2f} rounds"
        row = f"{report.label:<{width}}  {cell:<24}  {figure:>12}  {versus}"
        lines.append(row.rstrip())
    return "\n".join(lines)


# -- the logbook, as the paper sheet would read


def _track_line(track: Any) -> str:
    """A track as ticked boxes: ``X`` marked, ``.`` not, special boxes in brackets."""
    special = {p for positions in track.boxes.values() for p in positions}
    boxes = []
    for position in range(1, track.length + 1):
        mark = "X" if position <= track.marked else "."
        boxes.append(f"[{mark}]" if position in special else mark)
    return " ".join(boxes)


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "-"
    return str(value)


#: The logbook columns: (heading, key in a month's entry).
LOG_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Month", "month"),
    ("Voyage", "voyage"),
    ("Speed", "sailing_speed"),
    ("Stamina", "crew_stamina"),
    ("Armament", "armament"),
    ("Pirate", "pirate_power"),
    ("Route", "route"),
    ("Dist", "distance"),
    ("Prestige", "prestige_total"),
    ("Damage", "damage"),
    ("Scurvy", "scurvy"),
)


#: Logbook keys shown with another column, or below the row.
_NOT_COLUMNS = frozenset({"note", "start", "destination"})


def _columns(months: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The logbook's columns: those of :data:`LOG_COLUMNS` the entries have (all of them for
    an empty logbook), then any other key the flow wrote, in the order first written (a game
    played by the generic flow logs its round and its score counter)."""
    if not months:
        return list(LOG_COLUMNS)
    present = {key for entry in months for key in entry}
    columns = [
        (head, key)
        for head, key in LOG_COLUMNS
        if key in present or (key == "route" and "start" in present)
    ]
    known = {key for _, key in LOG_COLUMNS} | _NOT_COLUMNS
    for entry in months:
        for key in entry:
            if key not in known and all(key != k for _, k in columns):
                columns.append((key.replace("_", " ").capitalize(), key))
    return columns


def _month_row(
    entry: Mapping[str, Any], titles: Mapping[str, str], columns: Sequence[tuple[str, str]]
) -> dict[str, str]:
    row = {}
    for _, key in columns:
        if key == "route":
            # Places by the names on the map (spaces are cards with titles), ids otherwise.
            start, end = entry.get("start"), entry.get("destination")
            begin = titles.get(str(start), _cell(start))
            row[key] = begin if start == end else f"{begin} -> {titles.get(str(end), _cell(end))}"
        elif key in ("damage", "scurvy"):
            marks = int(entry.get(key) or 0)
            row[key] = "X" * marks if marks else "-"
        elif key == "voyage":
            row[key] = titles.get(str(entry.get(key)), _cell(entry.get(key)))
        else:
            row[key] = _cell(entry.get(key))
    return row


def render_logbook(played: Played, date: str) -> str:
    """One played game as the paper logbook would read: the Date, then month by month the
    sailing speed, crew stamina and armament written, the pirate, the route sailed, prestige,
    the damage and health boxes marked and the notes; then the tracks, final score and title."""
    from engine.sim_tally import NO_TITLE, SUNK, _winner_label

    game, result = played.game, played.result
    titles = {cid: str(card.get("title") or cid) for cid, card in game.cards.items()}
    title = str(game.ir.get("title") or game.ir["game"])
    out = [f"{title}: logbook of game {played.number} (game seed {played.seed}), {game.mode}"]
    # A game that tells itself (a game of turns with no paper logbook: ``narrate()``).
    narrate = getattr(game, "narrate", None)
    if callable(narrate):
        return "\n".join([*out, "", *narrate()])
    for index, months in enumerate(result.logbook):
        player = game.players[index] if index < len(game.players) else None
        name = player.name if player else f"player {index + 1}"
        columns = _columns(months)
        # "Captain" is Uncharted Passage's word (its logbook has voyages); else "Player".
        who = "Captain" if any("voyage" in entry for entry in months) or not months else "Player"
        out += ["", f"Date: {date}    {who}: {name}", ""]
        rows = [_month_row(entry, titles, columns) for entry in months]
        widths = {key: max([len(head), *(len(r[key]) for r in rows)]) for head, key in columns}
        out.append("  ".join(f"{head:<{widths[key]}}" for head, key in columns).rstrip())
        first = widths[columns[0][1]] if columns else 0
        for entry, row in zip(months, rows, strict=True):
            out.append("  ".join(f"{row[key]:<{widths[key]}}" for _, key in columns).rstrip())
            note = entry.get("note")
            if note:
                out.append(f"{'':<{first}}  note: {note}")
        if player is not None:
            for track in player.tracks.values():
                label = track.name.replace("_", " ").capitalize()
                out.append(f"{label + ' track':<22}{_track_line(track)}")
        sunk = index < len(result.sunk) and result.sunk[index]
        score = result.scores[index] if index < len(result.scores) else 0
        earned = result.titles[index] if index < len(result.titles) else ""
        out.append("")
        if sunk:
            out.append(f"The ship sank. Final score: {score} (nullified: lost to history)")
        elif result.team_score is not None:
            out.append(f"Final score: {score}")  # co-op: the title is the team's, below
        else:
            out.append(f"Final score: {score}    Title: {earned or NO_TITLE}")
    if result.team_score is not None:
        team_title = (result.titles[0] if result.titles else "") or (
            SUNK if any(result.sunk) else NO_TITLE
        )
        out += ["", f"Team score: {result.team_score}    Title: {team_title}"]
    if game.mode == "competitive":
        out += ["", f"Winner: {_winner_label(result.winner, played.game)}"]
    return "\n".join(out)
