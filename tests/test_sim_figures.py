"""What a designer decides from: the simulator's figures with their intervals, paired
comparisons, per-card figures, merged runs, every core, the HTML report, the sweep, the generic
flow of a game with no module of its own, and a Dask cluster (issue 18)."""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.cli import main
from engine import sim, sim_stats
from engine.loader import game_rules
from engine.sim_figures import CARD_CAVEAT, card_effects

ROOT = Path(__file__).resolve().parent.parent
FAKE = ROOT / "tests" / "fake_game"
FAKE_FOLDER = FAKE / "generated" / "fake_voyage"
REAL_FOLDER = ROOT / "generated" / "uncharted_passage"
HARSHER = REAL_FOLDER / "harsher_sea"


@pytest.fixture
def fake() -> Any:
    """Fake Voyage's Python (``tests/fake_game/cards/fake_voyage/natives.py``): the very module
    the engine loads by path beside the fake project's cards, as it loads any game's."""
    module = game_rules("fake_voyage", FAKE_FOLDER)
    assert module is not None and module.GAME_CLASS is not None
    return module


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake: Any) -> Path:
    """A project holding the compiled Fake Voyage (and a variant of it), as the current dir."""
    shutil.copytree(FAKE / "cards" / "fake_voyage", tmp_path / "cards" / "fake_voyage")
    target = tmp_path / "generated" / "fake_voyage"
    shutil.copytree(FAKE_FOLDER, target)
    # The engine checks the IR against the schema its build published beside it.
    shutil.copytree(FAKE / "generated" / "schema", tmp_path / "generated" / "schema")
    variant = target / "short_year"
    shutil.copytree(FAKE_FOLDER, variant)
    cards = json.loads((variant / "cards.json").read_text())
    cards["vocabulary"]["params"]["rounds"] = 6
    cards["variant"] = "short_year"
    (variant / "cards.json").write_text(json.dumps(cards))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``cardc`` in process; its exit status, stdout and stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- the accumulators


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-50, 200), min_size=2, max_size=80), st.integers(0, 79))
def test_moments_are_exact_and_merge_as_one(values: list[int], cut: int) -> None:
    whole, left, right = sim_stats.Moments(), sim_stats.Moments(), sim_stats.Moments()
    for index, value in enumerate(values):
        whole.add(value)
        (left if index < cut else right).add(value)
    assert left.merge(right) == whole
    assert whole.mean == pytest.approx(statistics.fmean(values))
    assert whole.variance == pytest.approx(statistics.variance(values), abs=1e-9)
    assert (whole.low, whole.high) == (min(values), max(values))
    histogram = Counter(values)
    assert sim_stats.histogram_moments(histogram) == whole
    assert sim_stats.histogram_quantile(histogram, 0.5) == statistics.median(values)


def test_intervals_are_the_textbook_ones() -> None:
    # Wilson's interval for 50 of 100: 0.4038 to 0.5962.
    low, high = sim_stats.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    m = sim_stats.Moments()
    for value in (1, 2, 3, 4, 5):
        m.add(value)
    assert m.half_width == pytest.approx(
        1.959964 * statistics.stdev([1, 2, 3, 4, 5]) / math.sqrt(5)
    )
    # Paired shares: only the discordant games matter.
    assert sim_stats.paired_share(0, 0, 100).half_width == 0
    diff = sim_stats.paired_share(30, 10, 100)
    assert diff.value == pytest.approx(0.2) and diff.significant


def test_a_difference_inside_its_noise_says_so_in_words() -> None:
    quiet = sim_stats.Difference(0.017, 0.031, False, 1000)
    sentence = sim_stats.verdict("player 2 minus player 1", quiet, " points")
    assert "not significant" in sentence and "cannot tell" in sentence
    loud = sim_stats.Difference(-3.2, 0.5, True, 1000)
    assert "significant at 95%" in sim_stats.verdict("mean score", loud)
    # One game (the seats' win shares of a 1-game run): no interval, not "+100.0 to +100.0".
    one = sim_stats.share_difference(0, 1, 1)
    sentence = sim_stats.verdict("Sea's win share minus Land's", one)
    assert "CI" not in sentence and "from one game: too few for an interval" in sentence
    assert "not" not in sim_stats.verdict("mean score", loud)


# -- a run's figures


def test_every_figure_has_its_spread_and_interval(fake: Any) -> None:
    played = [sim.play_one(FAKE_FOLDER, 9, n, "solo", "random") for n in range(1, 81)]
    scores = [p.result.scores[0] for p in played]
    report = sim.simulate(FAKE_FOLDER, 80, 9, "solo", "random")
    data = report.as_dict()
    assert data["score"]["sd"] == pytest.approx(statistics.stdev(scores), abs=1e-4)
    half = 1.959964 * statistics.stdev(scores) / math.sqrt(80)
    low, high = data["score"]["ci95"]
    assert low == pytest.approx(statistics.fmean(scores) - half, abs=1e-3)
    assert high == pytest.approx(statistics.fmean(scores) + half, abs=1e-3)
    assert data["score"]["histogram"] == {str(k): v for k, v in sorted(Counter(scores).items())}
    # The length and the end reason, from each game's logbook and event log.
    lengths = Counter(len(p.result.logbook[0]) for p in played)
    assert report.tally.lengths == lengths
    ends: Counter[str] = Counter()
    for p in played:
        full = [e[2] for e in p.game.events if e[0] == "track_full"]
        ends[f"sunk by {full[0]}" if p.result.sunk[0] else sim.PLAYED_OUT] += 1
    assert report.tally.ends == ends
    assert set(ends) >= {sim.PLAYED_OUT, "sunk by durability"}
    sink = data["sink"]
    assert sink["ci95"][0] < sink["share"] < sink["ci95"][1]
    text = sim.render_report(report)
    for words in ("95% CI", "sd ", "score distribution", "end of the game", "game length"):
        assert words in text


def test_win_shares_per_seat_with_a_sentence(fake: Any) -> None:
    report = sim.simulate(FAKE_FOLDER, 300, 2, "competitive", "random")
    data = report.as_dict()
    shares = data["win_share"]
    assert sum(s["count"] for s in shares.values()) == 300
    for share in shares.values():
        assert share["ci95"][0] <= share["share"] <= share["ci95"][1]
    seats = data["seat_difference"]
    expected = 100 * (report.tally.wins["player 2"] - report.tally.wins["player 1"]) / 300
    assert seats["difference"] == pytest.approx(expected, abs=1e-3)
    text = sim.render_report(report)
    verdict = "not significant" if not seats["significant"] else "significant at 95%"
    assert "Player 2's win share minus player 1's" in text and verdict in text


# -- paired comparisons


def test_compare_is_paired_on_the_same_seeds(project: Path) -> None:
    base = project / "generated" / "fake_voyage"
    short = base / "short_year"
    run = sim.run_points([sim.Point.of(base), sim.Point.of(short)], 120, 4, "solo", "random")
    pair = run.pairs[0]
    differences = []
    for n in range(1, 121):
        a = sim.play_one(base, 4, n, "solo", "random").result.scores[0]
        b = sim.play_one(short, 4, n, "solo", "random").result.scores[0]
        differences.append(b - a)
    assert pair.score.n == 120
    assert pair.score.mean == pytest.approx(statistics.fmean(differences))
    assert pair.score.variance == pytest.approx(statistics.variance(differences))
    assert run.reports[1].variant == "short_year" and run.reports[1].label == "short_year"


@pytest.mark.skipif(not HARSHER.is_dir(), reason="harsher_sea is not compiled")
def test_pairing_narrows_the_interval_of_a_real_variant() -> None:
    from engine.sim_figures import differences

    run = sim.run_points(
        [sim.Point.of(REAL_FOLDER), sim.Point.of(HARSHER)], 400, 1, "solo", "greedy"
    )
    figures = differences(run.reports[0], run.reports[1], run.pairs[0])
    _, _, paired, unpaired = figures["mean score"]
    assert unpaired is not None and paired.paired
    assert paired.half_width < 0.8 * unpaired.half_width
    assert paired.value < 0 and paired.significant  # a harsher sea costs prestige
    assert figures["sink rate"][2].value > 0


@pytest.mark.skipif(not (REAL_FOLDER.parent / "land_vs_sea").is_dir(), reason="not compiled")
def test_a_game_without_ships_or_titles_compares_neither() -> None:
    # Land vs Sea has no ship to sink and no title to earn: a comparison of two of its layer
    # mixes has no "sink rate" row and no "title: (no title)" row, only what can differ.
    from engine.sim_figures import differences

    lvs = REAL_FOLDER.parent / "land_vs_sea"
    run = sim.run_points(
        [sim.Point.of(lvs), sim.Point.of(lvs / "experienced")],
        4,
        1,
        "competitive",
        "greedy",
        players=2,
        jobs=1,
    )
    figures = differences(run.reports[0], run.reports[1], run.pairs[0])
    assert "mean score" in figures and "game length" in figures
    assert "sink rate" not in figures
    assert not [f for f in figures if f.startswith("title")]
    assert {"wins: Land", "wins: Sea"} & set(figures)


def test_cli_compare_prints_each_difference(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        capsys, "sim", "fake_voyage", "--games", "200", "--compare", "short_year", "--jobs", "1"
    )
    assert status == 0, err
    assert "short_year against base" in out and "paired" in out
    for figure in ("mean score", "sink rate", "game length", "unpaired would be"):
        assert figure in out
    status, out, _ = run_cli(
        capsys, "sim", "fake_voyage", "--variant", "short_year", "--compare", "base", "--json"
    )
    data = json.loads(out)
    assert [p["variant"] for p in data["points"]] == ["short_year", None]
    assert data["differences"][0]["mean score"]["paired"] is True
    status, _, err = run_cli(capsys, "sim", "fake_voyage", "--compare", "short_yaer")
    assert status == 2 and "did you mean 'short_year'?" in err


# -- per-card figures


@pytest.mark.skipif(not REAL_FOLDER.is_dir(), reason="Uncharted Passage is not compiled")
def test_per_card_figures_count_the_event_log() -> None:
    report = sim.simulate(REAL_FOLDER, 60, 3, "solo", "greedy")
    drawn: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for n in range(1, 61):
        game = sim.play_one(REAL_FOLDER, 3, n, "solo", "greedy").game
        drawn.update({c for e in game.events if e[0] == "draw" for c in e[4]})
        # Played: a ``play`` event, or a card a rule discards (Smoke Bomb's ``discard self``).
        played.update({e[2] for e in game.events if e[0] in ("play", "discard")})
    assert {c: t.drawn.n for c, t in report.tally.cards.items()} == dict(drawn)
    assert {c: t.played.n for c, t in report.tally.cards.items() if t.played.n} == dict(played)
    assert played, "the greedy captain plays some Port Cards"
    card = next(iter(played))
    effect_played, effect_drawn = card_effects(report, card)
    assert effect_drawn is not None
    tally = report.tally.cards[card]
    if effect_played is not None:
        assert effect_played.value == pytest.approx(tally.played.mean - tally.unplayed.mean)
    text = sim.render_report(report)
    assert "Figurehead" in text and CARD_CAVEAT[:40] in " ".join(text.split())


def test_a_draw_names_the_cards_drawn() -> None:
    from engine.runtime import Context, Game

    ir = json.loads((FAKE_FOLDER / "cards.json").read_text())
    game = Game(ir)
    game.board["deck:port_cards"] = ["a", "b", "c"]
    game.draw(Context(game.players[0], "", "t"), "port_cards", 2)
    assert game.events[-1] == ("draw", 0, "port_cards", 2, ["a", "b"])


# -- every core, merging, JSON


def test_jobs_give_the_same_bytes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("sim", "fake_voyage", "--games", "1300", "--seed", "5", "--mode", "competitive")
    one = run_cli(capsys, *argv, "--jobs", "1", "--json")
    two = run_cli(capsys, *argv, "--jobs", "2", "--json")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]
    assert len(sim.chunks_of(1300)) == 3
    text_one = run_cli(capsys, *argv, "--jobs", "1")[1]
    assert text_one == run_cli(capsys, *argv, "--jobs", "3")[1]


def test_the_json_names_the_run_and_runs_merge(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("sim", "fake_voyage", "--variant", "short_year", "--policy", "random", "--json")
    first = run_cli(capsys, *argv, "--games", "300", "--seed", "1")[1]
    second = run_cli(capsys, *argv, "--games", "200", "--seed", "2")[1]
    data = json.loads(first)
    for key, value in (
        ("game", "fake_voyage"),
        ("variant", "short_year"),
        ("policy", "random"),
        ("mode", "solo"),
        ("seed", 1),
    ):
        assert data[key] == value
    assert sum(data["score"]["histogram"].values()) == 300
    (project / "a.json").write_text(first)
    (project / "b.json").write_text(second)
    status, out, err = run_cli(capsys, "sim", "--merge", "a.json", "b.json", "--json")
    assert status == 0, err
    merged = json.loads(out)
    assert merged["games"] == 500 and merged["runs"] == [
        {"seed": 1, "games": 300},
        {"seed": 2, "games": 200},
    ]
    one = sim.SimReport.from_dict(json.loads(first))
    two = sim.SimReport.from_dict(json.loads(second))
    assert merged["tally"] == one.merged(two).tally.as_dict()
    counts = Counter({int(k): v for k, v in data["score"]["histogram"].items()})
    counts.update({int(k): v for k, v in json.loads(second)["score"]["histogram"].items()})
    assert merged["score"]["histogram"] == {str(k): counts[k] for k in sorted(counts)}
    # The same seed twice would count the same games twice.
    status, _, err = run_cli(capsys, "sim", "--merge", "a.json", "a.json")
    assert status == 2 and "master seed 1" in err
    (project / "bad.json").write_text("{")
    status, _, err = run_cli(capsys, "sim", "--merge", "a.json", "bad.json")
    assert status == 2 and "bad.json:1:2" in err and "Traceback" not in err


# -- the HTML report and the sweep


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1


def test_report_html_has_the_plots(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys,
        "sim",
        "fake_voyage",
        "--games",
        "200",
        "--compare",
        "short_year",
        "--report",
        "r.html",
    )
    assert status == 0, err and "report written to r.html" in out
    page = (project / "r.html").read_text()
    tags = _Tags()
    tags.feed(page)
    assert tags.tags["svg"] >= 1 and tags.tags["path"] >= 2  # one distribution per point
    assert "Score distribution" in page and "short_year" in page and "<script" not in page
    again = run_cli(
        capsys,
        "sim",
        "fake_voyage",
        "--games",
        "200",
        "--compare",
        "short_year",
        "--report",
        "s.html",
    )
    assert again[0] == 0 and (project / "s.html").read_text() == page


def test_sweep_over_a_param_grid(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys,
        "sweep",
        "fake_voyage",
        "--param",
        "rounds=4,8,12",
        "--games",
        "150",
        "--report",
        "sweep.html",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    assert [p["params"] for p in data["points"]] == [{"rounds": 4}, {"rounds": 8}, {"rounds": 12}]
    assert [p["length"]["max"] for p in data["points"]] == [4, 8, 12]
    assert data["differences"][0]["game length"]["difference"] > 0
    page = (project / "sweep.html").read_text()
    assert "Mean score across the sweep" in page and ">rounds<" in page
    status, _, err = run_cli(capsys, "sweep", "fake_voyage", "--param", "rouns=4,8")
    assert status == 2 and "did you mean 'rounds'?" in err
    status, _, err = run_cli(capsys, "sweep", "fake_voyage", "--param", "rounds")
    assert status == 2 and "NAME=VALUE" in err


def test_a_param_override_changes_the_game(fake: Any) -> None:
    report = sim.simulate(FAKE_FOLDER, 20, 1, "solo", "random", params={"rounds": 3})
    assert max(report.tally.lengths) == 3 and report.label == "rounds=3"
    with pytest.raises(sim.SimError, match="no param 'turns'"):
        sim.simulate(FAKE_FOLDER, 1, 1, params={"turns": 3})


# -- a game made with cardc new


DIE_CARD = """card "Lucky Find" {
  copies 3
  on play {
    gain victory_points 2
  }
}

card "Bad Trade" {
  copies 3
  on play {
    lose victory_points 1
  }
}
"""


@pytest.fixture
def new_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game made with ``cardc new``, with cards that score, built."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "pebble"]) == 0
    root = tmp_path / "pebble"
    (root / "cards" / "pebble" / "cards.cards").write_text(DIE_CARD)
    monkeypatch.chdir(root)
    assert main(["build"]) == 0
    return root


def test_a_new_game_simulates_with_no_python(
    new_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    status, out, err = run_cli(capsys, "sim", "pebble", "--games", "100", "--policy", "random")
    assert status == 0, err
    assert "Pebble" in out and "Lucky Find" in out
    random_mean = json.loads(
        run_cli(capsys, "sim", "pebble", "--games", "100", "--policy", "random", "--json")[1]
    )["score"]["mean"]
    smart = json.loads(
        run_cli(capsys, "sim", "pebble", "--games", "100", "--policy", "lookahead", "--json")[1]
    )
    # The lookahead plays Lucky Find and never Bad Trade: two points a card it plays.
    assert smart["score"]["mean"] > random_mean
    assert smart["cards"].get("bad_trade", {}).get("played", 0) == 0
    assert smart["cards"]["lucky_find"]["played"] > 0
    folder = new_game / "generated" / "pebble"
    first = sim.play_one(folder, 1, 1, "competitive", "lookahead")
    assert (
        first.result.scores == sim.play_one(folder, 1, 1, "competitive", "lookahead").result.scores
    )
    # Ten rounds ("param rounds 10"), one draw a turn: every turn is in the logbook.
    assert [m["round"] for m in first.result.logbook[0]] == list(range(1, 11))
    text = sim.render_logbook(first, "2026-12-01")
    header = next(line for line in text.splitlines() if line.startswith("Round"))
    assert header.split() == ["Round", "Victory", "points"] and "Player: player 1" in text
    assert "note: played Lucky Find" in text
    status, _, err = run_cli(capsys, "sim", "pebble", "--policy", "greedyy")
    assert status == 2 and "lookahead" in err


def test_a_new_game_without_a_score_says_what_to_declare(
    new_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_file = new_game / "cards" / "pebble" / "game.cards"
    game_file.write_text(game_file.read_text().replace("  score victory_points\n", ""))
    capsys.readouterr()
    assert main(["build"]) == 0
    capsys.readouterr()
    status, _, err = run_cli(capsys, "sim", "pebble", "--games", "5")
    assert status == 2 and "score counter" in err and "Traceback" not in err


# -- a Dask cluster


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        if os.environ.get("CI"):
            raise  # CI installs the [cluster] extra: a missing one is a failure, not a skip
        return None
    return distributed


@pytest.mark.skipif(_distributed() is None, reason="the [cluster] extra is not installed")
@pytest.mark.skipif(not REAL_FOLDER.is_dir(), reason="Uncharted Passage is not compiled")
def test_a_local_dask_cluster_gives_the_local_results() -> None:
    from distributed import LocalCluster

    from engine import sim_cluster

    points = [sim.Point.of(REAL_FOLDER), sim.Point.of(HARSHER)]
    local = sim.run_points(points, 1100, 7, "solo", "greedy", jobs=1)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = sim.run_points(
            points, 1100, 7, "solo", "greedy", executor=sim_cluster.executor(cluster)
        )
        # And through the command line, given the scheduler's address: sim and sweep.
        address = cluster.scheduler_address
        argv = ("sim", "uncharted_passage", "--games", "600", "--compare", "harsher_sea")
        on_cluster = _cli_out(*argv, "--json", "--scheduler", address)
        sweep = ("sweep", "uncharted_passage", "--param", "rounds=11,12", "--games", "300")
        sweep_on_cluster = _cli_out(*sweep, "--json", "--scheduler", address)
    assert [r.as_dict() for r in remote.reports] == [r.as_dict() for r in local.reports]
    assert [p.as_dict() for p in remote.pairs] == [p.as_dict() for p in local.pairs]
    assert on_cluster == _cli_out(*argv, "--json", "--jobs", "1")
    assert sweep_on_cluster == _cli_out(*sweep, "--json", "--jobs", "1")


def _cli_out(*argv: str) -> str:
    """``cardc`` run in a child process (its stdout): the CLI as a user runs it."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "compiler.cli", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_no_scheduler_is_an_error_with_a_hint(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine import sim_cluster

    monkeypatch.setattr(sim_cluster, "CONNECT_TIMEOUT", 1)
    status, _, err = run_cli(
        capsys, "sim", "fake_voyage", "--games", "5", "--scheduler", "tcp://127.0.0.1:9"
    )
    assert status == 2 and "Traceback" not in err
    assert "dask" in err.lower()
