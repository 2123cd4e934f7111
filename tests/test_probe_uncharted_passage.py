"""Uncharted Passage probed as a designer would: new cards, house rules and rule cases written
from the rulebook's text (the scenarios are tests/scenarios/uncharted_passage/probe_*.yaml).
These are the regressions of what the probing found that a scenario cannot show."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import diagnostics_with_card_file

from compiler.diff import diff_ir
from compiler.pipeline import compile_game
from compiler.variants import compile_variant
from dsl.diagnostics import Diagnostic, SourceCache
from engine import sim
from engine.loader import game_rules, new_game
from engine.runtime import RuleError
from engine.scenario import Runner, ScenarioResult
from engine.scenario_check import questions
from engine.sim_tally import outcome

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "generated" / "uncharted_passage"
UnchartedPassage = game_rules("uncharted_passage", FOLDER).GAME_CLASS


def test_a_port_card_that_discards_itself_after_use_counts_as_played() -> None:
    """``cardc sim``'s per-card table printed "played 0" for Smoke Bomb, Rum and Reinforced
    Rope, whose use is ``may { ...; discard self }`` (no ``play`` event): a card a rule discards
    is one the player spent."""
    simulator = sim.Simulator(FOLDER)
    seen: set[str] = set()
    for number in range(1, 41):
        played = sim.play_one(simulator, 1, number, "solo", "greedy")
        events = played.game.events
        discarded = {e[2] for e in events if e[0] == "discard"}
        cards = outcome(played.game, played.result, "solo").cards
        assert cards is not None
        _drawn, used, _held = cards[0]
        # Every card a rule discarded is counted as played, and so is every card played.
        assert discarded <= used
        assert {e[2] for e in events if e[0] == "play"} <= used
        seen |= discarded
    # The greedy captain spends Smoke Bombs in 40 games: the check above was not vacuous.
    assert "smoke_bomb" in seen


def _one(tmp_path: Path, text: str) -> ScenarioResult:
    """The one scenario of ``text``, run against the compiled games."""
    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    (result,) = Runner(ROOT / "generated").run_file(path)
    return result


def test_a_pirate_phase_against_a_card_without_a_pirate_is_refused_by_name(
    tmp_path: Path,
) -> None:
    """A card without the formula a step asks for was "internal error: KeyError:
    ('legend_of_kraken', 'pirate')"; it is a refusal naming the card, its kind and the formula."""
    result = _one(
        tmp_path,
        """\
        scenario: the Pirate phase of a mission
        game: uncharted_passage
        do:
          - action: pirate_phase
            args: {voyage: legend_of_kraken}
        expect:
          refused: "'legend_of_kraken' (a mission) has no formula 'pirate'"
        """,
    )
    assert result.passed, result.message


def test_docking_at_a_sea_space_is_an_error_before_anything_runs(tmp_path: Path) -> None:
    """'dock' took any space, so a scenario docking at the open sea fired the cards' dock
    trigger there; the step's port is checked to be a port before anything runs."""
    result = _one(
        tmp_path,
        """\
        scenario: docking at sea
        game: uncharted_passage
        do:
          - action: dock
            args: {port: sea_2_2}
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert "s.yaml:5:18: 'sea_2_2' is not a port" in result.message, result.message


def test_a_hint_lists_a_few_names_of_many(tmp_path: Path) -> None:
    """'play lime_juice' in a variant that removes Lime Juice printed every card of Uncharted
    Passage (394, the map's spaces among them) as its hint; a long pool is cut to its first
    few and says how many there are."""
    game = tmp_path / "many"
    game.mkdir()
    (game / "game.cards").write_text(
        'game many "Many" {\n  players 1\n  score prestige\n  counter prestige\n'
        '  trigger reveal "a card is revealed"\n'
        '  kind port_card "a port card" { property copies number }\n}\n',
        encoding="utf-8",
    )
    cards = "".join(f'port_card "Card {n:02}" {{ copies 1 }}\n' for n in range(30))
    cards += 'port_card "Player" {\n  copies 1\n  on reveal {\n    play zzz\n  }\n}\n'
    (game / "cards.cards").write_text(cards, encoding="utf-8")
    result = compile_game(game, SourceCache())
    (found,) = [d for d in result.diagnostics if d.code == "name-undefined"]
    assert found.message == "'zzz' is not a card of this game"
    (hint,) = found.hints
    assert hint.startswith("cards: card_00, card_01, ")
    assert hint.endswith("... (31 in all)")
    assert "card_29" not in hint


def test_diff_of_a_python_verb_given_a_dsl_body_is_one_redefinition(tmp_path: Path) -> None:
    """A variant giving Uncharted Passage's 'raid' (declared in game.cards, implemented in its
    Python) a DSL body: 'cardc diff' said "verb raid: added ..." and "changed voyage
    pirates_raid: ... raid difference(2d6) -> raid difference(2d6)" (the call's origin moved);
    it is one redefinition, from the game's Python to the body."""
    folder = tmp_path / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    variant = folder / "variants" / "raid_plus_one.yaml"
    variant.write_text(
        "description: a Pirate's Raid deals one more\n"
        "verbs: |\n"
        '  verb raid(damage number) "take the raid\'s damage and one more" {\n'
        "    mark durability damage + 1\n"
        "  }\n",
        encoding="utf-8",
    )
    base = compile_game(folder, SourceCache())
    result, _overlay = compile_variant(folder, variant, SourceCache())
    assert base.ir is not None and result.ir is not None
    diff = diff_ir(base.ir, result.ir)
    assert [c.line() for c in diff.definitions] == [
        "verb raid: the game's Python (roll two dice and take Ship Damage equal to the "
        "difference, through the pirate_raid window) -> "
        "verb raid(damage number) { mark durability damage + 1 }"
    ]
    assert diff.changed == [] and diff.added == [] and diff.removed == []


def test_the_questions_of_a_variants_phase_and_verb_are_the_games(tmp_path: Path) -> None:
    """A house rule's inserted phase with a `may` (and a redefined verb with one) is asked as
    'flow.shore_leave.carouse' ('gain_port_card.verb.second'), but a scenario answering it was
    refused: "'flow.shore_leave.carouse' is not a question of uncharted_passage". The DSL
    flow's and verbs' questions are the game's, for the scenario checker and its schema."""
    folder = tmp_path / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    variant = folder / "variants" / "shore_leave.yaml"
    variant.write_text(
        "description: shore leave\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase shore_leave "Shore Leave" {\n'
        "        for each captain in players {\n"
        '          may { gain prestige 2; mark health 1 } @label("carouse")\n'
        "        }\n"
        "      }\n"
        "    after: sailing_and_anchoring\n"
        "verbs: |\n"
        '  verb gain_port_card() "one Port Card, or two for a health X" {\n'
        "    draw port_cards 1\n"
        '    may { draw port_cards 1; mark health 1 } @label("second")\n'
        "  }\n",
        encoding="utf-8",
    )
    result, _overlay = compile_variant(folder, variant, SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    asked = questions(result.ir, None)
    assert asked["flow.shore_leave.carouse"] == (
        "Shore Leave: may gain prestige 2, then mark health 1?",
        ("yes", "no"),
    )
    assert asked["gain_port_card.verb.second"][1] == ("yes", "no")
    # The base game's flow asks none of them.
    base = compile_game(ROOT / "cards" / "uncharted_passage", SourceCache())
    assert base.ir is not None
    assert not {"flow.shore_leave.carouse", "gain_port_card.verb.second"} & set(
        questions(base.ir, None)
    )


def test_an_answer_without_its_prefix_is_suggested_with_it(tmp_path: Path) -> None:
    """'east_asia.goods: wine' (Crew Actions' 'crew.sell' takes a bare 'wine') listed six
    specialties at random; the answer is 'specialty:wine', and the hint says so."""
    result = _one(
        tmp_path,
        """\
        scenario: a permit offered by the specialty's bare name
        game: uncharted_passage
        choices:
          - east_asia.goods: wine
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert (
        "s.yaml:4:22: 'wine' is not an answer to 'east_asia.goods'; did you mean "
        "'specialty:wine'?" in result.message
    ), result.message


def test_a_voyage_card_without_its_resources_is_refused_by_name() -> None:
    """A designer's voyage card with a two-number 'resource_triple 2 4' (or no resources at
    all) allowed every line up to 6/6/6 (18 resources), silently; it is refused naming the
    card and how to write it."""
    game = new_game(FOLDER, 1, seed=1)
    assert isinstance(game, UnchartedPassage)
    base = game.cards["calm_seas"]
    game.cards = dict(game.cards)
    game.cards["crosswinds"] = {**base, "id": "crosswinds", "properties": {}}
    with pytest.raises(RuleError, match="crosswinds: a voyage card gives its resources"):
        game.allocation_options("crosswinds")
    game.cards["crosswinds"] = {
        **base,
        "id": "crosswinds",
        "properties": {"resource_triple": [[2, 4]]},
    }
    with pytest.raises(RuleError, match="crosswinds: resource_triple is three numbers"):
        game.allocation_options("crosswinds")


#: A house rule redefining 'raid' in the DSL: "a Pirate's Raid deals 1 more damage", through
#: the pirate_raid window, so the cards that answer it (Smoke Bomb) still do.
RAID_PLUS_ONE = """\
description: a Pirate's Raid deals one more (a house rule)
verbs: |
  verb raid(damage number) "the difference of two dice and one more, through the window" {
    if damage > 0 {
      fire pirate_raid with damage damage + 1 {
        let taken damage
        mark durability taken
      }
    }
  } @provisional("a house rule, not the rulebook's: one more damage")
"""

SMOKE_BOMB_UNDER_THE_HOUSE_RULE = """\
scenario: Smoke Bomb reduces a Pirate's Raid that a house rule made worse
game: uncharted_passage
variant: raid_plus_one
given:
  player:
    in_pirate_infested_area: true
    zones: {port_cards: [smoke_bomb]}
dice: [4, 2]
choices:
  - smoke_bomb.pirate_raid.use: {answer}
do:
  - action: reveal
    args: {card: pirates_raid}
expect:
  player:
    tracks: {durability: {marks}}
    zones: {port_cards: {held}}
"""


def test_a_raid_redefined_in_the_dsl_still_opens_the_window_smoke_bomb_answers(
    tmp_path: Path, built_copy: Callable[[str, dict[str, str]], Path]
) -> None:
    """A house rule redefining 'raid' in the DSL ("a Pirate's Raid deals 1 more damage") could
    only mark the durability itself: no DSL statement opened the pirate_raid window, so Smoke
    Bomb was never offered. `fire pirate_raid with damage ... { ... }` opens it, and the block
    reads the damage as Smoke Bomb left it: 4 - 2 + 1 = 3, less Smoke Bomb's 2 when used."""
    generated = built_copy("uncharted_passage", {"variants/raid_plus_one.yaml": RAID_PLUS_ONE})
    for answer, marks, held in (("yes", 1, "[]"), ("no", 3, "[smoke_bomb]")):
        path = tmp_path / f"smoke_{answer}.yaml"
        text = SMOKE_BOMB_UNDER_THE_HOUSE_RULE
        for key, value in (("{answer}", answer), ("{marks}", str(marks)), ("{held}", held)):
            text = text.replace(key, value)
        path.write_text(text, encoding="utf-8")
        (result,) = Runner(generated).run_file(path)
        assert result.passed, (answer, result.message)


def test_a_variant_of_no_rounds_or_negative_copies_is_refused_at_the_yaml(tmp_path: Path) -> None:
    """`params: {rounds: 0}` and `copies: -2` checked: the game played no month, and the deck
    took the card as none. Each is an error at its YAML value, with the fix as the hint."""
    folder = tmp_path / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    variant = folder / "variants" / "nothing.yaml"
    variant.write_text(
        "description: no months, no smoke\n"
        "params:\n"
        "  rounds: 0\n"
        "cards:\n"
        "  smoke_bomb: {copies: -2}\n"
        "  rum: {copies: 3}\n",
        encoding="utf-8",
    )
    result, _overlay = compile_variant(folder, variant, SourceCache())
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert result.ir is None
    assert [(d.code, d.span.file, d.span.line, d.span.column) for d in errors] == [
        ("round-count", str(variant), 3, 11),
        ("copies-count", str(variant), 5, 24),
    ]
    assert "'rounds' cannot be 0" in errors[0].message
    assert errors[0].hints == ("write: param rounds 12 (in a variant: params: {rounds: 12})",)
    assert "0 or more, not -2" in errors[1].message
    assert errors[1].hints == ("write: copies 3 (copies 0 leaves the card out of the deck)",)


def _check_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: str) -> list[Diagnostic]:
    """The diagnostics of the game with one more card file, ``probe.cards``."""
    return diagnostics_with_card_file(tmp_path, monkeypatch, "uncharted_passage", cards)


def test_a_mission_naming_a_place_of_the_wrong_sort_is_an_error_at_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`to kraken` (a Discovery Spot where a port or region is meant) and `regions lisbon` (a
    port where a region is meant) checked, and did nothing when the game ran: the mission
    could never be accomplished. game.cards says what each property names."""
    found = _check_with(
        tmp_path,
        monkeypatch,
        'mission trade "Rum for the Kraken" {\n  reward stars 2\n  deliver silk\n  to kraken\n}\n'
        'mission route "Lisbon Loop" {\n  reward stars 2\n  regions lisbon, europe\n}\n'
        'mission trade "Silk for Lisbn" {\n  reward stars 2\n  deliver silk\n  to lisbn\n}\n'
        'mission discovery "Find Hawaii" {\n  reward stars 1\n  spot hawai\n}\n'
        'mission trade "Wine for Genoa" {\n  reward stars 2\n  deliver wine\n  to genoa\n}\n',
    )
    got = {(d.span.line, d.span.column): (d.code, d.message, d.hints) for d in found}  # type: ignore[attr-defined]
    assert set(got) == {(4, 6), (8, 11), (13, 6), (17, 8)}
    code, message, hints = got[(4, 6)]
    assert code == "property-names"
    assert message == (
        "'to' names a space tagged port or a region; 'kraken' is a space tagged discovery"
    )
    assert hints[0].startswith("a space tagged port or a region: london, ")
    code, message, _ = got[(8, 11)]
    assert (code, message) == (
        "property-names",
        "'regions' names a region; 'lisbon' is a space tagged port",
    )
    assert got[(13, 6)][0] == "name-undefined"
    assert got[(13, 6)][2] == ("did you mean 'lisbon'?",)
    assert got[(17, 8)][2] == ("did you mean 'hawaii'?",)


def test_the_world_maps_names_are_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port's region and specialty, a white border's spaces: map.cards is data the same
    declarations check (a port in 'europa' would be in no region)."""
    found = _check_with(
        tmp_path,
        monkeypatch,
        'space port "Porto" {\n  q 40; r 40\n  stars 1\n  specialty wool\n  region europa\n}\n'
        'white_border "Porto Bar" {\n  edges porto sea_0_0, porto wine\n}\n',
    )
    got = {(d.span.line, d.span.column): (d.code, d.hints) for d in found}  # type: ignore[attr-defined]
    assert set(got) == {(5, 10), (8, 30)}
    assert got[(5, 10)] == ("name-undefined", ("did you mean 'europe'?",))
    # 'wine' is a specialty, not a space.
    code, hints = got[(8, 30)]
    assert code == "property-names"
    assert hints[0].startswith("a space: sea_0_0, ")


def test_a_mode_misspelt_is_told_at_its_column_with_the_one_it_means(tmp_path: Path) -> None:
    """A scenario's 'mode: compettive' was '...yaml:3: mode: 'compettive' is not one of [...]',
    with no column nor the mode it means; 'mode: cooperative' (the rulebook's "Cooperative
    Mode", which 'cardc sim --mode' takes) was refused the same way."""
    result = _one(
        tmp_path,
        """\
        scenario: a mode misspelt
        game: uncharted_passage
        mode: compettive
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert "s.yaml:3:7: mode: 'compettive' is not one of" in result.message, result.message
    assert result.message.endswith("did you mean 'competitive'?"), result.message


def test_a_zone_written_under_a_player_is_told_to_go_under_zones(tmp_path: Path) -> None:
    """'port_cards: [rum]' under a player was "did you mean 'port_card_pile'?" (the pile the
    cards are drawn from, another thing), and 'specialties: 1' a list of 30 keys; a zone,
    counter or track of the game is told the key it goes under."""
    result = _one(
        tmp_path,
        """\
        scenario: a player's zone and counter written bare
        game: uncharted_passage
        given:
          player:
            port_cards: [rum]
            specialties: 1
        do:
          - action: finish
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert (
        "s.yaml:5:5: 'port_cards' is a zone: give it in the player's zones: "
        "zones: {port_cards: [rum]}" in result.message
    ), result.message
    assert (
        "s.yaml:6:5: 'specialties' is a counter: give it in the player's counters: "
        "counters: {specialties: 1}" in result.message
    ), result.message


def test_a_word_that_begins_many_names_is_told_as_their_family(tmp_path: Path) -> None:
    """'anchor_at_sea' with 'place: sea' (the rulebook's "anchored at sea") was "did you mean
    'sea_9_7'?", one sea space of 240 picked by the spelling alone; the hint now says that the
    sea's spaces are named sea_Q_R and shows some."""
    result = _one(
        tmp_path,
        """\
        scenario: anchored at sea
        game: uncharted_passage
        do:
          - action: anchor_at_sea
            args: {place: sea}
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert "s.yaml:5:19: 'sea' is not a place; " in result.message, result.message
    assert "names begin with 'sea_', for example: sea_0_0, sea_0_1" in result.message
    assert "did you mean" not in result.message


def test_a_question_of_a_card_misnamed_is_told_the_cards_questions(tmp_path: Path) -> None:
    """A 'choose one of' is named by its options ('take_treasure_or_move_pirate_ship'); a
    tester's 'discovering_treasure.campsite_reached.choose' was told "did you mean
    '...move_pirate_ship'?", the card's other question (a 'may'). The hint lists the card's
    questions of that trigger with their answers. (Darwin's Journey has such a card; a probe's
    Port Card "Hardtack" with a 'may { choose one of ... }' found it.)"""
    path = tmp_path / "s.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            scenario: a choice's question named by its verb
            game: darwins_journey
            choices:
              - discovering_treasure.campsite_reached.choose: take_treasure
            expect:
              round: 1
            """
        ),
        encoding="utf-8",
    )
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    assert (
        "s.yaml:4:5: 'discovering_treasure.campsite_reached.choose' is not a question of "
        "darwins_journey; the questions of discovering_treasure.campsite_reached are "
        "'discovering_treasure.campsite_reached.move_pirate_ship' (answers: yes, no), "
        "'discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship' "
        "(answers: take_treasure, move_pirate_ship)" in result.message
    ), result.message


def test_a_key_a_scenario_may_give_but_not_check_says_so(tmp_path: Path) -> None:
    """'expect: {pile: 12}' (the setup's "pile of 13 Voyage Cards") was "'pile' is not
    something a scenario can check; did you mean 'titles'?": the pile, the Public Mission
    Cards and the Port Card pile may now be checked (a list, or a count), and a key that can
    only be given is told so, not matched to another key by its spelling."""
    result = _one(
        tmp_path,
        """\
        scenario: the chart expected
        game: uncharted_passage
        given: {chart: stand_in}
        do: [{action: setup}]
        expect: {chart: stand_in, pile: 11}
        """,
    )
    assert not result.passed
    assert (
        "s.yaml:5:10: 'chart' is something a scenario can set but not check in "
        "uncharted_passage" in result.message
    ), result.message
    assert "pile" not in result.message, result.message


def test_diff_of_a_phase_rewritten_names_its_body(tmp_path: Path) -> None:
    """A house rule replacing the Pirate phase ('none in the first month': its two statements
    put under one 'if'): 'cardc diff' printed "phase pirate: removed (was roll_pirates)" twice
    and "phase pirate: added if round > 1 { ... }", which reads as the phase removed; it is one
    change of the phase's body."""
    folder = tmp_path / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    variant = folder / "variants" / "calm_first_month.yaml"
    variant.write_text(
        "description: no pirates in the first month\n"
        "flow:\n"
        "  - replace: |\n"
        "      phase pirate {\n"
        "        if round > 1 {\n"
        "          roll_pirates\n"
        "          for each captain in players { face_pirates }\n"
        "        }\n"
        "      }\n",
        encoding="utf-8",
    )
    base = compile_game(folder, SourceCache())
    result, _overlay = compile_variant(folder, variant, SourceCache())
    assert base.ir is not None and result.ir is not None
    lines = [c.line() for c in diff_ir(base.ir, result.ir).flow]
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        "phase pirate body: roll_pirates; for each captain in players by "
    ), lines
    assert lines[0].endswith(
        " -> if round > 1 { roll_pirates; for each captain in players { face_pirates } }"
    ), lines


def test_a_card_the_variant_removes_is_told_so_in_a_scenario(tmp_path: Path) -> None:
    """A scenario of a variant naming a card the variant removes ('no_mid_event' and the
    Anti-Piracy Mission) was "'anti_piracy_mission' is not a card; 384 known, for example:
    ...", as if misspelt; it is told that the variant removes it."""
    result = _one(
        tmp_path,
        """\
        scenario: a mid-event of a variant without them
        game: uncharted_passage
        variant: no_mid_event
        given:
          mid_event: anti_piracy_mission
        do:
          - action: finish
        expect:
          round: 1
        """,
    )
    assert not result.passed
    assert (
        "s.yaml:5:14: 'anti_piracy_mission' is a card of the base game that the variant "
        "'no_mid_event' removes" in result.message
    ), result.message


def test_names_written_as_a_designer_guesses_are_told_what_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four guesses of a designer's first card: 'discard this' (hint was the trigger's
    quantities), 'gain port_card 1' (a list of counters), 'if docked' (the trigger's names:
    the native wants brackets) and 'place == discovery' (a tag of the space). Each is told what
    the name is and how to write it."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        """\
port_card "Charm" {
  copies 2
  on pirate_combat {
    may {
      reduce pirate_power up_to 1
      discard this
    }
  }
}
port_card "Chart" {
  copies 1
  on dock {
    gain port_card 1
    if docked { gain prestige 1 }
  }
}
mid_event "Gale" {
  on anchor_at_sea {
    if place == discovery { mark health 1 }
  }
}
""",
    )
    got = [(d.span.line, d.span.column, d.hints[0] if d.hints else "") for d in found]
    assert got == [
        (6, 15, "the card itself is 'self' (discard self)"),
        (
            13,
            10,
            "'port_card' is a kind of card, not a counter: did you mean the verb 'gain_port_card'?",
        ),
        (14, 8, "'docked' is a native: call it, docked()"),
        (19, 17, "'discovery' is a tag of mission, space: test a card for it as place.discovery"),
    ], got


def test_a_card_named_by_its_title_in_a_variant_is_told_its_id(tmp_path: Path) -> None:
    """'remove: [Rum, Smoke Bomb]' (the cards' titles) was "'Rum' is not a card of this game"
    with no hint at all ('Rum' is too short to be close to 'rum' by spelling); each is told
    its id."""
    folder = tmp_path / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    variant = folder / "variants" / "by_title.yaml"
    variant.write_text("remove: [Rum, Smoke Bomb]\n", encoding="utf-8")
    result, _overlay = compile_variant(folder, variant, SourceCache())
    got = [(d.span.line, d.span.column, d.message, d.hints) for d in result.diagnostics]
    assert got == [
        (1, 10, "'Rum' is not a card of this game", ("did you mean 'rum'?",)),
        (1, 15, "'Smoke Bomb' is not a card of this game", ("did you mean 'smoke_bomb'?",)),
    ], got


CUSTOMS_SEIZURE = """\
description: Customs Seizure (a house rule) - a voyage card that takes a specialty
add: |
  voyage first_half "Customs Seizure" {
    resources 11 @provisional("a house rule")
    pirate highest(2d6) @provisional("a house rule")
    on reveal {
      if specialties > 0 { lose specialties 1 }
    }
  }
"""

SEIZED = """\
scenario: a specialty lost by a card is crossed out of the Specialties Book
rulebook: "Conversely, if you lose specialties in any manner, you mark it with an X over its name."
game: uncharted_passage
variant: customs
given:
  chart: stand_in
  missions_dealt: true
  player:
    position: london
    goods: {goods}
    ports_visited: [lisbon]
    zones: {missions: [silk_for_lisbon]}
    counters: {sailing_speed: 1, crew_stamina: 1}
choices: {choices}
do:
  - action: reveal
    args: {card: customs_seizure}
  - action: sail_to
    args: {to: lisbon}
  - action: anchor
expect:
  player:
    goods: {left}
    zones: {missions: {missions}}
"""


def test_a_specialty_a_card_loses_is_crossed_out_by_name(
    tmp_path: Path, built_copy: Callable[[str, dict[str, str]], Path]
) -> None:
    """A designer's card 'lose specialties 1' (the README's own abandon_specialty does so)
    lowered the count and left the name in the Specialties Book: the ship still delivered
    the silk it had lost for Silk for Lisbon. The name is crossed out, the captain choosing
    which when the book holds several."""
    generated = built_copy("uncharted_passage", {"variants/customs.yaml": CUSTOMS_SEIZURE})
    cases = (
        ("[silk]", "[]", "[]", "[silk_for_lisbon]"),
        ("[silk, wool]", "[specialties.lose: specialty:wool]", "[]", "[]"),
        ("[silk, wool]", "[specialties.lose: specialty:silk]", "[wool]", "[silk_for_lisbon]"),
    )
    for index, (goods, choices, left, missions) in enumerate(cases):
        path = tmp_path / f"seized_{index}.yaml"
        text = SEIZED
        for key, value in (
            ("{goods}", goods),
            ("{choices}", choices),
            ("{left}", left),
            ("{missions}", missions),
        ):
            text = text.replace(key, value)
        path.write_text(text, encoding="utf-8")
        (result,) = Runner(generated).run_file(path)
        assert result.passed, (goods, choices, result.message)


PROBE_DATA = ROOT / "tests" / "data" / "probe_uncharted_passage"


def test_a_designers_cards_and_house_rules_check_play_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The probe's new cards (tests/data/probe_uncharted_passage/probe.cards: Port Cards with
    conditions, choices and windows, voyages with events and a restraint, mid-events,
    missions) and ten house rules (params, tracks, cards changed, added and removed, flow
    phases inserted, moved, replaced and removed, verbs and functions redefined, an end
    condition) build with the game, their scenarios hold, and each plays whole games in every
    mode without an error."""
    files = {"probe.cards": (PROBE_DATA / "probe.cards").read_text(encoding="utf-8")}
    for variant in sorted((PROBE_DATA / "variants").glob("*.yaml")):
        files[f"variants/{variant.name}"] = variant.read_text(encoding="utf-8")
    generated = built_copy("uncharted_passage", files)
    runner = Runner(generated)
    failed = [
        f"{result.name}: {result.message}"
        for path in sorted((PROBE_DATA / "scenarios").glob("*.yaml"))
        for result in runner.run_file(path)
        if not result.passed
    ]
    assert failed == []
    folder = generated / "uncharted_passage"
    for point in [folder, *sorted(p.parent for p in folder.glob("*/cards.json"))]:
        for mode in ("solo", "competitive", "coop"):
            report = sim.simulate(point, 4, 7, mode, "greedy", cards=False)
            assert report.games == 4, (point.name, mode)


def test_a_draw_from_a_zone_no_deck_is_built_for_is_an_error_at_the_draw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A designer's Mid-event 'New Orders: draw a mission' ('draw missions 1') checked and
    built, then stopped the first simulated game that revealed it ("'draw missions' takes from
    the deck 'build_deck missions' makes, and this game built none"): the missions are dealt
    at the setup, and no deck of them is kept. It is an error at the draw; the Port Card pile,
    which the game's Python keeps, is named in its natives.py (DECKS)."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        """\
mid_event "New Orders" {
  on reveal {
    draw missions 1
    draw port_cards 1
  }
}
""",
    )
    assert [(d.code, d.span.line, d.span.column, d.message) for d in found] == [
        (
            "deck-undefined",
            3,
            5,
            "'draw missions' takes from a deck of missions, and nothing in this game builds one",
        )
    ]
    assert "DECKS = ('missions',)" in found[0].hints[0]
