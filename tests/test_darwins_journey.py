"""Darwin's Journey: Pirates in whole games, over the modelled base game (the host).

The rules sentence by sentence are scenarios (tests/scenarios/darwins_journey/); these tests
play whole seeded games through the simulator's own binding and check what no single step
shows: every rule of the expansion happens in play and changes the outcome, the host and the
expansion call each other both ways, the Compatibility diagram's marks decide where the
Pirate Ship may go, and games are deterministic. Quoted sentences are from the rulebook
(``darwins-journey-pirates.txt``). Run ``cardc build`` first.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.flow import FlowGame
from engine.loader import rules_module
from engine.runtime import Context, Game, Player
from engine.sim import Simulator

#: The very module the engine binds to the game: cards/darwins_journey/natives.py.
dj = rules_module("darwins_journey")

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "darwins_journey"


def simulator(variant: str = "") -> Simulator:
    """The compiled game (or one of its variants), as ``cardc sim`` loads it."""
    return Simulator(GENERATED / variant if variant else GENERATED)


def play(seed: int, players: int, policy: str = "greedy", variant: str = "") -> Any:
    """One whole game; the game after play."""
    sim = simulator(variant)
    mode = "solo" if players == 1 else "competitive"
    game = sim.new_game(seed, players, mode, sim.factory(policy))
    game.result_after = game.play()  # type: ignore[attr-defined]
    return game


def events(game: Game, kind: str) -> list[tuple[Any, ...]]:
    """The game's events of one kind (``take_treasure``, ``pirate_ship`` ...)."""
    return [e for e in game.events if e[0] == kind]


def test_setup_places_a_treasure_token_on_each_of_the_nine_campsites() -> None:
    # "Place 1 Treasure token onto each Campsite location on the Island and Ocean tracks."
    # "9 Silkscreen printed Treasure tokens": the model has 9 Campsites on the two tracks.
    sim = simulator()
    game = sim.new_game(1, 2, "competitive", sim.factory("greedy"))
    assert isinstance(game, dj.DarwinsJourney)
    game.run_section("setup")
    assert list(game.board["treasure"].values()) == [1] * 9
    tracks = Counter(dj.geometry.prop(game, site, "track") for site in dj.geometry.campsites(game))
    assert tracks == {"ocean": 5, "island": 4}
    # "Place the Pirate Ship near the main board": in the supply, in no Ocean Region.
    assert game.board["pirate_region"] is None
    # "Shuffle the Pirate Crew cards with the base game Crew cards."
    crew = game.board["crew_deck"] + game.board["crew_display"]
    assert sorted(crew) == sorted(dj.geometry.cards_of(game, "crew"))
    assert {"p1", "p2", "p3", "p4"} <= set(crew)
    # "only draw 5 random Special Action tiles. Then add the Pirate Special Action tile".
    diary = game.board["diary"]
    assert len(diary) == 6 and "pirate" in diary
    assert sum("base" in game.cards[t]["tags"] for t in diary) == 5


def test_the_compatibility_marks_are_where_the_pirate_ship_may_go() -> None:
    # "Base Game: the first (leftmost) map section is marked NO; the other five sections are
    # marked OK." The leftmost holds the Ocean track starting space, which is no Ocean Region.
    base = simulator().new_game(1, 1, "solo", simulator().factory("greedy"))
    assert dj.geometry.ocean_regions(base) == [f"section_{n}" for n in range(2, 7)]
    assert dj.geometry.starting_section(base).id == "section_1"
    # "Fireland Expansion: the leftmost map section is marked NO. In the two middle-right
    # sections, the upper part is marked NO and the lower part is marked OK."
    fire = simulator("fireland")
    fireland = fire.new_game(1, 1, "solo", fire.factory("greedy"))
    assert dj.geometry.ocean_regions(fireland) == [
        "section_2",
        "section_3",
        "section_4_lower",
        "section_5_lower",
        "section_6",
    ]
    assert "section_4_upper" in dj.geometry.all_regions(fireland)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_whole_games_play_to_the_end_and_are_deterministic(players: int, policy: str) -> None:
    first = play(5, players, policy)
    again = play(5, players, policy)
    assert first.result_after.scores == again.result_after.scores
    assert first.events == again.events
    assert len(first.result_after.scores) == players
    assert first.round == 5
    # Every worker of every round was placed, or had no legal location.
    placed = len(events(first, "worker"))
    assert placed >= 5 * 3 * players - len(events(first, "no_location"))


def test_every_rule_of_the_expansion_happens_in_play() -> None:
    seen: Counter[str] = Counter()
    crew_used: set[str] = set()
    for seed in range(1, 41):
        game = play(seed, 3, "random" if seed % 2 else "greedy")
        seen.update(e[0] for e in game.events)
        crew_used.update(e[2] for e in events(game, "hire"))
    # Taking the Treasure, moving the Pirate Ship, raids, Treasure returned to the box.
    for kind in ("take_treasure", "pirate_ship", "return_treasure", "tent", "campsite_rewards"):
        assert seen[kind] > 0, kind
    # P2 returns a worker, P3 takes discarded Objectives, P1's Specimens are free.
    assert {"p1", "p2", "p3", "p4"} <= crew_used
    assert seen["return_worker"] > 0 and seen["take_objective"] > 0


def test_the_pirate_special_action_is_taken_in_play_and_locked_until_unlocked() -> None:
    taken_early = 0
    for seed in range(1, 31):
        game = play(seed, 2)
        diary = game.board["diary"]
        activated = [
            (i, e)
            for i, e in enumerate(game.events)
            if e[:3] == ("decision", e[1], dj.SPECIAL_ACTION)
        ]
        for index, event in activated:
            tile = event[3]
            # A tile is only ever activated from an unlocked location of that round.
            rounds = [e for e in game.events[:index] if e[0] == "unlocked"]
            assert tile in rounds[-1][2].split(", ")
        position = diary.index("pirate")
        taken_early += position < 2 and any(e[3] == "pirate" for _, e in activated)
    assert taken_early > 0


def test_the_unlocked_variant_really_unlocks_the_pirate_tile_in_round_one() -> None:
    # "place the Pirate Special Action tile on one of the top locations of the Special
    # Action Diary so that the Pirate action is unlocked at the start of the game".
    locked_at_start = 0
    for seed in range(1, 21):
        base = play(seed, 2)
        unlocked = play(seed, 2, variant="pirate_unlocked")
        assert "pirate" in unlocked.board["diary"][:2]
        first_round = [e for e in unlocked.events if e[0] == "unlocked"][0]
        assert "pirate" in first_round[2].split(", ")
        locked_at_start += "pirate" not in base.board["diary"][:2]
    assert locked_at_start > 0


def test_without_the_pirates_nothing_of_the_expansion_happens() -> None:
    for seed in range(1, 11):
        game = play(seed, 3, variant="no_pirates")
        kinds = {e[0] for e in game.events}
        assert not kinds & {"take_treasure", "pirate_ship", "return_treasure", "treasure_placed"}
        assert all("base" in game.cards[t]["tags"] for t in game.board["diary"])
        assert len(game.board["diary"]) == 6
        assert game.figures["raid_coins"] == 0


def test_the_expansion_changes_the_outcome() -> None:
    differ = 0
    raided = 0
    for seed in range(1, 21):
        with_pirates = play(seed, 3)
        without = play(seed, 3, variant="no_pirates")
        differ += with_pirates.result_after.scores != without.result_after.scores
        raided += with_pirates.figures["raid_coins"] > 0
    assert differ >= 15 and raided >= 10


def test_the_pirate_scenario_sets_up_from_its_card() -> None:
    # "use the Pirate Scenario card (P1) to set up the Special Action tiles, Correspondence
    # tiles, Beagle Goal tiles, and Pirate Ship location ... Ignore the rest of the Pirate
    # Expansion setup steps."
    for seed in (1, 2):
        sim = simulator("pirate_scenario")
        game = sim.new_game(seed, 2, "competitive", sim.factory("greedy"))
        assert isinstance(game, dj.DarwinsJourney)
        game.run_section("setup")
        assert game.board["diary"] == [
            "pirate",
            "provisions",
            "sketchbook",
            "fair_winds",
            "field_guide",
            "letters",
        ]
        assert game.board["goal_tiles"] == [
            "far_shores",
            "deep_interior",
            "letters_from_home",
            "letters_to_henslow",
        ]
        assert game.board["pirate_region"] == "section_3"
        # The Treasure and Crew steps come before the Scenario step, so they still happen.
        assert list(game.board["treasure"].values()) == [1] * 9


class RecordingHost(dj.ModelledHost):
    """A host that records the operations the expansion asks of it, then does them."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def research_specimen(self, g: Game, c: Context, ignoring: str | None) -> None:
        """Record, then the modelled action."""
        self.calls.append((f"research_specimen:{ignoring}", c.player.index))
        super().research_specimen(g, c, ignoring)

    def return_worker(self, g: Game, c: Context) -> None:
        """Record, then the modelled action."""
        self.calls.append(("return_worker", c.player.index))
        super().return_worker(g, c)

    def take_objectives(self, g: Game, c: Context, amount: int) -> None:
        """Record, then the modelled action."""
        self.calls.append((f"take_objectives:{amount}", c.player.index))
        super().take_objectives(g, c, amount)

    def campsite_rewards(self, g: Game, c: Context) -> None:
        """Record, then the modelled action."""
        self.calls.append(("campsite_rewards", c.player.index))
        super().campsite_rewards(g, c)


def test_the_expansion_reaches_the_base_game_only_through_the_host_contract() -> None:
    calls: Counter[str] = Counter()
    for seed in range(1, 41):
        sim = simulator()
        game = sim.new_game(seed, 3, "competitive", sim.factory("random"))
        assert isinstance(game, dj.DarwinsJourney)
        host = RecordingHost()
        game.host = host
        game.play()
        calls.update(name for name, _ in host.calls)
        hired = [e[2] for e in events(game, "hire")]
        # P4's and P2's operations are asked exactly once per use of the card.
        assert sum(n == "campsite_rewards" for n, _ in host.calls) == hired.count("p4")
        assert sum(n == "return_worker" for n, _ in host.calls) == hired.count("p2")
    assert calls["research_specimen:coin_penalties"] > 0
    assert calls["take_objectives:2"] > 0


def test_the_host_calls_the_expansion_when_a_ship_passes_a_campsite() -> None:
    # "When a Ship or Explorer lands on or passes a Campsite location" -- the host's move
    # fires campsite_reached for each Campsite on the way, landing or passing.
    sim = simulator()
    game = sim.new_game(1, 1, "solo", sim.factory("greedy"))
    assert isinstance(game, dj.DarwinsJourney)
    game.run_section("setup")
    player: Player = game.players[0]
    player.counters["ship_space"] = 3
    dj.navigate(game, Context(player, "", "test"), 2)
    reached = [e for e in game.events if e[:2] == ("decision", 0) and "campsite_reached" in e[2]]
    # Space 4 (Bahia) is passed on the way to space 5.
    assert player.counters["ship_space"] == 5
    assert len(reached) == 1


def test_the_flow_plays_five_rounds_and_the_winner_has_most_points_then_coins() -> None:
    # The order of play is flow.cards, played by engine.flow.FlowGame: the modelled base
    # game's 5 rounds (param rounds, provisional), then the final scoring and the winner.
    game = play(3, 3)
    result = game.result_after
    assert isinstance(game, FlowGame)
    assert (result.reason, result.rounds) == ("rounds", 5)
    assert [len(lines) for lines in result.logbook] == [5, 5, 5]
    # The winner (modelled): the most victory points, then the most Coins; still tied, none.
    for player, (points, coins) in zip(game.players, [(9, 1), (9, 4), (3, 9)], strict=True):
        player.counters["victory_points"], player.counters["coins"] = points, coins
    assert game.result().winner == 1
    game.players[0].counters["coins"] = 4
    assert game.result().winner is None
    game.players[2].counters["victory_points"] = 10
    assert game.result().winner == 2


def test_the_flow_is_data_the_python_flow_is_gone() -> None:
    # The rounds, turns and scoring are the flow's phases, not methods of the game's class.
    for gone in ("play_game", "play_round", "turn_order", "reward_phase", "final_scoring"):
        assert not hasattr(dj.DarwinsJourney, gone), gone
    sim = simulator()
    game = sim.new_game(1, 2, "competitive", sim.factory("greedy"))
    flow = game.table.module.FLOW
    assert [name for name, _ in flow["round"]] == [
        "diary",
        "worker_placement",
        "reward_phase",
        "pirate_raid",
        "workers_return",
    ]
    assert [name for name, _ in flow["setup"]] == ["main_board_setup"]
    assert [name for name, _ in flow["end"]] == ["final_scoring"]


def test_the_starting_area_is_no_ocean_region_whatever_its_mark() -> None:
    # "An Ocean Region is the area between lagging penalties, not including the area with the
    # Ocean track starting space": the rule itself, not only the leftmost section's NO mark,
    # keeps the Pirate Ship out of it (a fuller host's strip might mark it otherwise).
    sim = simulator()
    game = sim.new_game(1, 1, "solo", sim.factory("greedy"))
    start = dj.geometry.starting_section(game).id
    card = game.cards[start]
    game.cards = {
        **game.cards,
        start: {**card, "properties": {**card["properties"], "pirate": "OK"}},
    }
    assert dj.geometry.prop(game, start, "pirate") == "OK"
    assert start not in dj.geometry.ocean_regions(game)
    assert dj.geometry.ocean_regions(game) == [f"section_{n}" for n in range(2, 7)]


# -- the coverage table: cards/darwins_journey/COVERAGE.md -----------------------------------

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "cards" / "darwins_journey" / "COVERAGE.md"
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "darwins-journey-pirates.txt"
SCENARIOS = ROOT / "tests" / "scenarios" / "darwins_journey"
#: The rulebook's headings (lines that are no sentence).
HEADINGS = {
    "Darwin's Journey: Pirates mini-expansion",
    "Darwin's Journey: Pirates mini-expansion Rulebook",
    "Table of Contents",
    "Components",
    "Setup",
    "Discovering Treasure",
    "Taking the Treasure",
    "Moving the Pirate Ship",
    "Pirate Raid",
    "Pirate Special Action Tile",
    "Pirate Crew Cards",
    "Compatibility",
}


def coverage_rows() -> list[tuple[str, str, list[str]]]:
    """(row id, the quoted sentence, the scenario entries) of each sentence row."""
    import re

    rows = []
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4 and cells[1].startswith('"'):
            sentence = cells[1][1:-1].replace('\\"', '"')
            entries = [] if cells[2].startswith("—") else re.split(r"<br>", cells[2])
            rows.append((cells[0], sentence, entries))
    return rows


def rulebook_sentences(text: str) -> list[str]:
    """The rulebook's sentences, in order: each line's, headings left out."""
    import re

    out = []
    for raw in text.splitlines():
        line = raw.strip().removeprefix("- ").strip()
        if not line or line == "-" or line in HEADINGS:
            continue
        out += re.split(r"(?<=[.!?])\s+(?=[A-Z\"(])", line)
    return out


def test_the_coverage_table_has_every_rulebook_sentence_in_order() -> None:
    quoted = [sentence for _, sentence, _ in coverage_rows()]
    assert len(quoted) == len(set(quoted)) == 51
    if not RULEBOOK.is_file():
        pytest.skip("the rulebook is not beside this checkout (../shared/rulebooks/)")
    assert quoted == rulebook_sentences(RULEBOOK.read_text(encoding="utf-8"))


def test_every_scenario_the_coverage_table_names_exists() -> None:
    from ruamel.yaml import YAML

    names: dict[str, list[str]] = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        docs = YAML(typ="safe").load_all(path.read_text(encoding="utf-8"))
        names[path.name] = [doc["scenario"] for doc in docs if doc]
    rules = 0
    for row, sentence, entries in coverage_rows():
        if not entries:
            assert row.startswith("N"), f"{row}: a rule with no scenario: {sentence}"
            continue
        rules += 1
        for entry in entries:
            file, _, rest = entry.partition(": ")
            assert file in names, f"{row}: no scenario file {file}"
            assert any(rest.startswith(name) for name in names[file]), f"{row}: {entry}"
    assert rules == 44


def _plain(text: str) -> str:
    """Markdown sheet text without escapes, icons, table bars and doubled spaces."""
    import re

    text = re.sub(r"\\(.)", r"\1", text)
    text = re.sub(r"\[[A-Za-z ]+\] ", "", text).replace(" | ", " ")
    return " ".join(text.split())


def test_the_sheets_print_every_rule_sentence() -> None:
    # The Markdown sheet of the base game (every variant prints the same rules), every rule
    # sentence in it as the rulebook has it. The Crew cards' "P1 - " is the card's code;
    # "(pictured below)" points at a figure the sheets do not have; the Compatibility rows
    # are "Base Game | ...", "Fireland Expansion | ...".
    sheet = ROOT / "generated" / "sheets" / "darwins_journey" / "darwins_journey.md"
    printed = _plain(sheet.read_text(encoding="utf-8"))
    for row, sentence, entries in coverage_rows():
        if not entries:
            continue
        words = sentence.replace(" (pictured below)", "")
        for prefix in ("P1 - ", "P2 - ", "P3 - ", "P4 - ", "Base Game: ", "Fireland Expansion: "):
            words = words.removeprefix(prefix)
        assert _plain(words) in printed, f"{row} is not on the sheets: {sentence}"
