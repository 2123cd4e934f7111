"""lang7: two gaps of the language that testers hit, and what a designer found writing a game.

- A card could not ask a player to pick one card of a list ("choose a card from your hand and
  trash it", "look at the top 3 cards of the deck, take one"): ``choose NAME in LIST where ...
  { ... }`` picks one item (a zone's name is the cards it holds), runs the block for it, and
  asks nothing when there is nothing to pick. Its question is named as a ``may``'s, answered
  by the item in scenarios and by the simulator's players as any question.
- What a native declared to return a ``card`` (``card_name``, ``name``, ``player``) gives may be
  none, and a card could not test it: ``top_of_deck() == none`` was "'none' is not defined
  here". It now compares with ``none``; a number, a counter or a value written out does not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_variant_hardening import run

from compiler.ir_schema import SCHEMA
from dsl.nodes import ChooseFrom
from dsl.parser import parse
from engine.runtime import Player, answer_of

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

GAME = """\
game sieve "Sieve" {
  use zones, decks
  players 1..3
  score victory_points
  param rounds 4 { counts "the rounds of a game"; min 1 }
  counter victory_points, coins
  zone hand, deck, trash
  trigger play "when a card is played from the hand"
  native top_of_deck "the top card of the deck" { returns card }
  kind card "a card of the deck" {
    property copies number optional
    property worth number optional
  }
}
"""

CARDS = """\
card "Pebble" {
  copies 3
  worth 1
  on play { gain coins 1 }
}
card "Gem" {
  copies 1
  worth 3
  on play { gain coins 2 }
}
card "Chapel" {
  copies 1
  on play {
    choose picked in hand where picked != self { move_card picked hand trash } @label("trash")
  }
}
card "Seer" {
  copies 1
  on play {
    choose taken in look_at(deck, 3) { move_card taken deck hand }
    if top_of_deck() == none { score 2 }
  }
}
card "Appraiser" {
  copies 1
  on play {
    choose valued in card where valued.worth > 0 { score valued.worth } @ask("a card to score")
  }
}
card "Tax" {
  copies 1
  on play {
    let taxer player
    choose payer in players where payer != taxer { lose coins 1 } @label("tax")
  }
}
"""

FLOW = """\
flow "Sieve" {
  setup {
    phase deal { build_deck deck
      for each p in players { draw_from deck hand 3 } }
  }
  round rounds { }
  turn {
    phase draw { draw_from deck hand 1 }
    phase play { play_one hand }
  }
  winner highest
}
"""

NATIVES = '''\
from engine.api import native


@native("", returns="card")
def top_of_deck(g, c):
    """The top card of the deck, or None when the deck is empty."""
    deck = c.player.zones["deck"]
    return deck[0] if deck else None
'''

SCENARIOS = """\
scenario: Chapel trashes the card picked, not itself
game: sieve
given:
  player:
    zones: {hand: [pebble, gem, chapel, pebble]}
choices:
  - chapel.play.trash: gem
do:
  - run: chapel.play
expect:
  player:
    zones: {hand: [pebble, chapel, pebble], trash: [gem]}
  events:
    - decision player 1 chapel.play.trash gem
---
scenario: Seer takes one of the top three, and scores nothing while the deck holds a card
game: sieve
given:
  player:
    zones: {deck: [pebble, gem, chapel, seer]}
choices:
  - seer.play.move_card: chapel
do:
  - run: seer.play
expect:
  player:
    zones: {hand: [chapel], deck: [pebble, gem, seer]}
    counters: {victory_points: 0}
---
scenario: Seer on an empty deck asks nothing and scores 2
game: sieve
do:
  - run: seer.play
expect:
  player:
    counters: {victory_points: 2}
  no_events:
    - decision
---
scenario: Chapel alone in the hand has nothing to trash
game: sieve
given:
  player:
    zones: {hand: [chapel]}
do:
  - run: chapel.play
expect:
  player:
    zones: {hand: [chapel], trash: []}
  no_events:
    - decision
---
scenario: A card the hand does not hold is refused
game: sieve
given:
  player:
    zones: {hand: [pebble, chapel]}
choices:
  - chapel.play.trash: gem
do:
  - run: chapel.play
expect:
  refused: "'gem' is not a legal answer to 'Chapel: choose picked in hand where picked is not"
---
scenario: Appraiser scores the card picked, of every card of the kind
game: sieve
choices:
  - appraiser.play.score: gem
do:
  - run: appraiser.play
expect:
  player:
    counters: {victory_points: 3}
---
scenario: Tax picks another player, who pays
game: sieve
players: 3
given:
  players:
    - counters: {coins: 2}
    - counters: {coins: 2}
    - counters: {coins: 2}
choices:
  - tax.play.tax: 3
do:
  - run: tax.play
expect:
  players:
    - counters: {coins: 2}
    - counters: {coins: 2}
    - counters: {coins: 1}
"""


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **files: str) -> Path:
    """The Sieve game in a project of its own (``files`` replace or add card files by
    name), made the current directory."""
    game = tmp_path / "cards" / "sieve"
    game.mkdir(parents=True)
    texts = {
        "game.cards": GAME,
        "cards.cards": CARDS,
        "flow.cards": FLOW,
        "natives.py": NATIVES,
        **files,
    }
    for name, text in texts.items():
        (game / name).write_text(text, encoding="utf-8")
    scenarios = tmp_path / "tests" / "scenarios" / "sieve"
    scenarios.mkdir(parents=True)
    (scenarios / "choose.yaml").write_text(SCENARIOS, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _built(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    **files: str,
) -> Path:
    project = _project(tmp_path, monkeypatch, **files)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    return project


def _check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], card: str
) -> str:
    """``cardc check`` of Sieve with ``card`` in a file of its own: what it printed."""
    _project(tmp_path, monkeypatch, **{"extra.cards": card})
    status, out = run(capsys, "check")
    assert status == 1, out
    return out


# -- choose NAME in LIST: the syntax ------------------------------------------------------------


def test_choose_from_parses_to_its_node() -> None:
    result = parse(
        'card "Chapel" {\n  on play {\n    choose picked in hand where picked != self '
        "{ discard picked }\n  }\n}\n",
        "chapel.cards",
    )
    assert not result.diagnostics
    (stmt,) = result.file.declarations[0].body[0].body
    assert isinstance(stmt, ChooseFrom)
    assert stmt.var == "picked"
    assert stmt.items.id == "hand"
    assert stmt.where is not None
    assert (stmt.span.line, stmt.span.column) == (3, 5)
    assert len(stmt.body) == 1


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("choose picked from hand { discard picked }", 24),
        ("choose one of hand { discard picked }", 19),
        ("choose a card in hand { discard picked }", 19),
    ],
)
def test_a_choose_head_of_other_words_says_both_forms(line: str, column: int) -> None:
    result = parse(f'card "C" {{\n  on play {{\n    {line}\n  }}\n}}\n', "c.cards")
    (diagnostic,) = result.diagnostics
    assert diagnostic.code == "choose-head"
    assert (diagnostic.span.line, diagnostic.span.column) == (3, column)
    assert "choose NAME in LIST { ... }" in diagnostic.message
    assert "choose one of { ... }" in diagnostic.message
    assert "choose picked in hand" in diagnostic.hints[0]


# -- choose NAME in LIST: checked --------------------------------------------------------------


def test_choose_needs_a_list_at_its_line_and_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(
        tmp_path,
        monkeypatch,
        capsys,
        'card "Odd" {\n  on play {\n    choose x in 5 { gain coins 1 }\n  }\n}\n',
    )
    assert "extra.cards:3:17: error[type-mismatch]: 'choose' needs a list to choose from" in out
    assert "hint: for example: choose picked in hand { discard picked }" in out


def test_choose_names_a_value_of_its_own_and_filters_by_yes_or_no(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(
        tmp_path,
        monkeypatch,
        capsys,
        'card "Odd" {\n  on play {\n    choose coins in hand { gain coins 1 }\n'
        '    choose y in hand where 3 { gain coins 1 } @label("other")\n  }\n}\n',
    )
    assert "extra.cards:3:5: error[shadowed-name]: 'coins' is already a counter" in out
    assert "hint: choose another name for the choice" in out
    assert "extra.cards:4:28: error[type-mismatch]: 'where' needs a yes/no" in out


def test_two_picks_of_one_trigger_named_alike_ask_for_a_label(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(
        tmp_path,
        monkeypatch,
        capsys,
        'card "Odd" {\n  on play {\n    choose a in hand { gain coins 1 }\n'
        "    choose b in deck { gain coins 2 }\n  }\n}\n",
    )
    assert "extra.cards:4:5: error[question-name]" in out
    assert 'choose picked in hand { ... } @label("trash_a_card")' in out


def test_a_kind_members_of_the_item_picked_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(
        tmp_path,
        monkeypatch,
        capsys,
        'card "Odd" {\n  on play {\n    choose v in card { score v.wroth }\n  }\n}\n',
    )
    assert "extra.cards:3:30: error[member-unknown]: a card has no property or tag 'wroth'" in out
    assert "did you mean 'worth'?" in out


def test_the_ir_of_a_pick_is_named_and_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    ir = json.loads((project / "generated" / "sieve" / "cards.json").read_text(encoding="utf-8"))
    from jsonschema import Draft202012Validator

    assert not list(Draft202012Validator(SCHEMA).iter_errors(ir))
    cards = {card["id"]: card for card in ir["cards"]}
    chapel = cards["chapel"]["triggers"]["play"]["body"][0]
    assert chapel["kind"] == "choose_from"
    assert chapel["name"] == "trash"  # its @label
    assert chapel["over"] == {"kind": "zone_cards", "zone": "hand"}
    assert chapel["as_player"] is False
    seer = cards["seer"]["triggers"]["play"]["body"][0]
    assert seer["name"] == "move_card"  # its first verb
    assert seer["ask"] == "taken in look at deck, 3, then move card taken deck hand"
    appraiser = cards["appraiser"]["triggers"]["play"]["body"][0]
    assert appraiser["ask"] == "a card to score"
    assert cards["tax"]["triggers"]["play"]["body"][1]["as_player"] is True
    schema = json.loads(
        (project / "generated" / "sieve" / "scenario.schema.json").read_text(encoding="utf-8")
    )
    assert "chapel.play.trash" in json.dumps(schema)


# -- choose NAME in LIST: played ----------------------------------------------------------------


def test_scenarios_script_the_pick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _built(tmp_path, monkeypatch, capsys)
    status, out = run(capsys, "test")
    assert status == 0, out
    assert "7 of 7 scenarios passed" in out


def test_a_pick_no_card_has_is_an_error_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    (project / "tests" / "scenarios" / "sieve" / "choose.yaml").write_text(
        "scenario: a typo\ngame: sieve\nchoices:\n  - chapel.play.trash: gme\n"
        "do:\n  - run: chapel.play\nexpect:\n  refused: x\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test")
    assert status == 1
    assert "choose.yaml:4:24: 'gme' is not an answer to 'chapel.play.trash'" in out
    assert "did you mean 'gem'?" in out


def test_copies_are_one_answer_and_the_prompt_lists_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.loader import new_game

    project = _built(tmp_path, monkeypatch, capsys)
    asked = []

    class Watch:
        def decide(self, game, question):  # type: ignore[no-untyped-def]
            asked.append(question)
            return question.options[-1]

    game = new_game(project / "generated" / "sieve", policies={-1: Watch()})
    game.players[0].zones["hand"] = ["pebble", "chapel", "pebble", "gem"]
    game.run("chapel", "play")
    (question,) = asked
    assert question.options == ("pebble", "gem")
    assert question.prompt.startswith("Chapel: choose picked in hand where picked is not this")
    assert game.players[0].zones["trash"] == ["gem"]


def test_answers_name_each_item_as_a_scenario_writes_it() -> None:
    seat = Player(1, "player 2", {"counters": {}, "tracks": {}, "zones": []})
    assert answer_of(seat) == "2"
    assert answer_of("gem") == "gem"
    assert answer_of(3) == "3"
    assert answer_of(3.0) == "3"
    assert answer_of([1, -1]) == "1 -1"


@pytest.mark.parametrize("policy", ["random", "lookahead"])
def test_the_simulator_answers_the_pick(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    policy: str,
) -> None:
    _built(tmp_path, monkeypatch, capsys)
    status, out = run(
        capsys, "sim", "sieve", "--games", "20", "--policy", policy, "--no-cards", "--json"
    )
    assert status == 0, out
    report = json.loads(out)
    assert report["games"] == 20


def test_the_lookahead_picks_the_card_worth_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A phase that asks the pick: the lookahead replays it once per card, and keeps the one
    that scores most (the Gem, 3), whichever the list gives first."""
    from engine.flow import Lookahead
    from engine.loader import new_game

    flow = FLOW.replace(
        "phase play { play_one hand }",
        "phase play { choose best in card where best.worth > 0 { score best.worth } }",
    )
    project = _built(tmp_path, monkeypatch, capsys, **{"flow.cards": flow})
    game = new_game(project / "generated" / "sieve", policies={-1: Lookahead()})
    result = game.play()
    assert result.scores == [3 * 4]


# -- none beside a native's card -----------------------------------------------------------------


def test_a_native_card_compares_with_none_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.loader import new_game

    project = _built(tmp_path, monkeypatch, capsys)
    handlers = (project / "generated" / "sieve" / "handlers.py").read_text(encoding="utf-8")
    assert "(g.natives['top_of_deck'](g, c) is None)" in handlers
    game = new_game(project / "generated" / "sieve")
    game.players[0].zones["deck"] = []
    game.run("seer", "play")
    assert game.players[0].counters["victory_points"] == 2


@pytest.mark.parametrize(
    ("test", "column", "message"),
    [
        ("top_of_deck() > none", 24, "'>' cannot compare with 'none'"),
        ("coins == none", 17, "'coins' is a number, never none"),
        ("self == none", 16, "'self' is a card written out, so it is never none"),
        ("count(hand) == none", 23, "'count(hand)' gives a number, never none"),
    ],
)
def test_none_beside_what_is_never_none_is_an_error_at_none(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    test: str,
    column: int,
    message: str,
) -> None:
    out = _check(
        tmp_path,
        monkeypatch,
        capsys,
        f'card "Odd" {{\n  on play {{\n    if {test} {{ gain coins 1 }}\n  }}\n}}\n',
    )
    assert f"extra.cards:3:{column}: error[type-mismatch]: {message}" in out


def test_a_let_of_a_native_card_compares_with_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    card = (
        'card "Peek" {\n  on play {\n    let top top_of_deck()\n'
        "    if top != none { score 1 }\n  }\n}\n"
    )
    _project(tmp_path, monkeypatch, **{"extra.cards": card})
    status, out = run(capsys, "check")
    assert status == 0, out


# -- printed ------------------------------------------------------------------------------------


def test_sheets_say_the_pick_and_the_none_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, monkeypatch)
    status, out = run(capsys, "sheets", "sieve", "--format", "md", "--out", "print")
    assert status == 0, out
    text = (project / "print" / "sieve" / "sieve.md").read_text(encoding="utf-8")
    assert (
        "choose one of the cards in your hand where it is not this card: move it from your "
        "hand to your trash." in text
    )
    assert "choose one of the top 3 of your deck: move it from your deck to your hand." in text
    assert "If there is no top card of the deck, score 2 victory points." in text
    # The item picked is "it", and what it owns "its" (it read "it's worth").
    assert (
        "choose a card where its worth is higher than 0: score victory points equal to its "
        "worth." in text
    )
    # The picked player loses (README: "choose a player: they lose 2 Coins"); it read "...: lose
    # 1 coin.", said to the card's player (audit7-dj).
    assert "Choose a player for whom that player is not the taxer: they lose 1 coin." in text


# -- a trick-taking game from the README alone (tests/data/lang7: Lantern Tricks) ---------------

LANTERN = Path(__file__).resolve().parent / "data" / "lang7"


def _lantern(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project holding a copy of Lantern Tricks and its scenarios, made the current folder."""
    import shutil

    shutil.copytree(LANTERN / "cards", tmp_path / "cards")
    shutil.copytree(LANTERN / "scenarios", tmp_path / "tests" / "scenarios")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_lantern_tricks_builds_passes_its_scenarios_and_simulates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Follow suit (``choose card in hand where ... card.suit == led_suit() or not
    holds_suit(led_suit())``), the led suit none before the lead, trumps, a card's bonus read
    from the trick's cards, two variants."""
    _lantern(tmp_path, monkeypatch)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    status, out = run(capsys, "test")
    assert status == 0, out
    assert "11 of 11 scenarios passed" in out
    status, out = run(
        capsys, "sim", "lantern", "--games", "30", "--compare", "no_trump", "--no-cards", "--json"
    )
    assert status == 0, out


def test_a_name_a_native_gives_is_an_argument_where_a_name_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``holds_suit(led_suit())`` and ``holds_suit(card.suit)`` were "'holds_suit' takes the
    name of a symbol here": a native returning a name could feed no parameter of names."""
    project = _lantern(tmp_path, monkeypatch)
    status, out = run(capsys, "check")
    assert status == 0, out
    extra = project / "cards" / "lantern" / "extra.cards"
    extra.write_text(
        'rule "Odd" {\n  on won {\n    if holds_suit(tricks + 1) { score 1 }\n  }\n}\n',
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "extra.cards:3:19: error[type-mismatch]: 'holds_suit' takes a symbol here, not a number"
    ) in out, out


def test_a_member_of_a_card_of_a_zone_is_read_as_its_kinds_declare_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``card.suit`` of ``choose card in hand`` was "'card' has no members the checker knows",
    hinting at ``holds_suit(card)``, a native of another meaning; it is typed as the kinds
    declaring ``suit`` type it, and a member no kind has is the error."""
    project = _lantern(tmp_path, monkeypatch)
    extra = project / "cards" / "lantern" / "extra.cards"
    extra.write_text(
        'rule "Odd" {\n  on won {\n    for each c in trick { score c.rank + c.bonus }\n'
        "    for each c in trick where c.sut == sun { score 1 }\n  }\n}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "extra.cards:4:31: error[member-unknown]: no kind of card of this game has a property "
        "or tag 'sut'"
    ) in out, out
    assert "did you mean 'suit'?" in out
    assert "holds_suit" not in out
    assert out.count("error[") == 1, out


def test_a_symbol_without_words_stops_check_and_build_with_the_lines_to_add(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cardc check`` passed, ``cardc build`` stopped at the text lint with "give the name its
    rulebook words in reference.yaml's words/phrases/when": a new game has no reference.yaml,
    and the README names its keys only. The hint now gives the file and its lines, and ``cardc
    check`` runs the lint too (edges7), so both say it."""
    project = _lantern(tmp_path, monkeypatch)
    (project / "cards" / "lantern" / "reference.yaml").unlink()
    for command in ("check", "build"):
        status, out = run(capsys, command)
        assert status == 1, out
        assert "cards.cards:2:1: error[sheet-text]" in out
        assert (
            "hint: word it in cards/lantern/reference.yaml (create it if there is none): "
            "'words:' then '  moon: Moon' on the next line; or give the card a 'text' property"
        ) in out, out


def test_a_pick_in_a_dsl_verb_is_asked_and_answered_by_the_verb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A DSL verb's pick is ``VERB.verb.NAME``, as its ``may`` is, in the game's schema and in a
    scenario's choices."""
    verb = (
        'verb cull() "trash a card of your hand" {\n'
        '  choose culled in hand { move_card culled hand trash } @label("cull")\n}\n'
        'card "Culler" {\n  copies 1\n  on play { cull }\n}\n'
    )
    project = _built(tmp_path, monkeypatch, capsys, **{"cull.cards": verb})
    (project / "tests" / "scenarios" / "sieve" / "choose.yaml").write_text(
        "scenario: the verb asks\ngame: sieve\ngiven:\n  player:\n"
        "    zones: {hand: [gem, pebble]}\nchoices:\n  - cull.verb.cull: gem\n"
        "do:\n  - run: culler.play\nexpect:\n  player:\n    zones: {trash: [gem]}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test")
    assert status == 0, out
    schema = (project / "generated" / "sieve" / "scenario.schema.json").read_text(encoding="utf-8")
    assert "cull.verb.cull" in schema
