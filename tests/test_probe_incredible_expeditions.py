"""Incredible Expeditions, probed as a designer adding cards and house rules would: what they
write checks only if it also runs.

- A game's ``natives.py`` may define ``CARD_CHECKS = {kind: check}``: ``cardc check`` reports
  each ``CardError`` a check returns (or raises) at its property's line and column, in a card
  file or a variant's overlay, so an Encounter's difficulty of ``money 2`` is an error there,
  not a ``RuleError`` without a position when the first game starts.
- Two Half-Heroism/Half-Skullduggery bubbles of the same size met "the other way round" take the
  same tokens: the player is not asked to choose between the two.
- A run-time refusal of the setup (too few Expedition Leaders, a Starting Resource deck whose
  cards do not add up) says what to change.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from probing import copy_game, run_scenarios

from compiler.cli import main
from engine.loader import new_game, rules_module
from engine.runtime import RuleError, Scripted

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "incredible_expeditions"
ie = rules_module("incredible_expeditions")


@pytest.fixture(autouse=True)
def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check afresh: compiler.filecache would carry cards checked by earlier tests."""
    from compiler import filecache

    monkeypatch.setattr(filecache, "ENABLED", False)


def project(tmp_path: Path) -> Path:
    """A project holding a copy of the shipped game (its cards, variants and natives.py)."""
    return copy_game(tmp_path, "incredible_expeditions")


def check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str]:
    """``cardc check`` in the project at ``tmp_path``: its exit status and output."""
    monkeypatch.chdir(tmp_path)
    status = main(["check"])
    out = capsys.readouterr()
    return status, out.out + out.err


def test_a_difficulty_the_game_cannot_read_is_an_error_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    folder = project(tmp_path)
    (folder / "new_cards.cards").write_text(
        'encounter "Vault Door" {\n'
        "  type mechanical\n"
        "  difficulty money 2\n"
        "}\n"
        'crew "Lookout" {\n'
        "  copies 1\n"
        "  bubbles heroism\n"
        "  to_acquire money 1\n"
        "}\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert (
        "cards/incredible_expeditions/new_cards.cards:3:3: error[card-data]: Vault Door: "
        "difficulty 'money 2' is not a difficulty and a number" in out
    )
    assert "hint: write: difficulty heroism 2, heroism_or_skullduggery 3" in out
    assert (
        "cards/incredible_expeditions/new_cards.cards:7:3: error[card-data]: Lookout: "
        "'bubbles' clause 'heroism' is not a kind of value and a number" in out
    )
    assert "2 errors" in out


def test_a_variant_value_the_game_cannot_read_is_an_error_at_its_yaml_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    folder = project(tmp_path)
    (folder / "variants" / "house.yaml").write_text(
        'description: Fame is worth more\ncards:\n  fame: {values: "heroism"}\n',
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert (
        "cards/incredible_expeditions/variants/house.yaml:3:10: error[card-data]: Fame: "
        "'values' clause 'heroism' is not a kind of value and a number" in out
    )


def test_a_failing_card_check_is_a_diagnostic_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    folder = project(tmp_path)
    natives = folder / "natives.py"
    natives.write_text(
        natives.read_text(encoding="utf-8")
        + "\n\ndef broken(card, cards):\n    return card['no such key']\n\n\n"
        + "CARD_CHECKS = {'encounter': broken}\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert "error[card-data]: " in out and "CARD_CHECKS['encounter'] failed on it: " in out
    assert "KeyError: 'no such key'" in out
    assert "Traceback" not in out


def test_the_shipped_cards_pass_their_card_checks() -> None:
    import json

    ir = json.loads((GENERATED / "cards.json").read_text(encoding="utf-8"))
    cards = {card["id"]: card for card in ir["cards"]}
    checked = [card for card in ir["cards"] if card["kind"] in ie.CARD_CHECKS]
    assert checked, "the checks run on some kinds"
    vocabulary = ir["vocabulary"]
    assert all(
        ie.CARD_CHECKS[card["kind"]](card, cards, vocabulary) == []
        if card["kind"] in ("resource", "location")
        else ie.CARD_CHECKS[card["kind"]](card, cards) == []
        for card in checked
    )
    # And it finds what the catalogue would refuse.
    bad = {"kind": "resource", "properties": {"values": [["money", -1]]}, "title": "X"}
    assert [e.prop for e in ie.CARD_CHECKS["resource"](bad, cards)] == ["values"]


def test_equal_half_bubbles_met_either_way_round_are_one_way() -> None:
    # "Any difficulty listed on a Half-Heroism/Half-Skullduggery symbol must be met with EITHER
    #  Heroism OR Skullduggery ENTIRELY": two bubbles of 2 are met 4/0, 2/2 or 0/4; 2/2 is one
    #  choice whichever bubble the Heroism meets.
    two_halves = ie.Difficulty(0, 0, (2, 2))
    assert [(h, s) for h, s, _ in ie.combinations(two_halves)] == [(4, 0), (2, 2), (0, 4)]
    assert ie.ways_to_meet(two_halves, 2, 2) == ["heroism+skullduggery"]
    # Unequal bubbles still give two ways with the same total.
    unequal = ie.Difficulty(0, 0, (1, 3))
    assert [(h, s) for h, s, _ in ie.combinations(unequal)] == [(4, 0), (1, 3), (3, 1), (0, 4)]


def game(players: int) -> Any:
    """A fresh compiled game whose players answer nothing."""
    return new_game(GENERATED, players=players, seed=0, policies={-1: Scripted([])})


def test_too_few_leaders_says_what_to_add() -> None:
    g = game(2)
    g.board["leaders"] = []
    with pytest.raises(RuleError) as refused:
        g.take_expedition_leader(g.players[0])
    assert str(refused.value) == (
        "no Expedition Leader is left to deal to player 1: each player needs one of their own, "
        "and the game has 4 for 2 players; add an expedition_leader card"
    )


def test_a_starting_deck_that_does_not_add_up_names_the_param() -> None:
    g = game(2)
    g.params["starting_deck_size"] = 16
    with pytest.raises(RuleError) as refused:
        g.deal_starting_decks()
    assert "(param starting_deck_size)" in str(refused.value)
    assert "set param starting_deck_size 15" in str(refused.value)


# -- cardc diff of house rules ----------------------------------------------------------------


def diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, name: str, overlay: str
) -> str:
    """``cardc diff`` of the base game and the variant ``name`` written as ``overlay``."""
    folder = project(tmp_path)
    (folder / "variants" / f"{name}.yaml").write_text(overlay, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status = main(["diff", "incredible_expeditions", f"incredible_expeditions/{name}"])
    out = capsys.readouterr()
    assert status == 0, out.err
    return out.out


def test_diff_of_an_added_phase_shows_the_fallback_of_pay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    out = diff(
        tmp_path,
        monkeypatch,
        capsys,
        "port_tax",
        "flow:\n"
        "  - insert: |\n"
        '      phase harbour_dues "Harbour Dues" {\n'
        "        pay money 1 else lose heroism missing\n"
        "      }\n"
        "    before: spend_the_turn\n",
    )
    # Was '{ pay money 1 }': the house rule's other half was not said.
    assert (
        'phase harbour_dues: added phase harbour_dues "Harbour Dues" '
        "{ pay money 1 else lose heroism missing }, in turn, after marooned" in out
    )


def test_diff_of_a_redefined_python_verb_is_the_verb_not_every_card_calling_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    out = diff(
        tmp_path,
        monkeypatch,
        capsys,
        "curse_not_lose",
        "verbs: |\n"
        '  verb lose_crew(amount number = 1) "the Crew in that cabin is Cursed" {\n'
        "    curse_crew amount\n"
        "  }\n",
    )
    assert (
        "verb lose_crew: the game's Python (roll a die; the Crew in that cabin is Lost "
        "(reroll an empty cabin)) -> verb lose_crew(amount number = 1) { curse_crew amount }" in out
    )
    # The rule "Undefeated Encounters" still reads 'lose_crew 1': it was shown changed from
    # 'lose_crew 1' to 'lose_crew 1'.
    assert "undefeated_encounters" not in out
    assert "0 cards changed" in out


def test_diff_of_a_native_given_a_dsl_body_changes_no_verb_that_calls_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    out = diff(
        tmp_path,
        monkeypatch,
        capsys,
        "seven_cards",
        'verbs: |\n  function full_hand() number "a full hand of 7" = 7\n',
    )
    assert "function full_hand: the game's Python (a full hand of cards" in out
    assert "-> function full_hand() number = 7" in out
    assert "draw_to_hand_size" not in out
    assert "1 verb change" in out


# -- what cardc build hashes as "cardc itself" ------------------------------------------------

#: Modules compiling a game imports whose code cannot change what it compiles to: the build's
#: locking and writing, caches that give the same bytes (tests/test_filecache.py), hints of
#: diagnostics, spans of a variant's YAML, and the engine that plays games (a game's natives.py
#: imports it).
_NOT_OUTPUTS = {
    "compiler/__init__.py",
    "compiler/buildlock.py",
    "compiler/buildtree.py",
    "compiler/filecache.py",
    "compiler/filestat.py",
    "compiler/suggest.py",
    "compiler/variant_spans.py",
    # Its title-gap warnings are diagnostics; no output file is written from it.
    "compiler/title_checks.py",
    # Its order-dependent warnings are diagnostics; no output file is written from it.
    "compiler/window_order.py",
    "dsl/__init__.py",
    "dsl/diagnostics.py",
    "dsl/grammar_cache.py",
    "dsl/nodes.py",
    "dsl/wordmatch.py",
    "engine/__init__.py",
    # The runtime's: the errors of play, where a failure is, the natives' return checks, a
    # division by 0 in words. What runs a game, not what compiles one.
    "engine/errors.py",
    "engine/flow.py",
    "engine/hexgrid.py",
    "engine/loader.py",
    "engine/locate.py",
    "engine/native_checks.py",
    "engine/runtime.py",
    "engine/zero_division.py",
}


_IMPORTED = """
import sys
from pathlib import Path
from compiler.pipeline import compile_game
from compiler.variants import compile_variant, variant_paths
from dsl.diagnostics import SourceCache
folder = Path(sys.argv[1])
sources = SourceCache()
assert compile_game(folder, sources).ir is not None
for path in variant_paths(folder):
    compile_variant(folder, path, sources)
for module in list(sys.modules.values()):
    print(getattr(module, "__file__", None) or "")
"""


def test_every_module_that_shapes_a_compiled_game_is_hashed_by_the_build() -> None:
    # engine/stdlib's docstrings are the vocabulary's docs in cards.json, and compiler/flow.py
    # lowers the flow: a change to either left `cardc build` saying "up to date" while
    # `cardc build --check --rebuild` found cards.json stale. What compiling a game and its
    # variants imports, in a fresh process, is what its outputs may depend on.
    import subprocess
    import sys

    from compiler import build

    folder = ROOT / "cards" / "incredible_expeditions"
    imported = subprocess.run(
        [sys.executable, "-P", "-c", _IMPORTED, str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    hashed = {p.resolve() for p in build._TOOL_FILES}
    unhashed = set()
    for file in filter(None, imported):
        path = Path(file).resolve()
        if not path.is_relative_to(ROOT):
            continue
        relative = path.relative_to(ROOT)
        if relative.parts[0] in ("compiler", "dsl", "engine") and path not in hashed:
            unhashed.add(relative.as_posix())
    assert unhashed - _NOT_OUTPUTS == set()
    assert (ROOT / "engine" / "stdlib" / "decks.py").resolve() in hashed


def test_a_library_verbs_doc_is_one_line_of_single_spaces() -> None:
    # The sheets print a library verb by its doc: "the top of one of your zones into another
    # (fewer if it runs     out)" kept the docstring's indentation.
    import engine.stdlib.decks  # noqa: F401 (registers the decks module)
    from engine.stdlib.registry import LIBRARY

    docs = {name: spec.doc for specs in LIBRARY.values() for name, spec in specs.items()}
    assert docs["draw_from"].startswith("Draw cards from the top of one of the player's zones")
    assert [name for name, doc in docs.items() if "  " in doc or "\n" in doc] == []


def test_the_log_tells_what_card_text_does_to_the_counters() -> None:
    # `cardc sim --log` left out every gain, loss and payment of a card's text (Misty Strait's
    # "When entering..." Money, a Leader's Temporary Heroism) and of a house rule's phase: the
    # rule looked as if it never applied.
    g = game(2)
    g.lay_out_locations(["misty_strait"], shuffled=False)
    me, other = g.players
    me.counters["money"] = 3
    me.counters["heroism"] = 5
    g.board["encounter_deck"] = ["sea_serpent"]
    g.log("phase", 0, "marooned")
    ie._venture_forth(g, me)
    # Player 2 holds the 2 Money it loses: a lose logs what was lost (leftovers12).
    other.counters["money"] = 2
    c = g._contexts[1]
    g.lose(c, "money", 2)
    told = ie.narrate(g)
    assert told[0] == "Turn 1, player 1:"
    assert "Venture Forth to Misty Strait; flip it over; lose 1 Money; Face Sea Serpent" in told[1]
    # What happens to another player is said with their name.
    assert told[1].endswith("; player 2 loses 2 Money.")


def test_a_game_no_ship_wins_ends_at_the_turn_limit_with_no_winner() -> None:
    # The rulebook ends a game only at Atlantis; the provisional turn_limit stops a simulated
    # one, and "winner highest" on victory (everyone 0) names no winner.
    g = new_game(GENERATED, players=2, seed=3, policies={-1: Scripted([])})
    g.policies = {i: ie.POLICIES["random"](g, i) for i in range(2)}
    g.params["turn_limit"] = 7
    result = g.play()
    assert result.reason == "turn limit"
    assert result.turns == 7
    assert result.winner is None
    assert result.scores == [0, 0]


def test_a_house_rules_starting_money_is_what_each_player_gets() -> None:
    # Step 3: "Each player gets 5 Money tokens": param starting_money. It was read by nothing
    # (each Leader's provisional coin pile of 5 gave the Money), so `params: {starting_money:
    # 8}` changed no game.
    g = game(2)
    g.params["starting_money"] = 8
    for player in g.players:
        g.take_expedition_leader(player)
        g.run_verb("take_leader_tokens", player)
    assert [p.counters["money"] for p in g.players] == [8, 8]
    assert [g.leader_prints(p, "coin_pile") for p in g.players] == [False, False]
    assert [g.leader_prints(p, "white_cross") for p in g.players] == [True, True]


def test_a_tie_with_a_one_sided_die_is_refused_not_rolled_forever() -> None:
    # "(In the event of a tie, roll off using the dice.)" With `--param die_sides=1` every
    # roll tied again and `cardc sim` never ended.
    g = game(2)
    g.params["die_sides"] = 1
    for player in g.players:
        player.flags["bet"] = 2
    with pytest.raises(RuleError) as refused:
        g.highest_bet_goes_first()
    assert str(refused.value) == (
        "a tie of bets cannot be rolled off with a die of 1 side (param die_sides): "
        "a die needs at least 2"
    )
    # No tie, no roll: the highest bet goes first whatever the die.
    g.players[1].flags["bet"] = 3
    assert g.highest_bet_goes_first() == 1


def test_a_negative_count_of_locations_is_refused() -> None:
    # `--param locations_between=-1` laid out every Location but one (a slice to -1).
    g = game(2)
    g.params["locations_between"] = -1
    with pytest.raises(RuleError, match=r"cannot place -1 Locations .*param locations_between"):
        g.lay_out_locations(None)
    g.params["locations_between"] = 0
    assert g.lay_out_locations(None) == ["port_city", "drowned_city_of_atlantis"]


def test_variant_set_of_the_first_flow_edit_makes_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # README: "`flow.N`, one past the last, adds one": with no flow yet that is flow.0, which
    # made a mapping {'0': ...} and was refused ("'flow' holds a list of edits").
    folder = project(tmp_path)
    house = folder / "variants" / "house.yaml"
    house.write_text("description: No Marooned and Lost Rule\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert (
        main(["variant", "set", "incredible_expeditions/house", "flow.0.remove", "marooned"]) == 0
    )
    assert house.read_text(encoding="utf-8") == (
        "description: No Marooned and Lost Rule\nflow:\n  - remove: marooned\n"
    )
    assert main(["variant", "unset", "incredible_expeditions/house", "flow"]) == 0
    capsys.readouterr()
    # Only the first item can be made so.
    assert main(["variant", "set", "incredible_expeditions/house", "flow.2.remove", "x"]) == 1
    assert "'2' is not one of its numbers (0 to 0)" in capsys.readouterr().err
    assert house.read_text(encoding="utf-8") == "description: No Marooned and Lost Rule\n"


def test_the_log_starts_a_turn_at_the_turn_sections_first_phase() -> None:
    # A house rule removing the Marooned and Lost Rule (flow: - remove: marooned) left the log
    # with no "Turn N, player P:" heading at all: a turn began only at the phase 'marooned'.
    g = game(2)
    flow = g.ir["flow"]
    sections = [
        {**s, "phases": [p for p in s["phases"] if p["name"] != "marooned"]}
        for s in flow["sections"]
    ]
    g.ir = {**g.ir, "flow": {**flow, "sections": sections}}
    for seat in (1, 0):
        g.log("phase", seat, "spend_the_turn")
        g.log("rest_turn", seat)
        g.log("refresh", seat)
    told = ie.narrate(g)
    assert told == [
        "Turn 1, player 2:",
        "  Rest Turn: Refresh the Crew.",
        "Turn 2, player 1:",
        "  Rest Turn: Refresh the Crew.",
    ]


def test_sim_of_a_game_for_two_or_more_seats_the_fewest_or_says_how_to_seat_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # `cardc sim incredible_expeditions`, as the README writes it, plays the fewest players the
    # game takes (it was solo by default, refused with "is for 2 to 4 players, not 1").
    monkeypatch.chdir(ROOT)
    assert main(["sim", "incredible_expeditions", "--games", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["mode"], report["players"]) == ("competitive", 2), report
    # Asked for solo, it names the modes it has (MODES: the rulebook's "a game for 2-4
    # players", competitive or co-op), and no mode that merely looks like solo.
    assert main(["sim", "incredible_expeditions", "--games", "1", "--mode", "solo"]) != 0
    err = capsys.readouterr().err
    assert "'incredible_expeditions' has no solo mode; its modes: competitive, coop" in err
    assert "did you mean" not in err
    # A count of players the game does not take is still told how to seat them.
    assert main(["sim", "incredible_expeditions", "--games", "1", "--players", "1"]) != 0
    assert "is for 2 to 4 players, not 1; seat them with --players 2" in capsys.readouterr().err
    assert main(["sim", "incredible_expeditions", "--games", "1", "--players", "5"]) != 0
    assert "not 5; seat at most 4 with --players 4" in capsys.readouterr().err


def test_a_library_name_the_game_does_not_use_hints_at_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # The game uses decks only: a new card asking holds(...) or move_all was told to declare
    # them in game.cards, when the standard library has them a 'use zones' away.
    folder = project(tmp_path)
    (folder / "new_cards.cards").write_text(
        'resource "Old Coin" {\n'
        "  copies 1\n"
        "  values money 1\n"
        "  to_acquire money 2\n"
        "  on play {\n"
        "    if holds(hand, fame) { gain heroism 1 }\n"
        "    move_all hand, discard_pile\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert "6:8: error[native-undefined]: 'holds' is not a native of this game" in out
    assert (
        "hint: 'holds' is in the standard library's zones module: add 'use zones' to the game "
        "block in game.cards" in out
    )
    assert "7:5: error[verb-undefined]: 'move_all' is not a verb of this game" in out
    assert "hint: 'move_all' is in the standard library's zones module" in out


def test_draw_from_a_deck_no_one_built_is_refused_not_nothing() -> None:
    # A new Resource "on play { draw hand 2 }" (the prelude's draw) checked and drew nothing:
    # this game builds no deck for 'draw' (it draws with draw_from). The refusal says so.
    g = game(2)
    me = g.players[0]
    me.zones["hand"] = []
    with pytest.raises(RuleError) as refused:
        g.draw(g._contexts[0], "hand", 2)
    assert str(refused.value).startswith(
        "'draw hand' takes from the deck 'build_deck hand' makes, and this game built none"
    )
    # A deck that was built and ran out draws what is left, as before.
    g.board["deck:hand"] = ["fame"]
    g.draw(g._contexts[0], "hand", 2)
    assert me.zones["hand"] == ["fame"]


#: A designer's Resource whose Ability ends by discarding the card, as card text often says.
BOTTLE = """\
@provisional("a designer's Resource for this test")
resource "Message in a Bottle" {
  copies 2 @provisional("invented")
  values money 1 @provisional("invented")
  to_acquire money 2 @provisional("invented")
  on play {
    gain money 1
    discard self
  }
}
"""

BOTTLE_SCENARIOS = """\
scenario: A Resource played for its Ability that discards itself goes to the discard pile
rulebook: "You can, instead, play the card to do the Ability text on the card"
game: incredible_expeditions
mode: competitive
given:
  player:
    zones: {hand: [message_in_a_bottle, fame], discard_pile: [bribery]}
do:
  - action: play_for_ability
    args: {card: message_in_a_bottle}
expect:
  player:
    counters: {money: 1, temporary_money: 0}
    zones: {hand: [fame], discard_pile: [bribery, message_in_a_bottle], sacrificed: []}
---
scenario: Its other copy in the hand stays there
rulebook: "You can, instead, play the card to do the Ability text on the card"
game: incredible_expeditions
mode: competitive
given:
  player:
    zones: {hand: [message_in_a_bottle, message_in_a_bottle], discard_pile: []}
do:
  - action: play_for_ability
    args: {card: message_in_a_bottle}
expect:
  player:
    zones: {hand: [message_in_a_bottle], discard_pile: [message_in_a_bottle]}
---
scenario: Discarding a Resource from the hand puts it on the discard pile
rulebook: "Discard as many cards from your hand as you like."
game: incredible_expeditions
mode: competitive
given:
  player:
    zones: {hand: [message_in_a_bottle, fame], discard_pile: []}
do:
  - run: message_in_a_bottle.play
expect:
  player:
    zones: {hand: [fame], discard_pile: [message_in_a_bottle]}
"""


def test_discard_self_in_a_resources_ability_goes_to_the_discard_pile(
    tmp_path: Path, built_copy: Callable[[str, dict[str, str]], Path]
) -> None:
    """`discard self` in a Resource's Ability took the card out of the game: playing it for its
    Ability had put it on the discard pile already, and the prelude's discard removed it from
    there. Played or discarded, a Resource goes to its holder's discard pile (the Draw Phase's
    Sacrifice is the rulebook's only "remove from the game")."""
    generated = built_copy("incredible_expeditions", {"bottle.cards": BOTTLE})
    results = run_scenarios(generated, BOTTLE_SCENARIOS, tmp_path / "bottle.yaml")
    assert len(results) == 3
    assert [r.message for r in results if not r.passed] == []


def test_an_encounter_of_no_encounter_type_is_an_error_at_its_type(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """``type heroism`` named a declared counter and checked: game.cards now says an
    Encounter's type is one of its encounter types (``{ names encounter_type }``)."""
    folder = project(tmp_path)
    (folder / "new_cards.cards").write_text(
        'encounter "Vault Door" {\n  type heroism\n  difficulty heroism 2\n}\n'
        'encounter "Haunted Hull" {\n  type supernatural\n  difficulty heroism 1\n}\n',
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert (
        "cards/incredible_expeditions/new_cards.cards:2:8: error[property-names]: 'type' "
        "names an encounter_type; 'heroism' is a counter" in out
    )
    assert "hint: an encounter_type: mechanical, supernatural, creature" in out
    assert "1 error" in out


def test_a_warning_about_an_encounter_says_an_and_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """The warning said "on a encounter", and the summary "1 warnings"."""
    folder = project(tmp_path)
    (folder / "new_cards.cards").write_text(
        'encounter "Harbour Ghost" {\n  type supernatural\n  difficulty heroism 1\n'
        "  on entering_location { gain money 1 }\n}\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 0
    assert (
        "new_cards.cards:4:3: warning[trigger-never-fires]: 'on entering_location' on an "
        "encounter never runs" in out
    )
    assert ": no errors, 1 warning (" in out


def test_the_flow_laying_out_a_card_that_is_no_location_is_an_error_at_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """``lay_out_locations port_city, pilot`` checked (pilot is a card) and set a Crew card
    down as the last Location; the verb's parameters say they name Locations
    (``param last card_name { names location }``)."""
    folder = project(tmp_path)
    flow = folder / "flow.cards"
    text = flow.read_text(encoding="utf-8")
    line = "lay_out_locations port_city, drowned_city_of_atlantis"
    assert text.count(line) == 1
    flow.write_text(text.replace(line, "lay_out_locations port_city, pilot"), encoding="utf-8")
    status, out = check(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert (
        "cards/incredible_expeditions/flow.cards:18:36: error[property-names]: the LAST of "
        "'lay_out_locations' names a location; 'pilot' is a crew" in out
    )
    assert "hint: a location: port_city, drowned_city_of_atlantis, " in out


DESERTER = """\
@provisional("a probe Crew: the rulebook names only the Pilot and the Stowaway Kid")
crew "Deserter" {
  copies 1
  bubbles money 2
  to_acquire money 1
  # "On a Rest Turn, the Deserter leaves the ship."
  on rest {
    discard self
  }
}

@provisional("a probe Encounter: the rulebook names none")
encounter "Fleeting Mirage" {
  type supernatural
  difficulty heroism 1
  # "If defeated: discard this card."
  on defeated {
    discard self
  }
}
"""

DESERTER_SCENARIOS = """\
scenario: A Crew that discards itself leaves its cabin for the Crew discard pile
rulebook: "draw random Crew from the discard pile until you have a total of 3 Capable Crew."
game: incredible_expeditions
mode: competitive
given:
  crew_deck: []
  resource_deck: []
  player:
    cabins: [bosun, deserter, spy]
    exhausted: [2]
choices:
  # The Deserter is on the Crew discard pile already: the Market may draw it.
  - lay_out_market.crew: "0"
do:
  - action: rest_turn
expect:
  crew_discard: [deserter]
  player:
    cabins: [bosun, null, spy, null, null, null]
    zones: {crew_cabins: [bosun, spy]}
    capable_crew: 2
    exhausted: []
---
scenario: Its cabin is available to the next Crew hired
rulebook: "new Crew cards go into the lowest-numbered available Crew Cabin on the player board."
game: incredible_expeditions
mode: competitive
given:
  crew_deck: []
  resource_deck: []
  player:
    cabins: [deserter, bosun]
choices:
  - lay_out_market.crew: "0"
do:
  - action: rest_turn
  - action: hire_crew
    args: {crew: pilot}
expect:
  player:
    cabins: [pilot, bosun, null, null, null, null]
---
scenario: A defeated Encounter that discards itself goes to the Encounter discard pile
rulebook: "1. Place all your defeated Encounters into the Encounter discard pile."
game: incredible_expeditions
mode: competitive
given:
  player:
    counters: {heroism: 1}
do:
  - action: face_encounter
    args: {encounter: fleeting_mirage}
expect:
  encounter_discard: [fleeting_mirage]
  player:
    zones: {defeated_encounters: []}
"""


def test_a_crew_or_encounter_that_discards_itself_goes_to_its_discard_pile(
    tmp_path: Path, built_copy: Callable[[str, dict[str, str]], Path]
) -> None:
    """`discard self` in a Crew's box took it out of the crew_cabins zone only: its cabin still
    held it, so it stayed aboard, capable, and its cabin was never free. A defeated Encounter
    that discarded itself left the game. The Crew now leaves its cabin for the Crew discard
    pile, the Encounter goes to the Encounter discard pile."""
    generated = built_copy("incredible_expeditions", {"deserter.cards": DESERTER})
    results = run_scenarios(generated, DESERTER_SCENARIOS, tmp_path / "deserter.yaml")
    assert len(results) == 3
    assert [r.message for r in results if not r.passed] == []


def test_setup_the_card_data_cannot_play_is_an_error_at_cardc_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """A house rule removing Bribery from the Starting Resource deck, or laying out 7 Locations
    of the 6 the game has, checked and built, and every game then failed at its setup ("a
    Starting Resource deck has 15 cards ... add up to 14"). A Location of -1 Encounters and a
    Leader of -2 Heroism tokens checked too. Each is now an error at cardc check, with the fix
    as the hint."""
    folder = project(tmp_path / "cards_project")
    (folder / "odd.cards").write_text(
        '@provisional("probe")\nlocation "Sandbar" {\n  encounters -1\n}\n'
        '@provisional("probe")\nexpedition_leader "Nobody" {\n  white_cross -2\n'
        "  black_skull 1\n}\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path / "cards_project", monkeypatch, capsys)
    assert status == 1
    assert "odd.cards:3:3: error[card-data]: Sandbar: a Location's Encounters are a whole" in out
    assert "odd.cards:7:3: error[card-data]: Nobody: 'white_cross' is a whole number" in out

    folder = project(tmp_path / "variant_project")
    (folder / "variants" / "no_bribes.yaml").write_text(
        "description: no Bribery, more Locations\nremove: [bribery]\n"
        "params:\n  locations_between: 7\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path / "variant_project", monkeypatch, capsys)
    assert status == 1
    # Each at the variant's line that made it: the removal of Bribery, the Locations param.
    assert (
        "no_bribes.yaml:2:10: error[card-data]: the Resources' starting_copies "
        "add up to 14, but a Starting Resource deck has 15 cards" in out
    )
    assert "set param starting_deck_size 14 (in a variant: params: {starting_deck_size: 14})" in out
    # The game's problem, not one card's (the title of whichever card was checked first).
    assert "no_bribes.yaml:4:22: error[card-data]: setup places 7 Locations" in out
    assert "the game has 6 Locations besides" in out
    assert "Traceback" not in out


def test_a_variant_that_leaves_too_few_cards_of_a_kind_is_told_at_its_remove_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """A variant removing Locations, Leaders or a starting Resource was told at whichever card
    of the kind came first in the game's files (a base file the variant never touched); the
    error is now at the variant's ``remove:`` entry that left the game short."""
    folder = project(tmp_path / "short")
    (folder / "variants" / "short.yaml").write_text(
        "description: a shorter sea\n"
        "remove:\n  - misty_strait\n  - pirate_haven\n  - volcanic_isle\n  - bribery\n"
        "remove_kinds: [expedition_leader]\n",
        encoding="utf-8",
    )
    status, out = check(tmp_path / "short", monkeypatch, capsys)
    assert status == 1
    lines = [line for line in out.splitlines() if "error[card-data]" in line]
    where = {line.split(": error")[0].rsplit("/", 1)[-1] for line in lines}
    assert any("setup places 4 Locations" in line for line in lines), out
    assert any("0 Expedition Leaders" in line for line in lines), out
    assert any("starting_copies add up to 14" in line for line in lines), out
    # The Locations at the first Location removed (line 3), the starting deck at bribery (line
    # 6), the Leaders at remove_kinds (line 7): each at its YAML value, none in a .cards file.
    assert where == {"short.yaml:3:5", "short.yaml:6:5", "short.yaml:7:16"}, out
    assert "Traceback" not in out


def test_an_encounter_may_say_how_many_copies_the_deck_holds(
    tmp_path: Path, built_copy: Callable[[str, dict[str, str]], Path]
) -> None:
    """ "Shuffle the Resource, Crew and Encounter Decks": a Crew says its copies, and the game's
    Python read an Encounter's copies too, but the kind did not declare the property, so
    `copies 2` on an Encounter was refused ('an encounter has no property copies')."""
    from engine.scenario import Runner

    twins = (
        '@provisional("a probe Encounter")\nencounter "Twin Sharks" {\n  copies 2\n'
        "  type creature\n  difficulty heroism 1\n}\n"
    )
    generated = built_copy("incredible_expeditions", {"twins.cards": twins})
    path = tmp_path / "twins.yaml"
    path.write_text(
        "scenario: Two copies of an Encounter are shuffled into the Encounter Deck\n"
        'rulebook: "Shuffle the Resource, Crew and Encounter Decks."\n'
        "game: incredible_expeditions\nmode: competitive\n"
        "do:\n  - action: shuffle_decks\n"
        "expect:\n  deck_sizes: [27, 29, 18]\n",
        encoding="utf-8",
    )
    (result,) = Runner(generated).run_file(path)
    assert result.passed, result.message


MISPLACED = """\
scenario: A designer's first guesses at a player's state
rulebook: "Draw new Resource cards until you have a full hand of cards (5 for most players)."
game: incredible_expeditions
mode: competitive
given:
  hand: [fame]
  player:
    hand: [fame]
    money: 3
    exhausted: [pilot]
do:
  - action: draw_to_hand_size
expect:
  player:
    hand: 5
"""


def test_a_counter_or_zone_written_in_the_wrong_place_says_where_it_goes(tmp_path: Path) -> None:
    """`money: 3` under a player was told "did you mean 'zones'?", `hand: [...]` "16 known, for
    example: cabins, counters, crew_deck ...": neither said that a player's counters and zones
    are under 'counters' and 'zones'. A cabin given by its Crew's name was "'pilot' is not a
    Crew Cabin", not that a cabin is its number."""
    from engine.scenario import Runner

    path = tmp_path / "misplaced.yaml"
    path.write_text(MISPLACED, encoding="utf-8")
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    lines = result.message.splitlines()
    expected = [
        "misplaced.yaml:6:3: 'hand' is a player's zone: give it under 'player' (or 'players'), "
        "in its zones: player: {zones: {hand: [card, ...]}}",
        "misplaced.yaml:8:5: 'hand' is a zone: give it in the player's zones: "
        "zones: {hand: [fame]}",
        "misplaced.yaml:9:5: 'money' is a counter: give it in the player's counters: "
        "counters: {money: 3}",
        "misplaced.yaml:10:17: 'pilot' is not a Crew Cabin: a whole number from 1 to 6",
        "misplaced.yaml:15:5: 'hand' is a zone: give it in the player's zones: "
        "zones: {hand: [card, ...]}",
    ]
    for line in expected:
        assert any(got.endswith(line) for got in lines), (line, lines)


def test_a_step_or_question_named_by_part_of_its_name_is_told_the_whole() -> None:
    """`action: face` was told "28 known, for example: acquire_cards, clear_market ..." (not
    face_encounter), and a choose's question guessed by its first verb, 'smoke_flare.play.gain',
    "16 known, for example: acquire, ..." (not the question that card asks)."""
    from engine.scenario_types import suggest

    assert suggest("face", list(ie.ACTION_ARGS)) == "; did you mean 'face_encounter'?"
    questions = [*ie.QUESTIONS, "smoke_flare.play.heroism_or_skullduggery", "pilot.play.x"]
    assert (
        suggest("smoke_flare.play.gain", questions)
        == "; did you mean 'smoke_flare.play.heroism_or_skullduggery'?"
    )
    # A close spelling still wins, and a word of many names lists none of them.
    assert suggest("venture", list(ie.ACTION_ARGS)) == "; did you mean 'venture_forth'?"
    assert suggest("exhaust", list(ie.ACTION_ARGS)) == "; did you mean 'exhaust_for_totals'?"
    piles = ["shuffle_the_pile", "draw_from_the_pile", "look_at_the_pile", "add_to_the_pile"]
    pool = [*piles, *(f"n{i}" for i in range(9))]
    assert suggest("pile", pool).startswith("; 13 known, for example")


SMOKE_FLARE = """\
resource "Smoke Flare" {
  values skullduggery 1
  on play {
    choose one of {
      gain temporary_heroism 2
    } or {
      gain temporary_skullduggery 2
    }
  }
}
"""


def test_choose_one_of_with_or_between_blocks_says_where_the_options_go() -> None:
    """A designer who read "choose one of" (the README names it, never shows it) wrote
    `choose one of { ... } or { ... }` and was told "unexpected 'or'; expected 'else', '}', an
    annotation ...", which does not lead to the options inside the block. The hint's own
    example parses."""
    from dsl.parser import parse

    result = parse(SMOKE_FLARE, "smoke.cards")
    (problem,) = result.diagnostics
    assert problem.code == "choose-options"
    assert (problem.span.line, problem.span.column) == (6, 7)
    assert "inside its block" in problem.message
    example = problem.hints[0].split("@label: ", 1)[1]
    fixed = 'resource "Smoke Flare" {\n  values skullduggery 1\n  on play {\n    '
    assert parse(fixed + example + "\n  }\n}\n", "fixed.cards").diagnostics == ()
    # 'or' after a block that is no choice keeps the parser's own message.
    other = parse('x "A" {\n  on play {\n    if a { b 1 } or { c 1 }\n  }\n}\n', "if.cards")
    assert [d.code for d in other.diagnostics] != ["choose-options"]


def test_a_sweep_of_a_game_without_ships_shows_each_points_length(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """`cardc sweep` printed a 'sink rate' column of 0.0% at every point of Incredible
    Expeditions, where no ship sinks (and every competitive game's mean score is the same 0.5):
    nothing told the points apart. A game without ships shows each point's length instead."""
    monkeypatch.chdir(ROOT)
    status = main(
        ["sweep", "incredible_expeditions", "--variants", "base,more_locations"]
        + ["--games", "4", "--seed", "1", "--jobs", "1", "--quiet"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "sink rate" not in out
    header = next(line for line in out.splitlines() if line.startswith("point"))
    assert "game length" in header
    rows = [line for line in out.splitlines() if line.startswith(("base", "more_locations"))]
    assert len(rows) == 2 and all(" rounds " in row or row.endswith(" rounds") for row in rows)


PROBE_DATA = ROOT / "tests" / "data" / "incredible_expeditions_probe"


def test_a_designers_new_cards_and_house_rules_check_build_and_play(
    tmp_path: Path,
    built_copy: Callable[[str, dict[str, str]], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    """Nine new cards written from the rulebook's card texts (Crew with conditions and choices,
    a Resource's choice of Ability, Encounters with Upon Facing / If Undefeated texts, two
    half bubbles, a Location of 0 and of 3 Encounters, a Leader with a coin pile and a hand of
    4) and eight house rules (a phase inserted, removed, replaced and moved, params, cards
    changed and removed, an end condition, a Python verb and a DSL verb redefined) check, build
    and play their scenarios (tests/data/incredible_expeditions_probe/)."""
    from engine.scenario import Runner

    files = {"probe_cards.cards": (PROBE_DATA / "probe_cards.cards").read_text(encoding="utf-8")}
    for variant in sorted((PROBE_DATA / "variants").glob("*.yaml")):
        files[f"variants/{variant.name}"] = variant.read_text(encoding="utf-8")
    assert len(files) == 9
    generated = built_copy("incredible_expeditions", files)
    for name in ("probe_cards.yaml", "probe_variants.yaml"):
        results = list(Runner(generated).run_file(PROBE_DATA / name))
        assert len(results) >= 11
        assert [r.message for r in results if not r.passed] == []
    # And each house rule plays whole games, by the greedy and the random policy.
    monkeypatch.chdir(generated.parent)
    for variant in ["base", *(name[9:-5] for name in files if name.startswith("variants/"))]:
        for policy in ("greedy", "random"):
            argv = ["sim", "incredible_expeditions", "--games", "2", "--jobs", "1", "--quiet"]
            argv += ["--policy", policy, "--json"]
            if variant != "base":
                argv += ["--variant", variant]
            assert main(argv) == 0, (variant, policy, capsys.readouterr())
            assert '"games": 2' in capsys.readouterr().out


def test_too_few_leaders_for_the_most_players_is_an_error_at_cardc_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """A house rule removing an Expedition Leader (or all of them) checked and built, and a
    game of 4 (or any game) failed at Step 2: "no Expedition Leader is left to deal". Each
    player begins with a Leader of their own, so the game needs one for each of its most
    players, checked by cardc check, and told at the variant's entry that removed them."""
    for name, overlay, where in (
        ("three", "remove: [madame_zora]\n", "three.yaml:2:10"),
        ("none", "remove_kinds: [expedition_leader]\n", "none.yaml:2:16"),
    ):
        folder = project(tmp_path / name)
        (folder / "variants" / f"{name}.yaml").write_text(
            f"description: fewer Leaders\n{overlay}", encoding="utf-8"
        )
        status, out = check(tmp_path / name, monkeypatch, capsys)
        assert status == 1, out
        count = "3 Expedition Leaders" if name == "three" else "0 Expedition Leaders"
        assert f"{where}: error[card-data]: " in out, out
        assert f"the game has {count}, but each of up to 4 players begins" in out
