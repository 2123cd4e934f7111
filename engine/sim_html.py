"""``cardc sim --report FILE.html``: one static HTML page with the run's figures and plots.

The plots are SVG drawn here and written inline by a jinja2 template (jinja2 is already what
cardc's code generator uses): the page has no script, no stylesheet or font to fetch, opens in
any browser and prints; the same run writes the same bytes. A plotting library (matplotlib,
plotly) would bring a large dependency, or a script and a CDN, for three simple charts:
overlaid score distributions, per-card effects with their intervals, and a sweep's curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import jinja2

from engine.sim_stats import Difference, histogram_moments

if TYPE_CHECKING:
    from engine.sim import PairTally, SimReport

#: Colours of the points, in order (readable on white, distinct for colour-blind readers).
COLOURS = ("#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6a4c93", "#00798c")

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 40

_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 900px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { padding: 2px 10px; text-align: right; border-bottom: 1px solid #ddd; }
td:first-child, th:first-child { text-align: left; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
.note { color: #555; font-size: 13px; }
</style></head><body>
<h1>{{ title }}</h1>
<table>
<tr><th>point</th><th>variant</th><th>params</th><th>policy</th><th>mode</th>
<th>seeds</th><th>games</th><th>mean score (95% CI)</th><th>sink rate</th></tr>
{% for p in points %}<tr><td style="color:{{ p.colour }}">&#9632;&nbsp;{{ p.label }}</td>
<td>{{ p.variant }}</td><td>{{ p.params }}</td><td>{{ p.policy }}</td>
<td>{{ p.mode }}</td><td>{{ p.seeds }}</td><td>{{ p.games }}</td><td>{{ p.mean }}</td>
<td>{{ p.sink }}</td></tr>
{% endfor %}</table>
{% for chart in charts %}<h2>{{ chart.title }}</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}" height="{{ chart.height }}"
 viewBox="0 0 {{ width }} {{ chart.height }}" role="img" aria-label="{{ chart.title }}">
{% for l in chart.lines %}<line x1="{{ l[0] }}" y1="{{ l[1] }}" x2="{{ l[2] }}" y2="{{ l[3] }}"
 stroke="{{ l[4] }}" stroke-width="{{ l[5] }}"/>
{% endfor %}{% for r in chart.rects %}<rect x="{{ r[0] }}" y="{{ r[1] }}" width="{{ r[2] }}"
 height="{{ r[3] }}" fill="{{ r[4] }}" fill-opacity="{{ r[5] }}"/>
{% endfor %}{% for p in chart.paths %}<path d="{{ p[0] }}" fill="{{ p[2] }}" stroke="{{ p[1] }}"
 stroke-width="2" fill-opacity="0.15"/>
{% endfor %}{% for t in chart.texts %}<text x="{{ t[0] }}" y="{{ t[1] }}"
 text-anchor="{{ t[3] }}">{{ t[2] }}</text>
{% endfor %}</svg>
{% if chart.note %}<p class="note">{{ chart.note }}</p>{% endif %}
{% endfor %}
{% if differences %}<h2>Differences against {{ points[0].label }}</h2>
<table><tr><th>figure</th><th>point</th><th>difference</th><th>95% CI</th><th></th></tr>
{% for d in differences %}<tr><td>{{ d.figure }}</td><td>{{ d.point }}</td><td>{{ d.value }}</td>
<td>{{ d.interval }}</td><td>{{ d.verdict }}</td></tr>
{% endfor %}</table>{% endif %}
</body></html>
"""


def _f(value: float) -> str:
    return f"{value:.1f}"


class _Chart:
    """An SVG chart being drawn: lines, rectangles, paths and labels in pixel coordinates."""

    def __init__(self, title: str, height: int = HEIGHT, note: str = "") -> None:
        self.title = title
        self.height = height
        self.note = note
        self.lines: list[tuple[str, str, str, str, str, str]] = []
        self.rects: list[tuple[str, str, str, str, str, str]] = []
        self.paths: list[tuple[str, str, str]] = []
        self.texts: list[tuple[str, str, str, str]] = []

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#888") -> None:
        """A line."""
        self.lines.append((_f(x1), _f(y1), _f(x2), _f(y2), colour, "1"))

    def text(self, x: float, y: float, words: str, anchor: str = "middle") -> None:
        """A label."""
        self.texts.append((_f(x), _f(y), words, anchor))

    def axes(self, y_low: float, y_high: float, y_label: str) -> None:
        """The y axis with five ticks and the x axis line."""
        bottom = self.height - BOTTOM
        self.line(LEFT, TOP, LEFT, bottom)
        self.line(LEFT, bottom, WIDTH - RIGHT, bottom)
        for step in range(5):
            value = y_low + (y_high - y_low) * step / 4
            y = bottom - (bottom - TOP) * step / 4
            self.line(LEFT - 4, y, LEFT, y)
            self.text(LEFT - 6, y + 4, f"{value:.3g}", "end")
        self.text(12, TOP - 4, y_label, "start")


def _ticks(low: float, high: float, count: int = 8) -> list[float]:
    span = max(high - low, 1e-9)
    step = 10 ** int(f"{span / count:e}".split("e")[1])
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= count:
            step *= factor
            break
    first = (low // step) * step
    ticks, value = [], first
    while value <= high + 1e-9:
        if value >= low - 1e-9:
            ticks.append(value)
        value += step
    return ticks


def score_chart(reports: Sequence[SimReport]) -> _Chart:
    """The score distributions of every point, overlaid (share of samples per score bin)."""
    from engine.sim_render import bin_width, binned

    chart = _Chart("Score distribution", note="Share of games (or players) per score bin.")
    low = min(min(r.tally.scores) for r in reports)
    high = max(max(r.tally.scores) for r in reports)
    width = bin_width(low, high, 30)
    series = []
    for report in reports:
        total = sum(report.tally.scores.values())
        series.append(
            [(start, count / total) for start, count in binned(report.tally.scores, width)]
        )
    top = max(share for points in series for _, share in points) or 1.0
    chart.axes(0, top, "share")
    bottom = HEIGHT - BOTTOM
    x_low, x_high = (low // width) * width, (high // width) * width + width

    def x(value: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (value - x_low) / max(x_high - x_low, 1)

    for tick in _ticks(x_low, x_high):
        chart.line(x(tick), bottom, x(tick), bottom + 4)
        chart.text(x(tick), bottom + 16, f"{tick:g}")
    chart.text((LEFT + WIDTH) / 2, HEIGHT - 6, "score")
    for index, points in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        d = f"M {_f(x(points[0][0]))} {_f(bottom)}"
        for start, share in points:
            y = bottom - (bottom - TOP) * share / top
            d += f" L {_f(x(start))} {_f(y)} L {_f(x(start + width))} {_f(y)}"
        d += f" L {_f(x(points[-1][0] + width))} {_f(bottom)} Z"
        chart.paths.append((d, colour, colour))
    return chart


def card_chart(report: SimReport) -> _Chart | None:
    """Per-card effect estimates of the first point, with their 95% intervals."""
    from engine.sim_figures import CARD_CAVEAT, card_effects

    titles = dict(report.card_titles)
    rows: list[tuple[str, Difference, str]] = []
    for card in sorted(report.tally.cards, key=lambda c: (titles.get(c, c), c)):
        played, drawn = card_effects(report, card)
        name = titles.get(card, card)
        if drawn is not None:
            rows.append((f"{name}: drawn vs not", drawn, COLOURS[0]))
        if played is not None:
            rows.append((f"{name}: played vs unplayed", played, COLOURS[1]))
    if not rows:
        return None
    row_height = 20
    height = TOP + BOTTOM + row_height * len(rows)
    chart = _Chart(f"Per-card effects ({report.label})", height, CARD_CAVEAT)
    label_width = 230
    ends = [v for _, d, _ in rows for v in (d.low, d.high)] + [0.0]
    low, high = min(ends), max(ends)

    def x(value: float) -> float:
        return label_width + (WIDTH - label_width - RIGHT) * (value - low) / max(high - low, 1e-9)

    bottom = height - BOTTOM
    chart.line(x(0), TOP - 4, x(0), bottom, "#222")
    for tick in _ticks(low, high, 6):
        chart.line(x(tick), bottom, x(tick), bottom + 4)
        chart.text(x(tick), bottom + 16, f"{tick:+g}")
    chart.text((label_width + WIDTH) / 2, height - 6, "difference in mean score (95% CI)")
    for index, (name, diff, colour) in enumerate(rows):
        y = TOP + row_height * index + row_height / 2
        chart.text(label_width - 8, y + 4, name, "end")
        chart.lines.append((_f(x(diff.low)), _f(y), _f(x(diff.high)), _f(y), colour, "2"))
        chart.rects.append((_f(x(diff.value) - 3), _f(y - 3), "6", "6", colour, "1"))
    return chart


def sweep_chart(reports: Sequence[SimReport]) -> _Chart:
    """Each point's mean score with its 95% interval. When the first swept param is a number at
    every point, it is the x axis and each variant (and value of any other param) is a curve of
    its own; otherwise the points stand side by side, unjoined."""
    chart = _Chart("Mean score across the sweep", note="The bands are the 95% intervals.")
    numeric = all(r.params and isinstance(r.params[0][1], (int, float)) for r in reports)
    series: dict[str, list[tuple[float, SimReport]]] = {}
    for index, report in enumerate(reports):
        if numeric:
            rest = " ".join(f"{k}={v}" for k, v in report.params[1:])
            key = " ".join(part for part in (report.variant or "", rest) if part) or "base"
            series.setdefault(key, []).append((float(report.params[0][1]), report))
        else:
            series.setdefault(report.label, []).append((float(index), report))
    lows = [r.score.mean - r.score.half_width for r in reports]
    highs = [r.score.mean + r.score.half_width for r in reports]
    y_low, y_high = min(lows), max(highs)
    if y_high - y_low < 1e-9:
        y_low, y_high = y_low - 1, y_high + 1
    chart.axes(y_low, y_high, "mean score")
    bottom = HEIGHT - BOTTOM
    xs = sorted({x for points in series.values() for x, _ in points})
    x_low, x_high = xs[0], xs[-1]

    def x(value: float) -> float:
        span = max(x_high - x_low, 1e-9)
        return LEFT + 20 + (WIDTH - LEFT - RIGHT - 140) * (value - x_low) / span

    def y(value: float) -> float:
        return bottom - (bottom - TOP) * (value - y_low) / (y_high - y_low)

    for index, (name, points) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        points.sort(key=lambda item: item[0])
        tops = [(a, r.score.mean + r.score.half_width) for a, r in points]
        lows_ = [(a, r.score.mean - r.score.half_width) for a, r in reversed(points)]
        outline = " L ".join(f"{_f(x(a))} {_f(y(b))}" for a, b in tops + lows_)
        chart.paths.append((f"M {outline} Z", "none", colour))
        if len(points) > 1:
            curve = " L ".join(f"{_f(x(a))} {_f(y(r.score.mean))}" for a, r in points)
            chart.paths.append((f"M {curve}", colour, "none"))
        for a, report in points:
            chart.rects.append((_f(x(a) - 3), _f(y(report.score.mean) - 3), "6", "6", colour, "1"))
        last_x, last = points[-1]
        chart.text(x(last_x) + 8, y(last.score.mean) + 4, name, "start")
    for value in xs:
        chart.line(x(value), bottom, x(value), bottom + 4)
        label = f"{value:g}" if numeric else reports[int(value)].label
        chart.text(x(value), bottom + 16, label)
    if numeric:
        chart.text((LEFT + WIDTH) / 2, HEIGHT - 6, reports[0].params[0][0])
    return chart


def render(
    reports: Sequence[SimReport],
    pairs: Sequence[PairTally],
    kind: str = "sim",
    cards: bool = True,
) -> str:
    """The HTML report of a run (one point), a comparison or a sweep."""
    from engine.sim_figures import differences
    from engine.sim_stats import signed

    base = reports[0]
    points = []
    for index, report in enumerate(reports):
        score = report.score
        points.append(
            {
                "colour": COLOURS[index % len(COLOURS)],
                "label": report.label,
                "game": report.game,
                "variant": report.variant or "-",
                "params": ", ".join(f"{k}={v}" for k, v in report.params) or "-",
                "policy": report.policy,
                "mode": report.mode,
                "seeds": ", ".join(str(s) for s, _ in report.runs),
                "games": f"{report.games:,}",
                "mean": f"{score.mean:.2f} ({score.mean - score.half_width:.2f} to "
                f"{score.mean + score.half_width:.2f})",
                # A game without ships has no sink rate to show.
                "sink": f"{100 * report.sink_rate:.1f}%" if report.tally.ships_sink else "-",
            }
        )
    charts: list[_Chart] = [score_chart(reports)]
    if kind == "sweep":
        charts.append(sweep_chart(reports))
    if cards:
        chart = card_chart(base)
        if chart is not None:
            charts.append(chart)
    rows: list[dict[str, Any]] = []
    for report, pair in zip(reports[1:], pairs, strict=True):
        for name, (_, _, diff, _) in differences(base, report, pair).items():
            scale = 1 if name in ("mean score", "game length") else 100
            rows.append(
                {
                    "figure": name,
                    "point": report.label,
                    "value": signed(diff.value * scale),
                    "interval": f"{signed(diff.low * scale)} to {signed(diff.high * scale)}",
                    "verdict": "significant" if diff.significant else "not significant",
                }
            )
    environment = jinja2.Environment(autoescape=True, keep_trailing_newline=True)
    moments = histogram_moments(base.tally.scores)
    title = f"{base.title} ({base.game}): {base.games:,} {base.mode} games, policy {base.policy}"
    if len(reports) == 1:
        title += f" ({base.label}, mean {moments.mean:.2f})"
    return environment.from_string(_TEMPLATE).render(
        title=title, points=points, charts=charts, width=WIDTH, differences=rows
    )
