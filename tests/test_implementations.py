"""Every name that checks also runs: implementations proven, triggers that never fire warned
about, members typed, `play` running the card's own `on play`, `mark` never negative."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_definitions import GAME, build, codes, compile_text, new_game

from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache
from engine.runtime import Game, RuleError

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compile afresh: compiler.filecache would carry the shipped games' cards (without their
    spans) into later tests of the same process."""
    from compiler import filecache

    monkeypatch.setattr(filecache, "ENABLED", False)


NOTHING = 'event "Nothing" { }\n'


def test_a_declared_verb_nothing_implements_is_an_error_at_its_declaration(
    tmp_path: Path,
) -> None:
    game = GAME.replace(
        '  kind event "an event" { }',
        '  verb abandon_specialty "give one up" { param goods name }\n'
        '  native look_at "the top cards" { param deck zone; param amount number; '
        "returns list }\n"
        '  kind event "an event" { }',
    )
    result = compile_text(
        tmp_path, 'event "E" { on reveal { abandon_specialty groceries } }\n', game
    )
    (problem,) = result.diagnostics
    assert problem.code == "not-implemented"
    assert problem.message == "'abandon_specialty' is declared but nothing implements it"
    assert (problem.span.line, problem.span.column) == (9, 8)
    assert "verb abandon_specialty(goods name) { ... }" in problem.hints[0]
    # look_at matched the standard library's signature: its calls go to the library.
    assert result.ir is None


def test_the_library_implements_a_declaration_with_its_signature(tmp_path: Path) -> None:
    game = GAME.replace(
        '  kind event "an event" { }',
        '  native look_at "the top cards" { param deck zone; param amount number; '
        "returns list }\n"
        '  native roll "a sum" { param dice dice; returns text }\n'
        '  kind event "an event" { }',
    )
    result = compile_text(tmp_path, NOTHING, game)
    assert codes(result) == ["not-implemented"]  # roll: the library's gives a number
    assert "'roll'" in result.diagnostics[0].message


def test_python_implementations_must_take_the_declared_parameters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.loader import rules_module

    module = rules_module("darwins_journey")
    monkeypatch.setitem(module.VERBS, "return_treasure", lambda g, c, extra: None)
    result = compile_game(REPO / "cards" / "darwins_journey", SourceCache())
    (problem,) = result.diagnostics
    assert problem.code == "signature-mismatch"
    assert "declared with 0 parameters" in problem.message and "takes 1 after (g, c)" in (
        problem.message
    )


def test_the_shipped_games_implement_everything_they_declare() -> None:
    for game in ("uncharted_passage", "land_vs_sea", "darwins_journey", "incredible_expeditions"):
        result = compile_game(REPO / "cards" / game, SourceCache())
        assert result.ok, [str(d) for d in result.diagnostics]
        assert not [d for d in result.diagnostics if d.severity == "warning"]


def test_an_unknown_library_module_is_named(tmp_path: Path) -> None:
    result = compile_text(
        tmp_path, NOTHING, GAME.replace("  score prestige", "  use dise\n  score prestige")
    )
    assert codes(result) == ["library-unknown"]
    assert result.diagnostics[0].hints == ("did you mean 'dice'?",)


def test_a_trigger_the_game_never_fires_for_that_kind_is_a_warning(tmp_path: Path) -> None:
    game = GAME.replace(
        'trigger reveal "a card is revealed"',
        'trigger reveal "a card is revealed" { fires_for event }',
    ).replace(
        '  kind event "an event" { }', '  kind event "an event" { }\n  kind port_card "p" { }'
    )
    result = compile_text(tmp_path, 'port_card "Rum" { on reveal { gain coins 1 } }\n', game)
    (warning,) = result.diagnostics
    assert warning.code == "trigger-never-fires" and warning.severity == "warning"
    assert warning.message == (
        "'on reveal' on a port_card never runs: the game fires 'reveal' for event cards only"
    )
    assert result.ir is not None
    bad = compile_text(tmp_path, NOTHING, game.replace("fires_for event", "fires_for evnt"))
    assert codes(bad) == ["kind-undefined"]


def test_members_are_typed_by_the_kind_a_param_names(tmp_path: Path) -> None:
    game = GAME.replace(
        'trigger reveal "a card is revealed"',
        'trigger reveal "a card is revealed"\n  trigger dock "docks" { param port space }',
    ).replace(
        '  kind event "an event" { }',
        '  kind event "an event" { }\n'
        '  kind space "a space" { tags sea, discovery; property stars number optional }',
    )
    result = compile_text(
        tmp_path,
        'event "E" {\n  on dock {\n    if port.discoverd { gain coins 1 }\n'
        "    gain coins port.star\n  }\n  on reveal { if self.copies > 1 { gain coins 1 } }\n}\n",
        game,
    )
    found = [(d.code, d.span.line, d.hints) for d in result.diagnostics]
    assert found == [
        ("member-unknown", 3, ("did you mean 'discovery'?",)),
        ("member-unknown", 4, ("did you mean 'stars'?",)),
        ("member-unknown", 6, ("event: no members",)),
    ]
    ir, module = build(
        tmp_path,
        'space discovery "Kraken" { }\nspace "Lisbon" { stars 2 }\n'
        'event "E" {\n  on dock {\n    if port.discovery { gain coins 1 }\n'
        "    gain coins port.stars\n  }\n}\n",
        game,
    )
    g = new_game(ir, module)
    g.run("e", "dock", event={"port": "kraken"})  # a discovery, no stars: 1 + 0
    g.run("e", "dock", event={"port": "lisbon"})  # 0 + 2
    assert g.players[0].counters["coins"] == 3


def test_a_member_of_an_untyped_value_is_an_error(tmp_path: Path) -> None:
    game = GAME.replace(
        'trigger reveal "a card is revealed"',
        'trigger reveal "a card is revealed"\n  trigger anchor "anchors" { param place }',
    )
    result = compile_text(tmp_path, 'event "E" { on anchor { gain coins place.stars } }\n', game)
    (problem,) = result.diagnostics
    assert problem.code == "member-unknown"
    assert problem.hints == (
        "say which kind of card 'place' is in game.cards: trigger anchor { param place KIND }",
    )


def test_play_runs_the_cards_own_on_play(tmp_path: Path) -> None:
    game = GAME.replace(
        'trigger reveal "a card is revealed"',
        'trigger reveal "a card is revealed"\n  trigger play "a card is played"',
    )
    ir, module = build(
        tmp_path,
        'event "Rum" { on play { gain coins 2 } }\n'
        'event "Storm" { on reveal { if play rum { gain coins 1 } } }\n',
        game,
    )
    g = new_game(ir, module, ["yes"])
    g.players[0].zones["hand"].append("rum")
    g.run("storm", "reveal")
    assert g.players[0].counters["coins"] == 3
    assert g.players[0].zones["hand"] == []


def test_a_negative_mark_is_an_error(tmp_path: Path) -> None:
    result = compile_text(tmp_path, 'event "E" { on reveal { mark health -1 } }\n')
    assert codes(result) == ["negative-mark"]


def test_a_negative_amount_to_any_verb_that_counts_is_an_error(tmp_path: Path) -> None:
    """``lose_crew -1`` passed the checker and failed the sheet check with "'1 times' (one of
    a plural noun)": a game verb's amount (or count) counts things, as the prelude's do; a
    sum (``add``) may still be negative."""
    result = compile_text(
        tmp_path,
        'event "E" { on reveal { lose_crew -1 } }\n'
        'event "F" { on reveal { draw hand -2 } }\n'
        'event "G" { on combat { add power -1; lose_crew 0 } }\n'
        'verb lose_crew(amount number) "a Crew is Lost" { lose coins amount }\n',
    )
    assert [(d.code, d.span.line, d.message) for d in result.diagnostics] == [
        ("negative-amount", 1, "'lose_crew' takes an amount of 0 or more, not -1"),
        ("negative-amount", 2, "'draw' takes an amount of 0 or more, not -2"),
    ]


def test_a_host_verb_the_program_does_not_give_is_refused_at_the_start(tmp_path: Path) -> None:
    game = GAME.replace(
        '  kind event "an event" { }',
        '  @host("the test gives it")\n  verb shout "say it" { param words text }\n'
        '  kind event "an event" { }',
    )
    ir, module = build(tmp_path, 'event "E" { on reveal { shout "ahoy" } }\n', game)
    with pytest.raises(RuleError, match="'shout' is declared @host"):
        new_game(ir, module)
    said: list[str] = []
    g = Game(
        ir,
        new_game.__globals__["HandlerTable"].from_module(module),
        verbs={"shout": lambda g, c, words: said.append(words)},
    )
    g.run("e", "reveal")
    assert said == ["ahoy"]


def test_a_negative_mark_computed_at_run_time_is_an_error_at_its_position(
    tmp_path: Path,
) -> None:
    ir, module = build(tmp_path, 'event "E" {\n  on reveal {\n    mark health coins - 2\n  }\n}\n')
    g = new_game(ir, module)
    g.players[0].counters["coins"] = 3
    g.run("e", "reveal")  # 3 - 2: one box
    assert g.players[0].tracks["health"].marked == 1
    g.players[0].counters["coins"] = 0
    with pytest.raises(RuleError) as error:
        g.run("e", "reveal")  # 0 - 2
    assert "rules.cards:3:5" in str(error.value)
    assert "'mark health' with -2 boxes: a negative number of boxes cannot be marked" in str(
        error.value
    )
    assert g.players[0].tracks["health"].marked == 1


def test_a_quantity_its_trigger_does_not_declare_is_an_error(tmp_path: Path) -> None:
    # 'power' is a quantity of 'combat' only: read (or reduced) in 'on reveal' it is undefined.
    result = compile_text(
        tmp_path,
        'event "E" {\n  on reveal { gain coins power }\n  on combat { gain coins power }\n}\n'
        'event "F" { on reveal { reduce power up_to 1 } }\n',
    )
    found = [(d.code, d.span.line, d.message) for d in result.diagnostics]
    assert found[0] == ("name-undefined", 2, "'power' is not defined here")
    # Said as what it is, a quantity of another window (audit13-ie: it was "'power' is not a
    # counter or quantity of this game", with "'on reveal' has no quantities").
    assert found[1] == (
        "name-undefined",
        5,
        "'power' is a quantity of 'combat', not of 'on reveal'",
    )
    assert len(found) == 2
    assert result.diagnostics[0].hints == (
        "'power' is a quantity of 'combat': read it in an 'on combat' block, while that window "
        "is open",
    )
    assert result.diagnostics[1].hints == (
        "change it in an 'on combat' block, while that window is open",
    )
