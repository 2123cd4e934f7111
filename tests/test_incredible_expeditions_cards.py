"""Incredible Expeditions: Quest for Atlantis, run through the real pipeline.

Each test loads ``generated/incredible_expeditions/`` (run ``cardc build`` first) with
``engine.loader.new_game``, so the handlers under test are the ones ``cardc`` generated from
``cards/incredible_expeditions/*.cards``. The rule paragraphs have their scenarios in
``tests/scenarios/incredible_expeditions/``; these tests cover what a scenario cannot say
well: whole games for 2 to 4 players, determinism, and the difficulty arithmetic. Quoted
sentences are from the rulebook (``incredible-expeditions-atlantis.txt``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.flow import FlowGame
from engine.loader import new_game, rules_module
from engine.runtime import RuleError, Scripted
from engine.sim import Simulator, play_game

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "incredible_expeditions"
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "incredible-expeditions-atlantis.txt"
#: cards/incredible_expeditions/natives.py, the module the engine binds to the game.
ie = rules_module("incredible_expeditions")


def game(players: int = 2, seed: int = 0, policy: str | None = None) -> Any:
    """A fresh game, its players deciding by ``policy`` (scripted with no answers if None)."""
    g = new_game(GENERATED, players=players, seed=seed, policies={-1: Scripted([])})
    assert isinstance(g, ie.IncredibleExpeditions)
    if policy is not None:
        g.policies = {i: ie.POLICIES[policy](g, i) for i in range(players)}
    return g


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_with_a_ship_at_atlantis(players: int) -> None:
    # "The winner ... is the first player to defeat both Encounters at the last Location".
    for seed in range(10):
        g = game(players, seed, "greedy")
        result = play_game(g)
        assert result.reason == "a ship reached Atlantis"
        winner = g.players[result.winner]
        assert g.location_of(winner) == "drowned_city_of_atlantis"
        assert len(winner.zones["defeated_encounters"]) >= 2
        assert result.scores == [1 if p is winner else 0 for p in g.players]
        # Every other ship is short of winning.
        for other in g.players:
            if other is not winner:
                at_end = g.location_of(other) == "drowned_city_of_atlantis"
                assert not (at_end and len(other.zones["defeated_encounters"]) >= 2)


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_play_legally_to_an_end(players: int) -> None:
    for seed in range(3):
        result = play_game(game(players, seed, "random"))
        assert result.reason in ("a ship reached Atlantis", "turn limit")
        assert result.turns <= 200


def test_the_same_seed_plays_the_same_game() -> None:
    first, second = game(4, 7, "greedy"), game(4, 7, "greedy")
    play_game(first)
    play_game(second)
    assert first.events == second.events


def test_the_simulators_card_figures_count_the_cards_each_player_drew() -> None:
    # The Draw Phase draws with the standard library's decks (draw_from, draw_or_reshuffle):
    # its events name the cards, so `cardc sim`'s card table counts them drawn and held.
    from engine.sim_tally import outcome

    g = game(4, 3, "greedy")
    result = play_game(g)
    sets = outcome(g, result, "competitive").cards
    assert sets is not None and len(sets) == 4
    for player, (drawn, played, held) in zip(g.players, sets, strict=True):
        # Every Starting Resource deck has 10 Marks of Credit: each player draws one.
        assert "marks_of_credit" in drawn and "marks_of_credit" in played
        # Held at the end: what is in the hand the cards were drawn into.
        assert held == set(player.zones["hand"])


def test_cards_are_conserved_through_a_whole_game() -> None:
    # Every card dealt at setup is somewhere at the end: nothing is created or lost by the flow.
    g = game(3, 5, "greedy")
    play_game(g)
    zones = Counter()
    for player in g.players:
        assert player.zones["crew_cabins"] == [c for c in player.flags["cabins"] if c]
        for cards in player.zones.values():
            zones.update(cards)
    for key in (
        "market",
        "resource_deck",
        "resource_discard",
        "crew_deck",
        "crew_discard",
        "encounter_deck",
        "encounter_discard",
        "leaders",
    ):
        zones.update(g.board[key])
    cat = g.cat
    expected = Counter(cat.starting * 3)
    expected.update({card: n for card, n in cat.copies.items()})
    expected.update(cat.by_kind["expedition_leader"])
    assert zones == expected


# -- the flow ---------------------------------------------------------------------------------


def test_the_flow_plays_the_game_turn_by_turn_in_its_phases() -> None:
    # flow.cards: every turn is Marooned, a Rest or an Encounter Turn, the end of the turn, the
    # Draw Phase and the (provisional) turn limit, in seat order from the first player, until a
    # ship reaches Atlantis.
    g = game(2, 3, "greedy")
    assert isinstance(g, FlowGame)
    result = play_game(g)
    phases = [(e[1], e[2]) for e in g.events if e[0] == "phase"]
    setup = ["set_up_the_world", "get_ready", "pay_to_be_first", "draw_a_hand"]
    assert [name for _, name in phases[:4]] == setup
    turn = ["marooned", "spend_the_turn", "end_of_the_turn", "draw_phase", "turn_limit"]
    turns = phases[4:]
    first = g.board["first_player"] - 1
    # Every turn but the winning one has all five phases; the win ends the game in the second.
    assert len(turns) == 5 * (result.turns - 1) + 2
    for number in range(result.turns - 1):
        seat = (first + number) % 2
        assert turns[5 * number : 5 * number + 5] == [(seat, name) for name in turn]
    assert result.reason == "a ship reached Atlantis"
    assert turns[-1] == ((first + result.turns - 1) % 2, "spend_the_turn")


def test_the_turn_limit_ends_a_game_no_ship_wins() -> None:
    # turn_limit (@provisional): after that many turns in all, the game ends with no winner.
    simulator = Simulator(GENERATED, params={"turn_limit": 3})
    g = simulator.new_game(1, 2, "competitive", simulator.factory("greedy"))
    result = play_game(g)
    assert (result.reason, result.turns, result.winner) == ("turn limit", 3, None)
    assert result.scores == [0, 0]


#: The rulebook's headings and phrases the flow's phases are titled with, in its order, as
#: printed in ../shared/rulebooks/incredible-expeditions-atlantis.txt (quoted here, so the test
#: runs where the rulebooks are not beside the checkout).
RULEBOOK_HEADINGS = (
    "Step 1: Set Up the World",
    "Step 2: Get Ready to Lead the Expedition",
    "Step 3: Pay to Be the First",
    "Step 4: Draw a Hand",
    "The Marooned and Lost Rule",
    "There are two different ways to spend your turn",
    "At the end of your turn",
    "Draw Phase",
)


def test_every_phase_is_titled_in_the_rulebooks_words() -> None:
    # The log of a game is read against the rulebook: each phase's title is its phrase. A
    # provisional phase (the turn limit, which stops a simulated game no ship wins) is not the
    # rulebook's, and says so in its @provisional.
    ir = game().ir
    provisional = {p["name"] for p in ir["provisional"] if p["kind"] == "phase"}
    assert provisional == {"turn_limit"}
    titles = [
        phase["title"]
        for section in ir["flow"]["sections"]
        for phase in section["phases"]
        if phase["name"] not in provisional
    ]
    assert tuple(titles) == RULEBOOK_HEADINGS
    if RULEBOOK.is_file():
        # Beside the rulebooks (a designer's checkout): the quotes are the rulebook's own.
        rulebook = " ".join(RULEBOOK.read_text().split())
        for title in RULEBOOK_HEADINGS:
            assert title in rulebook, title


def test_the_log_tells_the_game_under_the_rulebooks_headings() -> None:
    g = game(2, 1, "greedy")
    play_game(g)
    lines = g.narrate()
    assert lines[0].startswith("  Step 1: Set Up the World: Port City - ")
    assert lines[0].endswith(" - Drowned City of Atlantis.")
    assert lines[1].startswith("  Step 2: Get Ready to Lead the Expedition: player 1 leads with ")
    assert "takes 5 Money, " in lines[1]
    assert lines[2].startswith("  Step 3: Pay to Be the First: player 1 bets ")
    # "a hand of 5 cards (or more, in Prof. Pendergast's case)"
    one, two = (g.hand_size(p) for p in g.players)
    assert lines[3] == f"  Step 4: Draw a Hand: player 1 draws {one}; player 2 draws {two}."
    assert lines[4] == f"Turn 1, player {g.board['first_player']}:"
    # Silas Crook's ability, on a Rest Turn: "gain temporary_money 1" (leaders.cards).
    first = g.players[g.board["first_player"] - 1]
    crook = (
        "gain 1 Temporary Money; " if first.zones["expedition_leader"] == ["silas_crook"] else ""
    )
    assert lines[5].startswith(f"  Rest Turn: Refresh the Crew; {crook}the Market: ")
    assert lines[6].startswith("  Draw Phase: draw ")
    assert any(line.startswith("  Encounter Turn: ") for line in lines)
    assert lines[-1].endswith("defeats both Encounters at the Drowned City of Atlantis and wins.")


# -- the difficulty ------------------------------------------------------------------------------


def test_ways_to_meet_never_split_a_bubble() -> None:
    # "You may not meet part of the cost with Heroism and the rest with Skullduggery."
    serpent = ie.Difficulty(2, 0, (3,))
    assert ie.ways_to_meet(serpent, 4, 2) == []
    assert ie.ways_to_meet(serpent, 5, 0) == ["heroism"]
    assert ie.ways_to_meet(serpent, 2, 3) == ["skullduggery"]
    assert ie.ways_to_meet(serpent, 5, 3) == ["heroism", "skullduggery"]
    assert ie.needs(serpent, "skullduggery") == (2, 3)


def test_a_difficulty_that_is_no_value_is_refused() -> None:
    card = {"title": "Odd", "properties": {"difficulty": [["courage", 2]]}}
    with pytest.raises(RuleError, match="'courage' is not a difficulty"):
        ie.Difficulty.from_card(card)


# -- Resources: values or Ability, never both -----------------------------------------------


def test_a_resource_played_for_its_ability_gives_no_values() -> None:
    # "You can, instead, play the card to do the Ability text on the card, but may not use both."
    g = game()
    player = g.players[0]
    player.zones["hand"] = ["treasure_map"]
    g.play_for_ability(player, "treasure_map")
    assert player.counters["money"] == 1 and player.counters["temporary_money"] == 0
    assert player.zones["discard_pile"] == ["treasure_map"]
    with pytest.raises(RuleError, match="holds no marks_of_credit with an Ability"):
        player.zones["hand"] = ["marks_of_credit"]
        g.play_for_ability(player, "marks_of_credit")


def test_the_catalogue_reads_values_and_costs_in_the_rulebooks_order() -> None:
    cat = game().cat
    assert cat.values["notoriety"] == (1, 0, 1)
    assert cat.cost["strongman"] == (4, 1, 0)
    assert "marks_of_credit" not in cat.cost  # a starting card is not Acquired
    assert len(cat.starting) == 15


def test_provenance_lists_the_variants_own_provisional_values() -> None:
    # `cardc check --provenance` reads CheckResult.provisional: a variant's own files count.
    from compiler.checking import check_paths
    from compiler.project import find_project
    from dsl.diagnostics import SourceCache

    root = Path(__file__).resolve().parent.parent
    project = find_project(root)
    assert project is not None
    folder = root / "cards" / "incredible_expeditions"
    result = check_paths([folder / "game.cards"], project, SourceCache())
    report = result.provenance_report()
    assert "variants/more_locations.yaml:12:3: location Whirlpool Narrows" in report
    assert "variants/more_locations.cards:5:1: location Coral Reef" in report
    assert "leaders.cards" in report and "Prof. Pendergast: hand_size" in report


# -- questions in the rulebook's words -------------------------------------------------------


#: The `may` questions of the flow and the Crew, each worded by its @ask in the cards (data,
#: not the game's Python).
MAY_QUESTIONS = {
    ie.RESCUE: "The Marooned and Lost Rule: may draw random Crew from the discard pile until"
    " you have a total of 3 Capable Crew?",
    "pilot.entering_location.exhaust": "Pilot: may exhaust the Pilot as you enter this"
    " Location to ignore the text there?",
    "ships_doctor.facing.exhaust": "Ship's Doctor: may exhaust the Ship's Doctor so that one"
    " of your Cursed Crew is Cursed no more?",
}


def test_may_questions_are_asked_in_the_rulebooks_words() -> None:
    # The flow's `may { rescue_crew }` and the Crew's `may { exhaust self ... }` are asked as
    # the rulebook says them (their @ask), not as the DSL statement ("flow: may rescue_crew?"):
    # the flow's question is headed by its phase's title.
    asked: dict[str, str] = {}

    class Recording(ie.Greedy):  # type: ignore[misc, name-defined]
        def decide(self, game: Any, question: Any) -> str:
            if question.kind == "may":
                asked[question.id] = question.prompt
            return str(super().decide(game, question))

    # The Ship's Doctor is asked only when one of the Crew is Cursed (audit7-ie): the first
    # such game is seed 104, so the games go on until every question has been asked.
    for seed in range(160):
        g = game(4, seed)
        g.policies = {i: Recording(i) for i in range(4)}
        play_game(g)
        if len(asked) == len(MAY_QUESTIONS):
            break
    assert asked == MAY_QUESTIONS
    for prompt in asked.values():
        assert "flow" not in prompt and "_" not in prompt and prompt.endswith("?")


# -- the sheets in the rulebook's words ------------------------------------------------------


def test_the_sheets_name_card_types_and_provisional_values_in_the_rulebooks_words() -> None:
    # The card list and every card's type are "Card Types"' headings; the Provisional values
    # table says what each value is by the card's own labels, never a property or kind id.
    sheets = ROOT / "generated" / "sheets" / "incredible_expeditions"
    for name in ("incredible_expeditions", "more_locations"):
        text = (sheets / f"{name}.md").read_text(encoding="utf-8")
        assert (
            "| Pilot | Crew | 2 ◇ |" in text
            and "| Prof. Pendergast | Expedition Leader | 1 |" in text
        )
        assert "*Expedition Leader*" in text and "*Expedition leader*" not in text
        assert "| Pilot: To Acquire |" in text and "| Expedition Leader Silas Crook |" in text
        table = text.split("### Provisional values", 1)[1]
        whats = [row.split(" | ")[1] for row in table.splitlines() if row.startswith("| ◇")]
        assert whats and all("\\_" not in w and not w.startswith("param ") for w in whats), whats
        assert not any(w.split(": ")[-1][:1].islower() for w in whats), whats
    assert "Quest for Atlantis \\(More Locations\\)" in (sheets / "more_locations.md").read_text()
