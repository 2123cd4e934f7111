"""The sentence-by-sentence audit of Darwin's Journey: Pirates (``darwins-journey-pirates.txt``):
an outside tester's new cards and house rules, written from the rulebook's words and README,
and the names they reach for.

- Rule cases are ``tests/scenarios/darwins_journey/audit.yaml``; eight new cards and four house
  rules are ``tests/data/darwins_journey_audit/`` (built into a copy of the game and played).
- A rulebook's words made an id ('special_action_tile', 'pirate_ship', 'ocean_region',
  'place_the_pirate_ship', 'after_reward_phase') found no "did you mean": each was too far from
  the declared name in spelling, though game.cards describes it in those very words. cardc
  check now matches them against the descriptions; an abbreviation by initials ('vp') finds
  victory_points, in cards and scenarios; a card's title or code in a scenario ('P1') its id.
- A scenario's step named by a verb of the game ('take_treasure') is told the steps that do
  it; the rulebook's own names for steps (``pirate_raid``, ``reward_phase``,
  ``move_pirate_ship``, ``hire_crew``) are steps of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from probing import diagnostics_with_card_file

from engine.loader import rules_module
from engine.scenario import Runner
from engine.sim import Simulator

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "darwins_journey_audit"
dj = rules_module("darwins_journey")


@pytest.fixture(autouse=True)
def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Check afresh: compiler.filecache would carry cards checked by earlier tests."""
    from compiler import filecache

    monkeypatch.setattr(filecache, "ENABLED", False)


def _files() -> dict[str, str]:
    files = {"audit_cards.cards": (DATA / "audit_cards.cards").read_text(encoding="utf-8")}
    for variant in sorted((DATA / "variants").glob("*.yaml")):
        files[f"variants/{variant.name}"] = variant.read_text(encoding="utf-8")
    return files


def test_a_testers_new_cards_and_house_rules_check_build_and_play(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Eight new cards (a second Pirate Special Action tile, four Crew cards, a rule on the
    raid's trigger, a Beagle Goal tile and an Objective tile) and four house rules (the raid
    and the Treasure rewritten, a phase after the raid, a tenth Campsite) build and play."""
    files = _files()
    assert len(files) == 5
    generated = built_copy("darwins_journey", files)
    counts = {}
    for name in ("audit_cards.yaml", "audit_variants.yaml"):
        results = list(Runner(generated).run_file(DATA / name))
        assert [r.message for r in results if not r.passed] == []
        counts[name] = len(results)
    assert counts == {"audit_cards.yaml": 9, "audit_variants.yaml": 4}

    # "only draw 5 random Special Action tiles. Then add the Pirate Special Action tile and
    # shuffle all 6 tiles": with a second expansion tile, the Diary still holds 6, so 4 base
    # tiles are drawn, whatever the seed.
    sim = Simulator(generated / "darwins_journey")
    for seed in range(1, 6):
        game = sim.new_game(seed, 2, "competitive", sim.factory("random"))
        game.run_section("setup")  # type: ignore[attr-defined]
        diary = game.board["diary"]
        assert len(diary) == 6
        assert sorted(t for t in diary if "base" not in game.cards[t]["tags"]) == [
            "pirate",
            "smugglers_cove",
        ]


@pytest.mark.parametrize(
    ("cards", "line_column", "hint"),
    [
        # "Special Action tile": the kind described "a Special Action tile".
        (
            'special_action_tile pirates "Cove" { code "P2" }\n',
            (1, 1),
            "did you mean 'action_tile' (a Special Action tile)?",
        ),
        # "victory point", as players write it.
        (
            'crew pirates "P5" { code "P5"; on use { gain vp 1 } }\n',
            (1, 46),
            "did you mean 'victory_points'?",
        ),
        # "the Pirate Ship" and "an Ocean Region": the natives described in those words.
        (
            'crew pirates "P5" { code "P5"; on use { if pirate_ship() == ship_region(player) '
            "{ gain coins 1 } } }\n",
            (1, 44),
            "did you mean 'pirate_region' (the Ocean Region of the Pirate Ship, or none while "
            "it is in the supply)?",
        ),
        (
            'crew pirates "P5" { code "P5"; on use { if ocean_region(player) == pirate_region() '
            "{ gain coins 1 } } }\n",
            (1, 44),
            "did you mean 'pirate_region' (the Ocean Region of the Pirate Ship, or none while "
            "it is in the supply), 'pirate_ship_in_supply' (the Pirate Ship is in the supply, "
            "near the main board (in no Ocean Region)) or 'ship_region' (the Ocean Region of a "
            "player's ship)?",
        ),
        # "place it onto an Ocean Region": the verb described "place the Pirate Ship ...".
        (
            'crew pirates "P5" { code "P5"; on use { place_the_pirate_ship } }\n',
            (1, 41),
            "did you mean 'move_pirate_ship' (place the Pirate Ship in an Ocean Region of your "
            "choice (not the starting area))?",
        ),
        # "After each Reward Phase": the trigger described so.
        (
            'rule "Bounty" { on after_reward_phase { gain coins 1 } }\n',
            (1, 17),
            "did you mean 'reward_phase_end' (after each Reward Phase)?",
        ),
    ],
)
def test_a_rulebook_word_made_a_name_is_told_the_name_game_cards_describes_so(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    cards: str,
    line_column: tuple[int, int],
    hint: str,
) -> None:
    found = diagnostics_with_card_file(tmp_path, monkeypatch, "darwins_journey", cards)
    (error,) = (d for d in found if "undefined" in d.code)
    assert (error.span.line, error.span.column) == line_column
    # After the hint by spelling, if any ('pirate_ship' is spelt like pirate_ship_in_supply).
    assert hint in error.hints


def test_none_compares_with_a_native_that_gives_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pirate_region() gives "none while it is in the supply", its description says. A card
    comparing it with 'none' was told only that 'on use' gives no names of its own, then that
    'none' compares only with an optional property; since lang7 a native's name result compares
    with none, as its description promises. A counter compared with none is still an error."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "darwins_journey",
        'crew pirates "P9" { code "P9"; on use { if pirate_region() == none { gain coins 1 } } }\n',
    )
    assert found == []
    (error,) = diagnostics_with_card_file(
        tmp_path / "counter",
        monkeypatch,
        "darwins_journey",
        'crew pirates "P9" { code "P9"; on use { if coins == none { gain coins 1 } } }\n',
    )
    assert (error.code, error.span.column) == ("type-mismatch", 53), error  # at none
    assert any("coins == 0" in hint for hint in error.hints), error.hints


def test_words_too_common_to_tell_name_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guess whose words fit many descriptions ('the_tile') or one word only ('raid') names
    no declaration: the hint lists the triggers instead of a random pick."""
    found = diagnostics_with_card_file(
        tmp_path, monkeypatch, "darwins_journey", 'rule "Bounty" { on raid { gain coins 1 } }\n'
    )
    (error,) = found
    assert error.hints[0].startswith("triggers: activate, board_setup, campsite_reached")


def _failure(tmp_path: Path, text: str) -> str:
    path = tmp_path / "audit.yaml"
    path.write_text(text, encoding="utf-8")
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    # Without the file's path, which is the test's temporary folder.
    return str(result.message).split(f"{path}:", 1)[1]


HEAD = "scenario: s\ngame: darwins_journey\n"


def test_a_scenario_naming_a_card_by_its_code_or_a_counter_by_its_initials_is_told_the_id(
    tmp_path: Path,
) -> None:
    message = _failure(
        tmp_path,
        HEAD + "given:\n  player:\n    counters: {vp: 1}\n"
        "do:\n  - action: use_crew\n    args: {crew: P1}\nexpect:\n  round: 1\n",
    )
    assert "5:16: 'vp' is not a counter; did you mean 'victory_points'?" in message
    assert "8:18: 'P1' is not a card; did you mean 'p1'?" in message


def test_a_scenario_key_of_the_rulebooks_words_is_told_the_key(tmp_path: Path) -> None:
    """'special_action_diary' holds the key 'diary' (it was told 15 keys, 'diary' among them);
    a player's 'treasure_tokens' is the counter 'treasure' (it was told 'treasure_on', which
    is the board's, not a player's)."""
    message = _failure(
        tmp_path,
        HEAD + "given:\n  special_action_diary: [pirate]\n  player:\n    treasure_tokens: 1\n"
        "expect:\n  round: 1\n",
    )
    assert (
        "4:3: 'special_action_diary' is not something a scenario can set; did you mean 'diary'?"
    ) in message
    assert (
        "6:5: 'treasure_tokens' is not something a scenario can set for a player; did you mean "
        "the counter 'treasure'? give it in the player's counters: {treasure: 1}"
    ) in message


@pytest.mark.parametrize(
    ("action", "words"),
    [
        # The token is taken by the rule that discovers it, with its 3 Coins.
        (
            "take_treasure",
            "'take_treasure' is a verb the game's cards do: to do it, write run: "
            "discovering_treasure.campsite_reached with event: {campsite: ...}",
        ),
        (
            "return_treasure",
            "'return_treasure' is a verb the game's cards do: to do it, write run: "
            "pirate_raid.reward_phase_end",
        ),
        # A verb of the host called only by a DSL verb of the flow: the phase that reaches it.
        (
            "take_back_workers",
            "'take_back_workers' is a verb the game's cards do: to do it, write action: phase "
            "with args: {name: workers_return}",
        ),
    ],
)
def test_a_step_named_by_a_verb_is_told_the_steps_that_do_it(
    tmp_path: Path, action: str, words: str
) -> None:
    message = _failure(tmp_path, HEAD + f"do:\n  - action: {action}\nexpect:\n  round: 1\n")
    assert message == f"4:13: '{action}' is not an action of darwins_journey; {words}"


def test_the_rulebooks_names_for_steps_are_steps(tmp_path: Path) -> None:
    """'Pirate Raid', 'Reward Phase', 'Moving the Pirate Ship' and the Crew Quarters' hiring
    are steps a scenario writes by those names (audit.yaml plays them)."""
    for name in ("pirate_raid", "reward_phase", "move_pirate_ship", "hire_crew"):
        assert name in dj.ACTIONS and name in dj.ACTION_ARGS
    path = tmp_path / "steps.yaml"
    path.write_text(
        HEAD + "players: 2\ngiven:\n  pirate_region: section_2\n  players:\n"
        "    - counters: {ship_space: 3, coins: 0}\n    - counters: {ship_space: 6, coins: 0}\n"
        "do:\n  - action: reward_phase\n  - action: pirate_raid\n"
        "expect:\n  players:\n    - counters: {coins: 0, victory_points: 0}\n"
        "    - counters: {coins: 1}\n",
        encoding="utf-8",
    )
    results: list[Any] = list(Runner(ROOT / "generated").run_file(path))
    assert [r.message for r in results] == [""]
    assert results[0].passed


def test_a_scenario_starts_with_a_treasure_token_on_each_campsite() -> None:
    """A rule case of Discovering Treasure written without a setup step found no token on the
    Campsite: the board began empty, so the scenario's 'take_treasure' answer was never asked
    for. The board now starts as the expansion's setup leaves it; without the expansion's
    rules (no_pirates) no rule places a token, and none is there."""
    generated = ROOT / "generated" / "darwins_journey"
    for variant, tokens in (("", {1}), ("pirate_scenario", {1}), ("no_pirates", {0})):
        sim = Simulator(generated / variant if variant else generated)
        game = sim.new_game(1, 2, "competitive", sim.factory("random"))
        assert len(game.board["treasure"]) == 9
        assert set(game.board["treasure"].values()) == tokens, variant
