"""Incredible Expeditions, audited sentence by sentence against its rulebook: the modes the
rulebook defines, and the names a designer reading only the rulebook and the README guesses
for new cards and house rules (tests/data/incredible_expeditions_audit/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probing import run_scenarios

from compiler.cli import main

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


def test_the_game_declares_the_rulebooks_modes_competitive_and_coop(capsys: Any) -> None:
    """ "a game for 2-4 players" and "In the competitive game": competitive and co-operative,
    never solo; cardc sim refuses --mode solo naming the two, and plays co-op games."""
    from engine.loader import rules_module

    assert rules_module("incredible_expeditions").MODES == ("competitive", "coop")
    argv = ["sim", "incredible_expeditions", "--games", "2", "--jobs", "1", "--quiet", "--json"]
    assert main([*argv, "--mode", "solo"]) != 0
    out = capsys.readouterr()
    assert "'incredible_expeditions' has no solo mode; its modes: competitive, coop" in (
        out.out + out.err
    )
    assert main([*argv, "--mode", "coop"]) == 0
    assert '"games": 2' in capsys.readouterr().out


def test_a_scenario_in_solo_mode_is_refused_naming_the_modes(tmp_path: Path) -> None:
    """A scenario's ``mode: solo`` is an error at its line; ``mode: cooperative`` is coop, in
    which no ship is Marooned."""
    results = run_scenarios(
        GENERATED,
        "scenario: solo\n"
        'rulebook: "This is the basic setup for a game for 2-4 players."\n'
        "game: incredible_expeditions\n"
        "mode: solo\n"
        "do:\n"
        "  - action: refresh_crew\n"
        "expect:\n"
        "  first_player: 1\n"
        "---\n"
        "scenario: co-operative\n"
        'rulebook: "In the competitive game, if ever you have less than 3 capable Crew"\n'
        "game: incredible_expeditions\n"
        "mode: cooperative\n"
        "given:\n"
        "  player:\n"
        "    location: misty_strait\n"
        "do:\n"
        "  - action: refresh_crew\n"
        "expect:\n"
        "  player:\n"
        "    marooned: false\n",
        tmp_path / "modes.yaml",
    )
    assert not results[0].passed
    assert "has no solo mode; its modes: competitive, coop" in results[0].message
    assert results[1].passed, results[1].message


AUDIT_DATA = ROOT / "tests" / "data" / "incredible_expeditions_audit"


def test_new_cards_and_house_rules_in_the_rulebooks_words_check_build_and_play(
    built_copy: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Eight new cards answering the rulebook's words ("Upon Facing...", "If defeated", "If
    Undefeated", "When entering...", an Ability, Acquire, Lost, Sacrifice) and four house rules
    (params, a card changed, a rule added, a verb redefined) check, build and play their
    scenarios (tests/data/incredible_expeditions_audit/), and whole games of each variant."""
    from engine.scenario import Runner

    files = {"audit_cards.cards": (AUDIT_DATA / "audit_cards.cards").read_text(encoding="utf-8")}
    for variant in sorted((AUDIT_DATA / "variants").glob("*.yaml")):
        files[f"variants/{variant.name}"] = variant.read_text(encoding="utf-8")
    assert len(files) == 5
    generated = built_copy("incredible_expeditions", files)
    for name, at_least in (("audit_cards.yaml", 9), ("audit_variants.yaml", 7)):
        results = list(Runner(generated).run_file(AUDIT_DATA / name))
        assert len(results) >= at_least
        assert [r.message for r in results if not r.passed] == []
    monkeypatch.chdir(generated.parent)
    for variant in ["base", *(name[9:-5] for name in files if name.startswith("variants/"))]:
        for policy in ("greedy", "random"):
            argv = ["sim", "incredible_expeditions", "--games", "2", "--jobs", "1", "--quiet"]
            argv += ["--policy", policy, "--json"]
            if variant != "base":
                argv += ["--variant", variant]
            assert main(argv) == 0, (variant, policy, capsys.readouterr())
            assert '"games": 2' in capsys.readouterr().out
    # The rules reference of a variant prints its own numbers: "Draw up to 6 cards" and "You
    # may Acquire up to 3 cards" were printed for a Market of 8 and 4 Acquisitions.
    out = generated.parent / "sheets"
    argv = ["sheets", "incredible_expeditions", "--variant", "busy_market", "--format", "md"]
    assert main([*argv, "--out", str(out)]) == 0, capsys.readouterr()
    sheet = (out / "incredible_expeditions" / "busy_market.md").read_text(encoding="utf-8")
    assert "draw up to 8 cards of any combination" in sheet
    assert "You may Acquire up to 4 cards on your turn" in sheet
    assert "Sacrifice this card \\(remove it from the game\\)" in sheet


def check_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: str) -> list[str]:
    """``cardc check``'s diagnostics of one more card file, as 'line:col: message | hints'."""
    from probing import diagnostics_with_card_file

    return [
        f"{d.span.line}:{d.span.column}: {d.message} | {' '.join(d.hints)}"
        for d in diagnostics_with_card_file(tmp_path, monkeypatch, "incredible_expeditions", cards)
    ]


def test_the_rulebooks_words_for_a_trigger_are_told_the_games_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Upon Facing..." written ``on upon_facing`` is told 'facing' (its last word), and a
    Resource's "Ability" written ``on ability`` is told 'play', whose description says Ability;
    before, each hint only listed the triggers."""
    found = check_cards(
        tmp_path,
        monkeypatch,
        'crew "Lookout" {\n'
        "  bubbles heroism 1\n"
        "  to_acquire money 2\n"
        "  on upon_facing { gain temporary_heroism 1 }\n"
        "}\n"
        'resource "Rum" {\n'
        "  values money 1\n"
        "  on ability { refresh_one }\n"
        "}\n",
    )
    assert any(
        # (with its description since probe4-dj's hints by the words game.cards gives)
        line.startswith("4:3: 'upon_facing' is not a trigger")
        and "did you mean 'facing' (Upon Facing an Encounter)?" in line
        for line in found
    ), found
    assert any(
        line.startswith("8:3: 'ability' is not a trigger")
        and "did you mean 'play' (a Resource card is played for its Ability)?" in line
        for line in found
    ), found


def test_an_encounter_of_more_than_three_bubbles_is_an_error_at_its_difficulty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "in 1 to 3 bubbles, is the Difficulty of this Encounter": a fourth was summed in."""
    found = check_cards(
        tmp_path,
        monkeypatch,
        'encounter "Hydra" {\n'
        "  type creature\n"
        "  difficulty heroism 1, skullduggery 1, heroism_or_skullduggery 1, "
        "heroism_or_skullduggery 1\n"
        "}\n",
    )
    assert found == [
        "3:3: Hydra: an Encounter's Difficulty is in 1 to 3 bubbles, and this one has 4 | "
        "write at most 3: difficulty heroism 2, skullduggery 1, heroism_or_skullduggery 2"
    ], found


def test_a_flow_edit_naming_a_step_done_inside_a_phase_is_told_that_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """A house rule inserting a phase "before the Rest Turn" (``before: rest_turn``) was told
    only the list of phases: the Rest Turn is the verb take_rest_turn, which the phase
    spend_the_turn does; the hint says so (and a near miss is still "did you mean")."""
    from probing import copy_game

    folder = copy_game(tmp_path, "incredible_expeditions")
    (folder / "variants" / "toll.yaml").write_text(
        "description: toll\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase toll "Toll" {\n'
        "        lose money 1\n"
        '      } @provisional("a house rule")\n'
        "    before: rest_turn\n"
        "  - remove: encounter_turn\n"
        "  - remove: draw\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "toll.yaml:7:13: error[variant-flow]: 'rest_turn' is not a phase" in text
    assert (
        "hint: the phase 'spend_the_turn' does it (take_rest_turn): name that phase, or "
        "redefine the verb 'take_rest_turn' under verbs:" in text
    )
    assert "hint: the phase 'spend_the_turn' does it (take_encounter_turn)" in text
    assert "hint: did you mean 'draw_a_hand' or 'draw_phase'?" in text


def test_a_card_of_the_rulebooks_short_kind_is_told_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new Expedition Leader written ``leader "Dr. Vance" { ... }`` (the rulebook's "your
    Leader") was told only to declare the kind; it is told 'expedition_leader'."""
    found = check_cards(
        tmp_path, monkeypatch, 'leader "Dr. Vance" {\n  white_cross 1\n  black_skull 1\n}\n'
    )
    assert found == [
        "1:1: 'leader' is not a kind of card this game declares | did you mean "
        "'expedition_leader'? declare it in game.cards: kind leader \"what it is\" { ... }"
    ], found


def test_a_shared_pile_under_a_player_and_a_players_key_beside_one_are_refused(
    tmp_path: Path,
) -> None:
    """The Encounter Deck given under a player set the shared deck as if it were theirs,
    silently; a player's Crew Cabins given beside 'player' failed only when the given ran,
    without a line (PLAYER_KEYS now names a player's keys for the scenario checker)."""
    results = run_scenarios(
        GENERATED,
        "scenario: shared under a player\n"
        'rulebook: "1. Flip over the top card of the Encounter Deck."\n'
        "game: incredible_expeditions\n"
        "players: 2\n"
        "given:\n"
        "  player:\n"
        "    encounter_deck: [giant_crab]\n"
        "do:\n"
        "  - action: face_encounter\n"
        "expect:\n"
        "  player:\n"
        "    zones: {defeated_encounters: [giant_crab]}\n"
        "---\n"
        "scenario: a player's beside player\n"
        'rulebook: "new Crew cards go into the lowest-numbered available Crew Cabin"\n'
        "game: incredible_expeditions\n"
        "players: 2\n"
        "given:\n"
        "  cabins: [pilot]\n"
        "do:\n"
        "  - action: refresh_crew\n"
        "expect:\n"
        "  player:\n"
        "    cabins: [pilot, null, null, null, null, null]\n",
        tmp_path / "keys.yaml",
    )
    assert [r.passed for r in results] == [False, False]
    assert "'encounter_deck' is shared by every player, not a player's" in results[0].message
    assert "keys.yaml:19:3: 'cabins' belongs to a player" in results[1].message
