"""audit9-ie: a ninth, independent tester of Incredible Expeditions: Quest for Atlantis, from the
rulebook (/work/shared/rulebooks/incredible-expeditions-atlantis.txt) and the README alone. Rule
cases are in tests/scenarios/incredible_expeditions/audit9_rules.yaml; the house rules and new
cards a designer would write, with their scenarios, in tests/data/audit9_ie/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, audit_cases, audit_files

GAME = "incredible_expeditions"
DATA = Path(__file__).resolve().parent / "data" / "audit9_ie"
VARIANTS = ("captains_choice", "choose_your_leader", "hourglass", "port_market", "treasure_hunt")

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def _games(folder: Path, games: int, seed: int = 3) -> object:
    from engine import sim

    return sim.simulate(folder, games, seed, "competitive", "greedy", players=2, cards=False)


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    assert_cases_hold(built_copy, GAME, DATA, VARIANTS, 28)


def test_the_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, GAME, DATA)
    assert_simulates(points, ("competitive", "coop"))


def test_a_house_rules_end_condition_does_not_play_past_the_win(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # "The winner of Incredible Expeditions is the first player to defeat both Encounters at
    # the last Location". The Hourglass sets its own end condition (40 turns), which replaces
    # the base game's `end when winner_found()`, and writes the turn's phase out without the
    # win's check: every game was played to its 40th turn, the winner's ship and the others
    # sailing on past the win ("played to the end", game length 40 turns in every game).
    generated = built_copy(GAME, audit_files(DATA))
    report = _games(generated / GAME / "hourglass", 6)
    ends = dict(report.tally.ends)  # type: ignore[attr-defined]
    assert ends.get("a ship reached Atlantis", 0) > 0, ends
    assert set(ends) <= {"a ship reached Atlantis", "played to the end"}, ends
    # A won game ends on the turn of the win, long before the 40th.
    turns = sorted(report.tally.turns.elements())  # type: ignore[attr-defined]
    assert turns[0] < 40, turns


def test_a_crews_own_loss_is_answered_only_by_this_crew_lost(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # "Place that Crew under your Expedition Leader card": a Lost Crew is no longer aboard, so
    # its `on lost` ("When another of your Crew is Lost", the audits' Chaplain and
    # Quartermaster) does not answer its own loss. A card saying "If this Crew is Lost" had no
    # way to be written: its `on lost` found the Crew out of force, and nothing else fired for
    # it. `on this_crew_lost` is answered by the Lost Crew alone, before `lost`.
    from engine.loader import new_game
    from engine.runtime import Scripted

    mate = (
        'crew "Mate" {\n  copies 1\n  bubbles money 0, heroism 1, skullduggery 0\n'
        "  to_acquire money 1\n  on this_crew_lost {\n    gain money 5\n  }\n"
        "  on lost {\n    gain skullduggery 1\n  }\n}\n"
    )
    generated = built_copy(GAME, {"mate.cards": mate})
    g = new_game(generated / GAME, players=2, seed=1, policies={-1: Scripted([])})
    me = g.players[0]
    g.hire_crew(me, "mate")
    g.hire_crew(me, "deckhand")
    # The Deckhand Lost first: the Mate aboard answers `lost`, not `this_crew_lost`.
    me.flags["cabins"] = ["deckhand", "mate", None, None, None, None]
    g.sync_cabins(me)
    before = dict(me.counters)
    # The die picks the lowest occupied cabin (the roll is not what is tested here).
    g.roll_cabin = lambda player, wanted: next(i for i in range(1, 7) if wanted(i))  # type: ignore[method-assign]
    g.lose_crew(me)
    assert me.counters["skullduggery"] == before["skullduggery"] + 1
    assert me.counters["money"] == before["money"]
    # Then the Mate itself: its own `this_crew_lost`, and its `on lost` no more.
    g.lose_crew(me)
    assert me.zones["lost_crew"] == ["deckhand", "mate"]
    assert me.counters["money"] == before["money"] + 5
    assert me.counters["skullduggery"] == before["skullduggery"] + 1


def test_the_crew_cabins_zone_moves_with_its_cabins() -> None:
    # The zones library moved a Crew out of the `crew_cabins` zone and left it in its cabin:
    # Captain's Choice's `move_card picked crew_cabins lost_crew` Lost the Bosun and kept it
    # aboard, Exhausted and Capable. The cabins are the board that zone mirrors.
    from engine.loader import new_game, rules_module
    from engine.runtime import RuleError, Scripted

    generated = Path(__file__).resolve().parent.parent / "generated" / GAME
    g = new_game(generated, players=2, seed=1, policies={-1: Scripted([])})
    module = rules_module(GAME)
    me = g.players[0]
    c = g._contexts[0]
    g.hire_crew(me, "deckhand")
    g.hire_crew(me, "bosun")
    me.flags["exhausted"].add(2)
    # Out of the cabins (not Lost): the cabin is available again, its Exhausted side gone.
    g.move_card(c, "bosun", "crew_cabins", "sacrificed")
    assert me.flags["cabins"][:2] == ["deckhand", None]
    assert me.flags["exhausted"] == set()
    assert me.zones["crew_cabins"] == ["deckhand"]
    # Back from the Leader card: "Lost or Sacrificed Crew can come back", into the lowest cabin.
    me.zones["lost_crew"].append("spy")
    g.move_card(c, "spy", "lost_crew", "crew_cabins")
    assert me.flags["cabins"][:2] == ["deckhand", "spy"]
    assert me.zones["lost_crew"] == []
    # Only a Crew goes into a cabin, and move_all moves none when the cabins are too few.
    me.zones["hand"] = ["fame"]
    with pytest.raises(RuleError, match="'fame' is no Crew: only Crew cards go into the Crew"):
        g.move_card(c, "fame", "hand", "crew_cabins")
    me.flags["cabins"] = ["deckhand", "spy", "pilot", "bosun", "spy", None]
    g.sync_cabins(me)
    me.zones["lost_crew"] = ["deckhand", "pilot"]
    with pytest.raises(RuleError, match="has 1 available Crew Cabins for the 2 cards of lost_crew"):
        g.move_all(c, "lost_crew", "crew_cabins")
    assert me.zones["lost_crew"] == ["deckhand", "pilot"]
    # Zones the cabins do not mirror move as the library always moved them.
    g.move_all(c, "lost_crew", "sacrificed")
    assert me.zones["sacrificed"] == ["bosun", "deckhand", "pilot"]
    assert module.GAME_CLASS is type(g)


def test_an_end_phase_of_a_game_without_rounds_is_played_at_the_end_of_the_game(
    tmp_path: Path,
) -> None:
    # Treasure Hunt's phase inserted into the end section printed "Once, after the last round:"
    # on a game played round the table in turns, with no rounds at all.
    from probing import copy_game

    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve
    from compiler.sheets.text import plain
    from compiler.variants import compile_variant
    from dsl.diagnostics import SourceCache

    folder = copy_game(tmp_path, GAME)
    name = "treasure_hunt"
    result, _overlay = compile_variant(folder, DATA / "variants" / f"{name}.yaml", SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    ref = resolve(reference_for(folder, name), result.ir, {c["id"] for c in result.ir["cards"]})
    model = build_model(result.ir, ref, variant=name, folder=folder)
    texts = {title: plain(text) for title, text in model.phases}
    assert texts["Counting the treasure"].startswith(
        "Once, at the end of the game: unless a player has defeated both Encounters"
    ), texts["Counting the treasure"]


def test_exhaust_of_another_crew_does_what_it_can_and_of_itself_says_how_to_offer_it() -> None:
    # An Encounter's "your Pilot is Exhausted" with no Refreshed Pilot aboard stopped the
    # game ("player 1 has no Refreshed pilot to Exhaust"); a Crew's own `exhaust self` that
    # cannot be paid is still refused, saying how the card offers it only while Refreshed.
    from engine.loader import new_game, rules_module
    from engine.runtime import Context, RuleError, Scripted

    generated = Path(__file__).resolve().parent.parent / "generated" / GAME
    g = new_game(generated, players=2, seed=1, policies={-1: Scripted([])})
    exhaust = rules_module(GAME).exhaust
    me = g.players[0]
    g.hire_crew(me, "pilot")
    me.flags["exhausted"].add(1)
    exhaust(g, Context(me, "giant_crab", "facing"), "pilot")
    assert ("not_exhausted", 0, "pilot") in [tuple(e) for e in g.events]
    with pytest.raises(RuleError) as refused:
        exhaust(g, Context(me, "pilot", "facing"), "pilot")
    assert "offer the ability only then, 'if refreshed(self) { may { exhaust self" in str(
        refused.value
    )


def test_a_loop_over_a_name_both_zone_and_kind_is_told_which_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `expedition_leader` is the zone holding the player's own Leader and the kind of the 4
    # Leader cards. Choose Your Leader's first draft, `choose leader in expedition_leader`,
    # checked without a word and offered the player's own (no) Leader: the zone is read.
    from probing import diagnostics_with_card_file

    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        GAME,
        'rule "Roll Call" {\n  on rest {\n    for each leader in expedition_leader {\n'
        "      gain money 1\n    }\n  }\n}\n",
    )
    assert [(d.code, d.severity, d.span.line, d.span.column) for d in found] == [
        ("zone-or-kind", "warning", 3, 24)
    ]
    assert found[0].message == (
        "'expedition_leader' is both a zone and a kind of card: here it is the cards the "
        "player's zone 'expedition_leader' holds, not every expedition_leader card"
    )


def test_a_leader_another_player_leads_with_cannot_be_chosen() -> None:
    # Step 2, "Everyone chooses their character from the 4 Expedition Leaders": one each.
    from engine.loader import new_game, rules_module
    from engine.runtime import Context, RuleError, Scripted

    generated = Path(__file__).resolve().parent.parent / "generated" / GAME
    g = new_game(generated, players=2, seed=1, policies={-1: Scripted([])})
    module = rules_module(GAME)
    first, second = g.players
    module.VERBS["take_this_expedition_leader"](g, Context(first, "", ""), "madame_zora")
    assert "madame_zora" not in module.NATIVES["free_leaders"](g, Context(second, "", ""))
    with pytest.raises(RuleError, match="Madame Zora leads player 1's expedition already"):
        module.VERBS["take_this_expedition_leader"](g, Context(second, "", ""), "madame_zora")
    assert second.zones["expedition_leader"] == []


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (
            '  - tiebreak: "heroizm"\n',
            "house.yaml:3:16: error[name-undefined]: 'heroizm' is not defined here",
        ),
        (
            '  - tiebreak: ""\n',
            "house.yaml:3:15: error[variant-value]: 'tiebreak' holds an expression in the DSL, "
            "on one line, as text (or null: no tiebreak)",
        ),
        (
            "  - tiebreak: heroism\n    before: draw_phase\n",
            "house.yaml:4:5: error[variant-shape]: the tiebreak has no place: 'before' means "
            "nothing here",
        ),
    ],
)
def test_a_flow_edits_tiebreak_is_checked_where_it_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    edit: str,
    said: str,
) -> None:
    # "The flow is data: ... the end and final scoring are declared in the DSL and compiled; a
    # variant can replace ... them" (DESIGN.md): `tiebreak:` was "not a key of a flow edit".
    from probing import copy_game

    from compiler.cli import main

    folder = copy_game(tmp_path, GAME)
    (folder / "variants" / "house.yaml").write_text(
        "description: a house rule\nflow:\n" + edit, encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    assert said in out.out + out.err
