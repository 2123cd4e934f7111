"""What probing Darwin's Journey: Pirates as a designer found: new cards, house rules and rule
cases written from the rulebook (``darwins-journey-pirates.txt``), and what each exposed.

- a name a trigger does not give (``scorer`` in a goal tile's ``on final_scoring``) was an
  error with no hint; a verb called like a native (``if play(purser)``) was told "did you
  mean 'player_count'?"; a property of the wrong type had no hint;
- ``end_game`` in a scenario step was reported as the rules refusing the step;
- a board the rules cannot be played on (a lower-case Compatibility mark, a tenth Campsite for
  nine Treasure tokens, two Campsites on one space, map sections that leave spaces out) passed
  silently or failed mid-game with no card named.

The scenarios of ``tests/scenarios/darwins_journey/probe_*.yaml`` hold the rule cases; run
``cardc build`` first.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from probing import copy_game, diagnostics_with_card_file

from compiler.pipeline import compile_game
from dsl.diagnostics import Diagnostic, SourceCache
from engine.loader import rules_module
from engine.runtime import Context, Game, RuleError
from engine.scenario import Runner
from engine.sim import Simulator

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "darwins_journey"
dj = rules_module("darwins_journey")


def _check_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: str) -> list[Diagnostic]:
    """The diagnostics of the game with one more card file, ``probe.cards``."""
    return diagnostics_with_card_file(tmp_path, monkeypatch, "darwins_journey", cards)


def test_a_name_the_trigger_does_not_give_says_who_the_card_acts_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new Beagle Goal tile: 'scorer' is the flow's loop name, out of reach in the card.
    found = _check_with(
        tmp_path,
        monkeypatch,
        'goal_tile beagle_goal "Pirate Hunter" {\n'
        "  on final_scoring { if ship_region(scorer) == pirate_region() { score 2 } }\n"
        "}\n",
    )
    (error,) = found
    assert (error.code, error.span.line, error.span.column) == ("name-undefined", 2, 37)
    assert error.hints == (
        "'on final_scoring' gives no names of its own; the player the card acts for is "
        "'player', the card itself 'self'",
    )


def test_a_verb_called_like_a_native_is_told_it_is_a_verb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _check_with(
        tmp_path,
        monkeypatch,
        'crew pirates "P5" {\n  code "P5"\n  on use { if play(purser) { gain coins 1 } }\n}\n',
    )
    (error,) = found
    assert error.code == "native-undefined"
    # Was "did you mean 'player_count'?": a native merely close to the verb's name.
    assert error.hints[0] == "'play' is a verb: write it as a statement, 'play ...'"
    assert "if play ... { }" in error.hints[1]
    assert not any("player_count" in hint for hint in error.hints)


def test_a_property_of_the_wrong_type_says_how_to_write_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _check_with(
        tmp_path,
        monkeypatch,
        'campsite "Tortuga" { track ocean; space two; tent_sites 1 2; cost 1 }\n'
        'action_tile pirates "Cove" { code "P2"; unlocked_at_start maybe }\n',
    )
    got = {(d.span.line, d.span.column): (d.message, d.hints) for d in found}
    assert got == {
        (1, 41): ("'space' must be a number", ("write: space 2",)),
        (1, 46): (
            "'tent_sites' takes one number",
            ("write one value after the property's name; a list property takes several",),
        ),
        (2, 59): ("'unlocked_at_start' must be true or false", ("write: unlocked_at_start true",)),
    }


# -- end_game in a scenario step ------------------------------------------------------------


def _game(players: int = 1) -> Game:
    sim = Simulator(GENERATED)
    mode = "solo" if players == 1 else "competitive"
    return sim.new_game(1, players, mode, sim.factory("random"))


def test_a_step_that_ends_the_game_ran_and_was_not_refused() -> None:
    game = _game()

    def ending(g: Game, player: Any) -> Context:
        c = Context(player, "", "ending")
        g.end_game(c, "the pirates won")
        return c

    rules = SimpleNamespace(ACTIONS={"ending": ending})
    runner = Runner(ROOT / "generated")
    got = runner._step(Path("x.yaml"), game, rules, {"action": "ending"}, 1)
    assert got is None
    # The game keeps the reason, as its flow does when end_game ends it in play.
    assert game.reason == "the pirates won"  # type: ignore[attr-defined]
    assert ("end_game", 0, "the pirates won") in game.events


def test_a_refusing_step_is_still_a_refusal() -> None:
    game = _game()
    rules = SimpleNamespace(ACTIONS=dj.ACTIONS)
    runner = Runner(ROOT / "generated")
    with pytest.raises(RuleError, match="is not a Campsite"):
        runner._step(
            Path("x.yaml"), game, rules, {"action": "reach_campsite", "args": {"campsite": "x"}}, 1
        )


# -- the board's data, checked before the first move ---------------------------------------


def _with_cards(change: dict[str, dict[str, Any]], add: dict[str, Any] | None = None) -> Game:
    """A game whose cards are the compiled ones with ``change``d properties (and ``add``ed
    cards), before the board is checked."""
    game = _game()
    cards = copy.deepcopy(game.cards)
    for card, properties in change.items():
        cards[card]["properties"].update(properties)
    cards.update(add or {})
    game.cards = cards
    return game


def _campsite(title: str, track: str, space: int) -> dict[str, Any]:
    return {
        "id": title.lower(),
        "kind": "campsite",
        "title": title,
        "tags": [],
        "source": "cards/darwins_journey/probe.cards:1",
        "properties": {"track": track, "space": space, "tent_sites": 1, "cost": 1},
        "formulas": {},
    }


def test_the_shipped_board_and_its_variants_pass() -> None:
    for variant in ("", "fireland", "pirate_scenario", "pirate_unlocked", "no_pirates"):
        sim = Simulator(GENERATED / variant if variant else GENERATED)
        game = sim.new_game(1, 2, "competitive", sim.factory("random"))
        dj.geometry.validate_board(game)


TORTUGA = 'campsite "Tortuga" {{ track {track}; space {space}; tent_sites 1; cost 1 }}\n'


@pytest.mark.parametrize(
    ("board", "cards", "where", "words"),
    [
        # "a strip of map sections marked either OK or NO": 'ok' would silently be NO.
        (
            ('last_space 5; pirate "OK"', 'last_space 5; pirate "ok"'),
            "",
            "board.cards:15:65",
            "Section 2: pirate is 'ok'; the Compatibility diagram marks a map section "
            '"OK" or "NO"',
        ),
        (
            ('last_space 11; pirate "OK"', 'last_space 11; pirate "OK"; lower_pirate "Yes"'),
            "",
            "board.cards:19:79",
            "Section 4: lower_pirate is 'Yes'",
        ),
        # "Place 1 Treasure token onto each Campsite location" with 9 tokens.
        (
            None,
            TORTUGA.format(track="ocean", space=14),
            "probe.cards:1:1",
            "Tortuga: the game has 10 Campsites but 9 Treasure tokens",
        ),
        (
            None,
            TORTUGA.format(track="ocean", space=13),
            "probe.cards:1:35",
            "Tortuga: space 13 of the ocean track also holds the Campsite Valparaiso",
        ),
        (
            None,
            TORTUGA.format(track="island", space=30),
            "probe.cards:1:36",
            "Tortuga: space 30 is not a space a piece can reach on the island track (1 to 11",
        ),
        (
            ("first_space 6; last_space 8", "first_space 7; last_space 8"),
            "",
            "board.cards:17:36",
            "Section 3: its spaces are 7 to 8, but the map sections must cover the Ocean track "
            "in order without a gap: this one should start at space 6",
        ),
        (
            ("first_space 15; last_space 17", "first_space 15; last_space 20"),
            "",
            "board.cards:23:52",
            "the map sections cover the Ocean track's spaces 0 to 20, but ship_space goes up to 17",
        ),
        # "the Pirate Ship is placed into the Ocean Region shown with the X": not the start.
        (
            None,
            'scenario_card "Calm Scenario" {\n  code "P8"\n  special_action_tiles pirate\n'
            "  correspondence_tiles letters_from_home\n  beagle_goal_tiles far_shores\n"
            "  pirate_region section_1\n}\n",
            "probe.cards:6:3",
            "Calm Scenario: pirate_region places the Pirate Ship in 'section_1', which is no "
            "Ocean Region",
        ),
    ],
)
def test_a_board_the_rules_cannot_be_played_on_is_an_error_at_its_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    board: tuple[str, str] | None,
    cards: str,
    where: str,
    words: str,
) -> None:
    """The board's checks ran when a game started, naming the card's file and line: they are
    the game's CARD_CHECKS now, so ``cardc check`` refuses the card at the property."""
    folder = tmp_path / "cards" / "darwins_journey"
    shutil.copytree(ROOT / "cards" / "darwins_journey", folder)
    if board is not None:
        text = (folder / "board.cards").read_text(encoding="utf-8")
        assert text.count(board[0]) == 1
        (folder / "board.cards").write_text(text.replace(*board), encoding="utf-8")
    (folder / "probe.cards").write_text(cards, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = compile_game(Path("cards/darwins_journey"), SourceCache())
    found = [
        d.message
        for d in result.diagnostics
        if d.code == "card-data" and str(d.span).endswith(f"darwins_journey/{where}")
    ]
    assert any(words in message for message in found), [
        (str(d.span), d.message) for d in result.diagnostics
    ]


def test_more_campsites_than_treasure_tokens_set_by_a_simulation_are_refused_at_setup() -> None:
    """``treasure_tokens`` is a parameter ``cardc sim --param`` sets after ``cardc check``:
    the one check of the board that still runs when a game starts."""
    game = _game()
    game.params["treasure_tokens"] = 8
    with pytest.raises(RuleError) as refused:
        dj.geometry.validate_board(game)
    assert "board.cards:62: Volcano Camp: the game has 9 Campsites but 8 Treasure tokens" in (
        str(refused.value)
    )


def test_a_variant_with_too_few_treasure_tokens_is_refused_at_its_params_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant lowering ``treasure_tokens`` below the Campsites was reported at Volcano
    Camp's line in board.cards, a card the designer did not touch; it is the variant's
    ``params:`` entry that is wrong (CardError's ``param``)."""
    folder = copy_game(tmp_path, "darwins_journey")
    (folder / "variants" / "few.yaml").write_text(
        "description: fewer Treasure tokens\nparams:\n  treasure_tokens: 3\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    from compiler.variants import compile_variant

    result, _ = compile_variant(
        Path("cards") / "darwins_journey",
        Path("cards/darwins_journey/variants/few.yaml"),
        SourceCache(),
    )
    found = [(str(d.span), d.code, d.message) for d in result.diagnostics]
    assert len(found) == 1, found
    span, code, message = found[0]
    assert (span, code) == ("cards/darwins_journey/variants/few.yaml:3:20", "card-data")
    assert "the game has 9 Campsites but 3 Treasure tokens" in message


def test_a_phase_the_flow_does_not_have_is_named_at_its_line(tmp_path: Path) -> None:
    # action: phase takes any phase of the flow (a house rule's own too), checked at its line.
    path = tmp_path / "phase.yaml"
    path.write_text(
        "scenario: a typo\ngame: darwins_journey\ndo:\n  - action: phase\n"
        "    args: {name: pirate_raids}\nexpect:\n  player:\n    counters: {coins: 4}\n",
        encoding="utf-8",
    )
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    assert result.message == (
        f"{path}:5:18: 'pirate_raids' is not a phase of the flow; did you mean 'pirate_raid'?"
    )


def test_a_campsite_argument_that_is_no_card_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # take_treasure and treasure_at take a Campsite: 'coins' (a number) passed cardc check and
    # failed mid-game ("treasure_at takes a campsite, not 10"); now it is a check error.
    found = _check_with(
        tmp_path,
        monkeypatch,
        'rule "Plunder" {\n  on reward_phase_end {\n'
        "    if treasure_at(coins) { take_treasure 5 }\n  }\n}\n",
    )
    got = [(d.code, d.span.line, d.span.column, d.message, d.hints) for d in found]
    card = "a card is named by its id (the title in lower case, words joined by _), or self"
    assert got == [
        (
            "type-mismatch",
            3,
            20,
            "the CAMPSITE of 'treasure_at' needs a card, not a number",
            (card,),
        ),
        (
            "type-mismatch",
            3,
            43,
            "the CAMPSITE of 'take_treasure' needs a card, not a number",
            (card,),
        ),
    ]


def test_the_diff_of_a_rule_whose_fallback_changed_shows_the_fallback() -> None:
    # A house rule: "for each Coin a player cannot pay, they instead lose 1 Coin" in place of
    # a victory point. The diff said "pay coins 2 + 2 * treasure -> pay coins 2 + 2 * treasure".
    from compiler.diff import _describe_body

    def raid(fallback: str) -> list[dict[str, Any]]:
        lose = {"kind": "verb", "verb": "lose", "say": f"lose {fallback} missing", "args": []}
        return [{"kind": "verb", "verb": "pay", "say": "pay coins 2", "else": [lose], "args": []}]

    assert _describe_body(raid("coins")) == "pay coins 2 else lose coins missing"
    assert _describe_body(raid("coins")) != _describe_body(raid("victory_points"))
    may = {"kind": "may", "body": raid("coins")}
    assert _describe_body([may]) == "may { pay coins 2 else lose coins missing }"


def _run_yaml(tmp_path: Path, text: str) -> str:
    """The failure message of the one scenario in ``text`` (it must fail)."""
    path = tmp_path / "probe.yaml"
    path.write_text(text, encoding="utf-8")
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    return result.message.replace(f"{path}:", "")


def test_a_trigger_fired_without_its_event_is_the_scenarios_mistake(tmp_path: Path) -> None:
    # Was "the engine failed inside this step: ...pirates.cards:23:5: KeyError: 'campsite'".
    head = "scenario: s\ngame: darwins_journey\ndo:\n"
    tail = "expect:\n  player: {counters: {coins: 4}}\n"
    fired = _run_yaml(tmp_path, head + "  - fire: campsite_reached\n" + tail)
    assert fired == (
        "4:5: 'campsite_reached' is fired with its event (campsite); give it: "
        "event: {campsite: ...}"
    )
    run = head + "  - run: discovering_treasure.campsite_reached\n    event: {}\n" + tail
    assert _run_yaml(tmp_path, run) == "5:12: the event of 'campsite_reached' needs 'campsite'"


def test_a_players_key_at_the_top_and_a_seat_past_the_players_are_named_at_their_line(
    tmp_path: Path,
) -> None:
    # Were "the given state was refused" and "a rule failed" with no column, after setting up;
    # a Tent of seat 3 in a game of 1 was taken.
    text = (
        "scenario: s\ngame: darwins_journey\ngiven:\n  placed: [navigation]\n"
        "  tents_on: {bahia: [3]}\ndo:\n  - action: unlock_diary\nexpect:\n"
        "  ship_region: section_1\n"
    )
    assert _run_yaml(tmp_path, text).splitlines() == [
        "4:3: 'placed' belongs to a player: give it under 'player' or 'players'",
        "5:22: 3 is more than 1, the most a player number can be",
        "9:3: 'ship_region' belongs to a player: give it under 'player' or 'players'",
    ]


# -- fires_for: what cardc check says never runs, never runs -------------------------------


def test_a_handler_of_a_kind_the_trigger_is_not_fired_for_is_not_run() -> None:
    # A new Crew card with 'on final_scoring' (fired for objective, goal_tile cards): cardc
    # check warned "never runs", yet held in crew_hired it scored at the end.
    from engine.runtime import HandlerTable

    sim = Simulator(GENERATED)
    ir = copy.deepcopy(sim.ir)
    ir["cards"].append({**ir["cards"][0], "id": "p5", "kind": "crew"})
    calls: list[str] = []
    table = sim.table
    handlers = {
        **table.handlers,
        ("p5", "final_scoring"): lambda g, c: calls.append("p5"),
        ("p5", "use"): lambda g, c: calls.append("use"),
    }
    full = HandlerTable(table.module, handlers, table.formulas, table.lines, table.filename)
    kept = full.answering(ir)
    assert ("p5", "final_scoring") not in kept.handlers
    assert ("p5", "use") in kept.handlers  # 'use' is fired for crew cards
    # Every shipped handler answers a trigger fired for its kind: nothing is dropped.
    assert table.answering(sim.ir) is table
    assert set(table.handlers) == set(HandlerTable.from_module(table.module).handlers)


def test_a_scenario_cannot_run_what_the_game_never_runs(tmp_path: Path) -> None:
    # bahia (a campsite) has 'on campsite_reward', fired for campsites: allowed; the same check
    # refuses a card's trigger of a kind the trigger is not fired for.
    from engine.scenario_check import check_scenario

    sim = Simulator(GENERATED)
    ir = copy.deepcopy(sim.ir)
    bahia = next(c for c in ir["cards"] if c["id"] == "bahia")
    ir["cards"].append({**bahia, "id": "p5", "kind": "crew"})
    doc = {
        "scenario": "s",
        "game": "darwins_journey",
        "do": [{"run": "p5.campsite_reward"}, {"run": "bahia.campsite_reward"}],
        "expect": {"player": {"counters": {"coins": 4}}},
    }
    problems = check_scenario(doc, ir, dj, 1, (1, 1))
    assert [p.message for p in problems] == [
        "p5's 'on campsite_reward' never runs: the game fires 'campsite_reward' for campsite "
        "cards only, and p5 is a crew"
    ]


def test_a_negative_amount_to_gain_lose_pay_or_score_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 'lose coins -2' gained 2 Coins; 'gain victory_points -1' passed cardc check and failed
    # the build with a sheet lint about "1 victory points".
    found = _check_with(
        tmp_path,
        monkeypatch,
        'crew pirates "P9" {\n  code "P9"\n  on use {\n    lose coins -2\n'
        "    gain victory_points -1\n    score -3\n    lose coins 0\n  }\n}\n",
    )
    got = [(d.code, d.span.line, d.message, d.hints) for d in found]
    assert got == [
        (
            "negative-amount",
            4,
            "'lose' takes an amount of 0 or more, not -2",
            ("say the other way round: gain coins 2",),
        ),
        (
            "negative-amount",
            5,
            "'gain' takes an amount of 0 or more, not -1",
            ("say the other way round: lose victory_points 1",),
        ),
        (
            "negative-amount",
            6,
            "'score' takes an amount of 0 or more, not -3",
            ("say the other way round: lose victory_points 3",),
        ),
    ]


def test_a_scenario_card_naming_tiles_of_the_wrong_sort_is_an_error_at_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Correspondence tile among the Beagle Goal tiles, a Campsite as the Pirate Ship's
    Ocean Region, a misspelt track: each checked and failed (or did nothing) only when a game
    set up. game.cards says what each property names."""
    found = _check_with(
        tmp_path,
        monkeypatch,
        'scenario_card "Probe Scenario" {\n  code "P9"\n'
        "  special_action_tiles pirate, provisions\n"
        "  correspondence_tiles letters_from_home\n"
        "  beagle_goal_tiles far_shores, letters_to_henslow\n"
        "  pirate_region bahia\n}\n"
        'campsite "Tortuga" { track oceans; space 3; tent_sites 1; cost 1 }\n',
    )
    got = {(d.span.line, d.span.column): (d.code, d.message, d.hints) for d in found}
    assert set(got) == {(5, 33), (6, 17), (8, 28)}
    assert got[(5, 33)][:2] == (
        "property-names",
        "'beagle_goal_tiles' names a goal_tile tagged beagle_goal; 'letters_to_henslow' is a "
        "goal_tile tagged correspondence",
    )
    assert got[(6, 17)][:2] == (
        "property-names",
        "'pirate_region' names a map_section; 'bahia' is a campsite",
    )
    assert got[(8, 28)][0] == "name-undefined"
    assert got[(8, 28)][2] == ("did you mean 'ocean'?",)


# -- the third probe: rule cases at their edges, new cards, house rules ---------------------


def test_a_sweep_seats_the_players_asked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cardc sweep --players N`` seats N players at every point, as ``cardc sim --players``
    does: a house rule of a game for 1 to 4 could only be swept solo ('unrecognized arguments:
    --players 3')."""
    import json

    from compiler.cli import main

    monkeypatch.chdir(ROOT)
    argv = ["sweep", "darwins_journey", "--variants", "base,no_pirates", "--games", "3"]
    status = main([*argv, "--players", "3", "--jobs", "1", "--json", "-q"])
    out, err = capsys.readouterr()
    assert status == 0, err
    points = json.loads(out)["points"]
    assert [(p["variant"], p["players"], p["mode"]) for p in points] == [
        (None, 3, "competitive"),
        ("no_pirates", 3, "competitive"),
    ]


def test_a_card_argument_of_the_wrong_kind_is_an_error_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A verb's or native's ``card`` parameter says what it names (``param site card { names
    campsite }``): a Tent pitched on an action location, the Treasure of a Crew card, the cost
    of a Crew card checked, and failed only when a game played the card ('navigation' is not a
    Campsite)."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "darwins_journey",
        'crew pirates "Free Camp" { code "X1"\n'
        "  on use { pitch_tent navigation; take_treasure sailor; gain coins cost_of(p1) }\n"
        "}\n"
        'crew pirates "Good Camp" { code "X2"\n'
        "  on use { pitch_tent bahia; gain coins cost_of(navigation) + cost_of(bahia) }\n"
        "}\n",
    )
    got = [(d.code, d.span.line, d.span.column, d.message) for d in found]
    assert got == [
        (
            "property-names",
            2,
            23,
            "the SITE of 'pitch_tent' names a campsite; 'navigation' is an action_location",
        ),
        (
            "property-names",
            2,
            49,
            "the CAMPSITE of 'take_treasure' names a campsite; 'sailor' is a crew tagged base",
        ),
        (
            "property-names",
            2,
            76,
            "the PLACE of 'cost_of' names a campsite or an action_location; 'p1' is a crew "
            "tagged pirates",
        ),
    ]
    assert "bahia, montevideo" in found[0].hints[0]


def test_a_tent_pitched_by_a_card_needs_a_free_tent_site_and_counts_as_the_players() -> None:
    """``pitch_tent`` (a designer's "place a Tent on Galapagos" card calls it) placed a Tent on
    a Campsite whose Tent sites were all occupied, and left the player's ``tents`` (which the
    Reward Phase pays for) unchanged; ``offer_tent`` raised it apart."""
    game = _game(2)
    first, second = game.players
    game.board["tents_on"]["galapagos"] = [second.index]
    pitch = dj.VERBS["pitch_tent"]
    pitch(game, Context(first, "", "probe"), "galapagos")
    assert game.board["tents_on"]["galapagos"] == [second.index]
    assert first.counters["tents"] == 0 and first.counters["victory_points"] == 0
    assert ("no_tent", 0, "galapagos", "its Tent sites are all occupied") in game.events
    pitch(game, Context(first, "", "probe"), "bahia")
    assert game.board["tents_on"]["bahia"] == [first.index]
    assert first.counters["tents"] == 1 and first.counters["victory_points"] == 2
    first.counters["tents"] = 4  # tents_per_player (provisional): none left
    pitch(game, Context(first, "", "probe"), "montevideo")
    assert game.board["tents_on"]["montevideo"] == []
    assert ("no_tent", 0, "montevideo", "no Tent left") in game.events


def test_an_action_named_as_the_rulebook_names_it_is_told_the_step_that_runs_it(
    tmp_path: Path,
) -> None:
    """A tester writes the rule's name as the step ('action: pirate_raid'): it was "not an
    action; 14 known, for example: activate_tile, explore, final_scoring, navigate, phase,
    place_worker", six of the fourteen, without reward_phase_end; 'setup_game' was told
    'setup_diary' only."""
    head = "scenario: s\ngame: darwins_journey\ndo:\n  - action: "
    tail = "\nexpect:\n  round: 1\n"
    # 'pirate_raid' is now a step of its own (tests/test_audit_darwins_journey.py); a phase
    # that is not one is told the same way.
    assert _run_yaml(tmp_path, head + "workers_return" + tail) == (
        "4:13: 'workers_return' is not an action of darwins_journey; to run it, write action: "
        "phase with args: {name: workers_return} (a phase of the flow)"
    )
    assert _run_yaml(tmp_path, head + "discovering_treasure" + tail).endswith(
        "write run: discovering_treasure.campsite_reached with event: {campsite: ...} "
        "(its 'on campsite_reached')"
    )
    assert _run_yaml(tmp_path, head + "campsite_reached" + tail).endswith(
        "write fire: campsite_reached with event: {campsite: ...} (every card in force answers)"
    )
    # A word of a step's name finds it ('raid' of pirate_raid); a name near none, every step.
    assert _run_yaml(tmp_path, head + "raid" + tail).endswith("did you mean 'pirate_raid'?")
    every = _run_yaml(tmp_path, head + "plunder" + tail)
    assert every.startswith("4:13: 'plunder' is not an action of darwins_journey; known: ")
    # The game's own steps, and 'section', which every game with a flow has.
    assert sorted(every.split("known: ")[1].split(", ")) == sorted({*dj.ACTIONS, "section"})
    assert _run_yaml(tmp_path, head + "setup_game" + tail).endswith(
        "did you mean 'setup' or 'setup_diary'?"
    )


def test_a_variant_card_with_a_base_cards_title_is_told_to_remove_the_base_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A house rule rewrites the Pirate Raid in its ``add:`` under the rule's own title: the
    hint said "give one of them another title", where the designer means to replace it
    (``remove: [pirate_raid]`` beside the ``add:``); with it the variant checks."""
    from compiler import filecache
    from compiler.cli import main

    variant = copy_game(tmp_path, "darwins_journey") / "variants" / "harsh.yaml"
    monkeypatch.chdir(tmp_path)
    rule = (
        'add: |\n  rule "Pirate Raid" {\n    on reward_phase_end {\n'
        "      for each raided in players where ship_region(raided) == pirate_region() {\n"
        "        pay coins 3 + 2 * treasure else lose victory_points missing\n"
        "        return_treasure\n      }\n    }\n  }\n"
    )
    variant.write_text(rule, encoding="utf-8")
    filecache.clear()
    try:
        status = main(["check"])
        out = "".join(capsys.readouterr())
        assert status == 1
        assert "harsh.yaml:2:3: error[duplicate-card]" in out
        assert (
            "hint: to replace the game's card, remove it in the variant too: remove: "
            "[pirate_raid]; to add another, give it another title or an explicit 'id' property"
        ) in out
        variant.write_text("remove: [pirate_raid]\n" + rule, encoding="utf-8")
        assert main(["check"]) == 0, capsys.readouterr().out
    finally:
        filecache.clear()


def test_a_name_parameter_says_what_it_names_before_what_the_name_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``research_specimen ignoring coins`` (P1's "ignoring any Coin penalties" written as a
    designer says it) was "'coins' is not a symbol of this game" with the game's first dozen
    symbols (Crew cards and Campsites among them); the parameter names a cost (``{ names cost
    }``), and the message says so with the one that is."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "darwins_journey",
        'crew pirates "Scholar" { code "X1"\n'
        "  on use { research_specimen ignoring coins; research_specimen ignoring coin_penalty }\n"
        "}\n",
    )
    got = [(d.code, d.span.column, d.message, d.hints) for d in found]
    assert got == [
        (
            "property-names",
            39,
            "the IGNORING of 'research_specimen' names a cost; 'coins' is a counter",
            ("a cost: coin_penalties",),
        ),
        (
            "name-undefined",
            73,
            "'coin_penalty' is not declared (the IGNORING of 'research_specimen' names a cost)",
            ("did you mean 'coin_penalties'?",),
        ),
    ]


@pytest.mark.parametrize("value", [0, -2, 2.5])
def test_a_simulation_of_no_rounds_is_refused_as_a_variant_of_no_rounds_is(value: Any) -> None:
    """``cardc sim --param rounds=0`` (and a sweep's ``rounds=0,5``) played games of no round,
    scored 0 and reported them "1.00 rounds" long; a variant's ``params: {rounds: 0}`` is
    refused (round-count), and so is the simulation's."""
    from engine.sim import SimError

    with pytest.raises(
        SimError,
        match=f"'rounds' is the game's number of rounds: a game lasts "
        f"at least 1 round, a whole number, not {value!r}",
    ):
        Simulator(GENERATED, {"rounds": value})
    assert Simulator(GENERATED, {"rounds": 1}).ir["vocabulary"]["params"]["rounds"] == 1


def test_the_pirate_ship_given_in_the_supply_is_told_to_write_null(tmp_path: Path) -> None:
    """The rulebook: "Place the Pirate Ship near the main board"; "They take it either from
    the supply or the board": a tester writes ``pirate_region: supply``, which was "not an area
    of the Ocean track" with the six sections, and nothing about null."""
    text = (
        "scenario: s\ngame: darwins_journey\ngiven:\n  pirate_region: supply\n"
        "do:\n  - action: reward_phase_end\nexpect:\n  pirate_region: null\n"
    )
    assert _run_yaml(tmp_path, text) == (
        "4:18: 'supply' is not an area of the Ocean track; known: section_1, section_2, "
        "section_3, section_4, section_5, section_6; or null: the Pirate Ship in the supply, "
        "near the main board"
    )


def test_a_variant_moving_a_campsite_onto_another_is_shown_at_its_own_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cardc variant set darwins_journey/house cards.bahia.space 16`` was refused at
    Galapagos' line in board.cards (the later Campsite of the two), which the variant did not
    touch; each of the two is now told of the other, so the variant's own line is shown."""
    from compiler import filecache
    from compiler.cli import main

    variant = copy_game(tmp_path, "darwins_journey") / "variants" / "house.yaml"
    variant.write_text("cards:\n  bahia:\n    space: 16\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    filecache.clear()
    try:
        assert main(["check"]) == 1
        out = "".join(capsys.readouterr())
    finally:
        filecache.clear()
    assert (
        "house.yaml:3:5: error[card-data]: Bahia: space 16 of the ocean track also holds the "
        "Campsite Galapagos (cards/darwins_journey/board.cards:44); a location holds one Campsite"
    ) in out
    assert (
        "board.cards:44:37: error[card-data]: with the variant 'house': Galapagos: space 16" in out
    )


def test_the_crew_cards_hired_and_objectives_kept_are_counted_by_the_per_card_figures() -> None:
    """``cardc sim``'s per-card figures read ``draw`` and ``play`` events; Darwin's Journey
    logged neither (``hire``, ``objective``), so a designer's new Crew card or Objective tile
    had no figures: the table was empty."""
    from engine.sim import play_one
    from engine.sim_tally import outcome

    drawn: set[str] = set()
    played: set[str] = set()
    for number in range(1, 6):
        game = play_one(GENERATED, 1, number, "competitive", "random", 2)
        for cards in outcome(game.game, game.result, "competitive").cards or []:
            drawn |= cards[0]
            played |= cards[1]
    crew = {cid for cid, card in game.game.cards.items() if card["kind"] == "crew"}
    objectives = {cid for cid, card in game.game.cards.items() if card["kind"] == "objective"}
    assert drawn & crew and drawn & objectives
    assert played & crew and played <= crew


def test_the_greedy_player_hires_a_pirate_crew_card_worth_its_worker() -> None:
    """The greedy valued the Crew Quarters at 4 whatever the display held, below Navigation
    and Exploration (6) and the Special Actions (5): with three workers it never hired a Crew
    card, so the 4 Pirate Crew cards never came into its games (and a house rule about them
    changed nothing in ``cardc sim --compare``)."""
    from engine.runtime import Question

    game = _game()
    me = game.players[0]
    me.counters["coins"] = 2
    game.board["diary"], game.board["unlocked"] = ["provisions"], 1
    options = ("navigation", "exploration", "special_actions", "crew_quarters")
    ask = Question(dj.geometry.PLACE_WORKER, 0, "Place a worker on which location?", options)
    greedy = dj.POLICIES["greedy"](game, 0)
    game.board["crew_display"] = ["p4", "cook", "sailor"]
    assert greedy.decide(game, ask) == "crew_quarters"
    game.board["crew_display"] = ["cook", "sailor", "scout"]
    assert greedy.decide(game, ask) == "navigation"
    me.counters["coins"] = 0
    game.board["crew_display"] = ["p4", "cook", "sailor"]
    assert greedy.decide(game, ask) == "navigation"


def test_a_loop_over_a_kind_goes_over_its_cards_with_their_members_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``for each site in campsite`` (every Campsite, as a designer writes it) was "'campsite'
    is not defined here": the language could not go over a kind's cards. A kind's name is now
    the list of its cards, and the loop's name is one of that kind, so its members are checked
    against the kind's properties like a card's."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "darwins_journey",
        'crew pirates "Hunter" { code "X1"\n'
        "  on use { for each site in campsite where site.tent_sites >= 2 { gain coins 1 } }\n"
        "}\n"
        'crew pirates "Tracker" { code "X2"\n'
        "  on use { for each site in campsite { gain coins site.tnet_sites } }\n}\n",
    )
    assert [(str(d.span.line), d.code, d.message, d.hints) for d in found] == [
        (
            "5",
            "member-unknown",
            "a campsite has no property or tag 'tnet_sites'",
            ("did you mean 'tent_sites'?",),
        )
    ]


def test_a_near_miss_is_offered_before_a_name_the_guess_starts_with(tmp_path: Path) -> None:
    """'letters_to_fitzro' is one letter short of 'letters_to_fitzroy'; 'letters' (a Special
    Action tile), which it starts with, comes second, where 'setup' comes first for
    'setup_game' (difflib's 'setup_diary' shares less)."""
    text = (
        "scenario: s\ngame: darwins_journey\ngiven:\n  player:\n"
        "    zones: {objectives: [letters_to_fitzro]}\ndo:\n  - action: final_scoring\n"
        "expect:\n  round: 1\n"
    )
    assert _run_yaml(tmp_path, text).endswith(
        "'letters_to_fitzro' is not a card; did you mean 'letters_to_fitzroy' or 'letters'?"
    )


@pytest.mark.parametrize(
    ("head", "said"),
    [
        ("mode: solo\nplayers: 2\n", "'mode: solo' is one player, but 'players: 2' seats 2"),
        ("mode: competitive\nplayers: 1\n", "'mode: competitive' is 2 players or more, not 1"),
    ],
)
def test_a_mode_and_a_player_count_that_disagree_are_named_at_the_count(
    tmp_path: Path, head: str, said: str
) -> None:
    """Solo rules and a player count: 'mode: solo' with 'players: 2' was played as two seats
    of a solo game, silently."""
    text = (
        "scenario: s\ngame: darwins_journey\n" + head + "do:\n  - action: reward_phase_end\n"
        "expect:\n  round: 1\n"
    )
    assert said in _run_yaml(tmp_path, text)


def test_rules_of_one_trigger_answer_in_the_order_their_files_declare_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simultaneous effects: two rules answer ``campsite_reached``; the one in a file named
    after ``pirates.cards`` answers after Discovering Treasure (README: the rules answer in the
    order the game declares them), one in a file named before it, first."""
    from engine.runtime import Game as RuntimeGame

    fee = (
        'rule "Finder\'s Fee" {\n'
        "  on campsite_reached { if treasure_at(campsite) { score 1 } }\n}\n"
    )
    folder = copy_game(tmp_path, "darwins_journey")
    monkeypatch.chdir(tmp_path)
    order = {}
    for name in ("bounty.cards", "tailwind.cards"):
        (folder / name).write_text(fee, encoding="utf-8")
        result = compile_game(Path("cards/darwins_journey"), SourceCache())
        assert not [d for d in result.diagnostics if d.severity == "error"]
        rules = [c["id"] for c in result.ir["cards"] if c["kind"] in RuntimeGame.always_in_force]
        order[name] = rules
        (folder / name).unlink()
    assert order["bounty.cards"][0] == "finders_fee"
    assert order["tailwind.cards"] == [
        "pirates_setup",
        "discovering_treasure",
        "pirate_raid",
        "finders_fee",
    ]


def test_a_coop_game_is_refused_by_sim_and_scenarios(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each player is raided and scores for themself: ``cardc sim darwins_journey --mode coop``
    played "coop games" whose team score summed every seat's victory points, and a scenario's
    ``mode: coop`` was taken. Solo and competitive games still play."""
    from compiler.cli import main

    monkeypatch.chdir(ROOT)
    status = main(["sim", "darwins_journey", "--mode", "coop", "--games", "1", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert status != 0
    assert "'darwins_journey' has no coop mode; its modes: solo, competitive" in out + err
    assert "team score" not in out
    path = tmp_path / "coop.yaml"
    path.write_text(
        "scenario: a co-op raid\n"
        'rulebook: "every player whose Ship is in the same Ocean Region as the Pirate Ship"\n'
        "game: darwins_journey\n"
        "mode: coop\n"
        "players: 2\n"
        "expect:\n"
        "  round: 1\n",
        encoding="utf-8",
    )
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    assert "coop.yaml:4:7: " in result.message and "has no coop mode" in result.message
    for mode, players in (("solo", "1"), ("competitive", "2")):
        status = main(
            ["sim", "darwins_journey", "--mode", mode, "--players", players, "--games", "1"]
            + ["--jobs", "1"]
        )
        assert status == 0, capsys.readouterr()


def test_a_mode_is_checked_by_the_mode_its_spelling_names(tmp_path: Path) -> None:
    """'cooperative' is the mode coop for a scenario's checks too: a game without it is told
    so, and one seat is told a co-op game takes two (both checks read the spelling as typed,
    so a game whose MODES held coop would have refused 'cooperative')."""
    path = tmp_path / "spelled.yaml"
    path.write_text(
        "scenario: a co-op game spelled out\n"
        'rulebook: "every player whose Ship is in the same Ocean Region as the Pirate Ship"\n'
        "game: darwins_journey\n"
        "mode: cooperative\n"
        "players: 1\n"
        "expect:\n"
        "  round: 1\n",
        encoding="utf-8",
    )
    (result,) = Runner(ROOT / "generated").run_file(path)
    assert not result.passed
    assert "has no coop mode" in result.message
    assert "'mode: coop' is 2 players or more, not 1" in result.message


CAMPSITE_PURSE = """rule "Campsite Purse" {
  on reward_phase_end {
    for each site in campsite where site.tent_sites >= 2 {
      gain coins 1
    }
  }
}
"""


def test_a_loop_over_a_kind_runs_once_for_each_of_its_cards(
    tmp_path: Path, built_copy: Any
) -> None:
    """A house rule that goes over every Campsite builds and plays: one Coin for each
    Campsite with at least 2 Tent sites, as the cards of the compiled game say."""
    import json

    from probing import run_scenarios

    generated = built_copy("darwins_journey", {"purse.cards": CAMPSITE_PURSE})
    ir = json.loads((generated / "darwins_journey" / "cards.json").read_text(encoding="utf-8"))
    roomy = [
        c["id"]
        for c in ir["cards"]
        if c["kind"] == "campsite" and (c.get("properties") or {}).get("tent_sites", 0) >= 2
    ]
    assert 0 < len(roomy) < len([c for c in ir["cards"] if c["kind"] == "campsite"])
    scenario = (
        "scenario: the purse pays for each roomy Campsite\n"
        "game: darwins_journey\n"
        "given:\n  player:\n    counters: {ship_space: 1, coins: 0, treasure: 0}\n"
        "do:\n  - action: reward_phase_end\n"
        f"expect:\n  player:\n    counters: {{coins: {len(roomy)}}}\n"
    )
    results = run_scenarios(generated, scenario, tmp_path / "purse.yaml")
    assert [(r.passed, r.message) for r in results] == [(True, "")]
