"""Rules tests as data: scenario files, run against a compiled game.

A scenario (YAML, read with ruamel.yaml so every problem has its line) gives a state by the
names a designer knows, scripted dice and choices, steps to do, and what must hold after::

    scenario: Plague marks health unless Lime Juice is played
    game: uncharted_passage
    given:
      player:
        zones: {port_cards: [lime_juice]}
    choices:
      - play.lime_juice: no
    do:
      - run: plague.reveal
    expect:
      player:
        tracks: {health: 1}

Scripts are strict: running out of dice or choices fails at once (never a random fallback), a
choice that does not fit the question fails naming both, and leftovers fail unless
``allow_unused: true``. Every failure names the scenario file and line.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from ruamel.yaml.error import YAMLError

from dsl.diagnostics import NOT_UTF8_HINT, not_utf8
from dsl.yaml_load import load_yaml_all, yaml_error_hint, yaml_error_message, yaml_error_position
from engine.loader import (
    BASE_VARIANT,
    compiled_folder,
    game_rules,
    name_problem,
    new_game,
    validate_ir,
)
from engine.locate import shown_path
from engine.modes import MODE_SPELLINGS, MODES, mode_name
from engine.runtime import (
    Context,
    Game,
    GameEnded,
    Policy,
    Question,
    RuleError,
    ScriptedDiceError,
)
from engine.scenario_check import check_scenario
from engine.scenario_flow import scenario_actions
from engine.scenario_library import with_library
from engine.scenario_types import Unordered, child_where
from engine.words import counted

SCENARIO_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://cardc.dev/schema/scenario-1.json",
    "title": "cardc scenario: given state, scripted dice and choices, steps, expected state",
    "type": "object",
    "required": ["scenario", "game"],
    "additionalProperties": False,
    "properties": {
        "scenario": {"type": "string", "minLength": 1},
        "game": {"type": "string"},
        "variant": {"type": ["string", "null"]},
        "mode": {"enum": list(MODE_SPELLINGS)},
        "players": {"type": "integer", "minimum": 1, "maximum": 8},
        "seed": {"type": "integer"},
        "rulebook": {"type": "string"},
        "given": {"$ref": "#/$defs/state"},
        "dice": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "choices": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"type": "string"},
                    {"type": "object", "minProperties": 1, "maxProperties": 1},
                ]
            },
        },
        "do": {"type": "array", "items": {"$ref": "#/$defs/step"}},
        "expect": {"$ref": "#/$defs/state"},
        "allow_unused": {"type": "boolean"},
    },
    "$defs": {
        "player": {
            "type": "object",
            "properties": {
                "counters": {"type": "object", "additionalProperties": {"type": "integer"}},
                "tracks": {"type": "object", "additionalProperties": {"type": "integer"}},
                "zones": {
                    "type": "object",
                    "additionalProperties": {
                        "anyOf": [
                            {"type": "array", "items": {"type": "string"}},
                            {"type": "integer", "minimum": 0},
                        ]
                    },
                },
            },
        },
        "state": {
            "type": "object",
            "properties": {
                "round": {"type": "integer", "minimum": 1},
                "player": {"$ref": "#/$defs/player"},
                "players": {"type": "array", "items": {"$ref": "#/$defs/player"}},
                "quantities": {"type": "object", "additionalProperties": {"type": "integer"}},
                "events": {"type": "array", "items": {"type": "string"}},
                "events_in_order": {"type": "array", "items": {"type": "string"}},
                "events_exactly": {"type": "array", "items": {"type": "string"}},
                "no_events": {"type": "array", "items": {"type": "string"}},
                "refused": {"type": "string"},
                "error": {"type": "string"},
            },
        },
        "step": {
            "type": "object",
            "additionalProperties": False,
            "minProperties": 1,
            "properties": {
                "run": {"type": "string", "pattern": "^[a-z0-9_]+[.][a-z0-9_]+$"},
                "fire": {"type": "string"},
                "action": {"type": "string"},
                "player": {"type": "integer", "minimum": 1},
                "event": {"type": "object"},
                "quantities": {"type": "object", "additionalProperties": {"type": "integer"}},
                "args": {"type": "object"},
                "expect": {"$ref": "#/$defs/state"},
            },
        },
    },
}
_VALIDATOR = Draft202012Validator(SCENARIO_SCHEMA)
_STEP_KEYS = {"run", "fire", "action", "player", "event", "quantities", "args", "expect"}


class ScenarioError(Exception):
    """A scenario failed, or could not run; the message starts with ``file:line``."""

    #: Raised from inside a handler (a misfit choice), it passes through as it is.
    passthrough = True


@dataclass
class ScenarioResult:
    """The outcome of one scenario."""

    path: str
    name: str
    line: int
    passed: bool
    message: str = ""


def _line(node: Any, key: Any = None) -> int:
    """1-based line of a ruamel node, or of one of its keys / items."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return 0
    try:
        if key is None:
            return int(lc.line) + 1
        if isinstance(key, int):
            return int(lc.item(key)[0]) + 1
        return int(lc.key(key)[0]) + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return int(lc.line) + 1


def _value_at(node: Any, key: str) -> str:
    """``LINE:COLUMN`` (1-based) of the value under ``key`` of a ruamel mapping; ``LINE`` of
    the mapping when the file gives no position (a mapping built in Python)."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return str(_line(node, key))
    try:
        line, column = lc.value(key)
        return f"{int(line) + 1}:{int(column) + 1}"
    except (KeyError, IndexError, TypeError, AttributeError):
        return str(_line(node, key))


def _removed(folder: Path, ir: dict[str, Any]) -> frozenset[str]:
    """The base game's cards a variant's ``ir`` (compiled in ``folder``, beside its base's
    ``cards.json`` one folder up) removes; none for a base game."""
    base = folder.parent / "cards.json"
    if not ir.get("variant") or not base.is_file():
        return frozenset()
    try:
        cards = json.loads(base.read_text(encoding="utf-8")).get("cards") or []
    except (OSError, ValueError):
        return frozenset()
    kept = {card["id"] for card in ir["cards"]}
    return frozenset(str(card["id"]) for card in cards if card.get("id") not in kept)


def _same(got: Any, want: Any) -> bool:
    """Whether a game's own expectation holds: equal; a number for a list of cards is how
    many (as a player's ``zones`` take it); a set is compared in any order, and an
    :class:`~engine.scenario_types.Unordered` in any order with its repeats counted."""
    if (
        isinstance(want, int)
        and not isinstance(want, bool)
        and isinstance(got, (list, frozenset, Unordered))
    ):
        return len(got) == want
    if isinstance(got, (set, frozenset)) and isinstance(want, list):
        return set(got) == set(want)
    if isinstance(got, Unordered) and isinstance(want, list):
        return sorted(map(repr, got)) == sorted(map(repr, want))
    return bool(got == want)


def _shown(got: Any) -> Any:
    """A value a hook returned, as a scenario writes it (a set as a sorted list)."""
    if isinstance(got, Unordered):
        return list(got)
    return sorted(got) if isinstance(got, (set, frozenset)) else got


def _plain(node: Any) -> Any:
    """ruamel data as plain dicts and lists (for the schema)."""
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _suggest(name: str, pool: Any) -> str:
    close = difflib.get_close_matches(name, sorted(pool), n=1, cutoff=0.6)
    return (
        f"; did you mean '{close[0]}'?"
        if close
        else (f"; known: {', '.join(sorted(pool))}" if pool else "")
    )


def load(path: Path) -> list[tuple[Any, int, str | None]]:
    """The scenario documents of a file: each with its line and its schema error, if any."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
        # Bounded: an alias bomb or deep nesting is a located error, not a hang.
        documents = [d for d in load_yaml_all(text, source=str(path)) if d is not None]
    except OSError as error:
        raise ScenarioError(
            f"{path}:1: cannot read the scenario: {error.strerror or error}"
        ) from error
    except UnicodeDecodeError as error:
        line, column, message = not_utf8(data, error)
        raise ScenarioError(f"{path}:{line}:{column}: {message}; {NOT_UTF8_HINT}") from error
    except YAMLError as error:
        line, column = yaml_error_position(error, text)
        hint = yaml_error_hint(error)
        raise ScenarioError(
            f"{path}:{line}:{column}: {yaml_error_message(error)}" + (f"; {hint}" if hint else "")
        ) from error
    if not documents:
        raise ScenarioError(
            f"{path}:1: this file holds no scenario; write one (scenario:, game:, given:, do:, "
            'expect:, as README\'s "Scenarios" shows), or delete the file'
        )
    out: list[tuple[Any, int, str | None]] = []
    for document in documents:
        if not isinstance(document, dict):
            out.append((document, 1, f"{path}:{_line(document) or 1}: a scenario is a mapping"))
            continue
        errors = sorted(_VALIDATOR.iter_errors(_plain(document)), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            if first.validator == "anyOf" and first.context:
                # A list that is neither shape: point at the item that spoils it (a zone's
                # [fame, 9]: the 9), not at the whole list.
                deepest = max(first.context, key=lambda e: len(e.absolute_path))
                if len(deepest.absolute_path) > len(first.absolute_path):
                    first = deepest
            node, line = document, _line(document)
            at: tuple[int, int] | None = None
            for part in first.absolute_path:
                if isinstance(node, (dict, list)):
                    line = _line(node, part) or line
                    # The value's own column, as every other scenario problem gives it.
                    at = child_where(node, part, (line, 1))
                    try:
                        node = node[part]
                    except (KeyError, IndexError, TypeError):
                        break
            place = f"{at[0]}:{at[1]}" if at is not None else f"{line}"
            where = "/".join(str(p) for p in first.absolute_path) or "the scenario"
            unknown = ""
            if first.validator == "additionalProperties" and isinstance(node, dict):
                extra = sorted(set(node) - set(first.schema.get("properties", {})))
                if extra:
                    unknown = _suggest(str(extra[0]), first.schema.get("properties", {}))
            elif first.validator == "enum" and isinstance(first.validator_value, list):
                # 'mode: compettive': the closest of the few allowed values.
                close = [str(v) for v in first.validator_value if v is not None]
                unknown = _suggest(str(first.instance), close)
                if unknown.startswith("; known"):
                    unknown = ""
            message = first.message
            if first.validator == "anyOf":
                # "is not valid under any of the given schemas" names no schema: say the shapes.
                message = f"{_show_value(first.instance)} is not one of the shapes allowed here"
            if not unknown:
                unknown = _shape_hint(tuple(first.absolute_path))
            out.append((document, _line(document), f"{path}:{place}: {where}: {message}{unknown}"))
            continue
        out.append((document, _line(document), None))
    return out


#: What a value of the scenario looks like, by the key holding it (the last name of its path):
#: the hint of a shape error, which JSON Schema words as "is not of type 'object'".
_SHAPES = {
    "do": (
        "'do' is a list of steps, each '- action: NAME' (with 'args: {...}'), "
        "'- run: card.trigger' or '- fire: trigger'"
    ),
    "step": (
        "a step is a mapping: '{action: NAME, args: {...}}', '{run: card.trigger}' or "
        "'{fire: trigger}'"
    ),
    "choices": "'choices' is a list of answers, each 'question: answer' or a bare answer",
    "choice": "a choice is 'question: answer' (one key) or a bare answer",
    "dice": "'dice' is a list of the results in order: [3, 5]",
    "zones": (
        "a player's zones map each zone to a list of card ids ([fame, pistol]) or a count of "
        "cards (3)"
    ),
    "zone": "a zone is a list of card ids ([fame, pistol]) or a count of cards (3)",
    "counters": "counters map each counter to a whole number: {money: 3}",
    "tracks": "tracks map each track to the boxes marked: {health: 2}",
    "quantities": "quantities map each quantity to a whole number",
    "player": "a player's state is a mapping: {counters: {...}, zones: {...}, ...}",
    "players": "'players' is a list of players' states, the first player's first",
    "given": "'given' is a mapping of the state: {player: {...}, ...}",
    "expect": "'expect' is a mapping of what must hold: {player: {...}, events: [...]}",
    "events": "event checks are a list of lines as the log writes them: 'gain player 1 money 1'",
    "scenario": "'scenario' is the case's name, a line of text",
    "rulebook": "'rulebook' quotes the rulebook's sentence, as text",
    "game": "'game' names a compiled game of the project (see generated/), never a path",
    "variant": "'variant' names a variant of the game (cards/GAME/variants/NAME.yaml)",
    "seed": "'seed' is a whole number",
    "allow_unused": "'allow_unused' is true or false",
    "round": "'round' is a round number: 1 or more",
    "action": "'action' names a step of the game's: 'action: NAME'",
    "run": "'run' names a card's trigger: 'run: card.trigger'",
    "fire": "'fire' names a trigger: 'fire: trigger'",
    "args": "'args' maps each argument to its value: 'args: {name: value}'",
    "event": "'event' maps each of the trigger's parameters to its value",
    "refused": "'refused' is words of the refusal expected, as text",
    "error": "'error' is words of the refusal expected, as text",
    "die": "a die's result is a whole number: 1 or more",
    "step_player": "a step's 'player' is a player number: 'player: 2'",
}
#: The keys of the scenario itself whose shape differs from a key of the same name deeper down.
_TOP_SHAPES = {"players": "'players' is the number of players: 'players: 3'"}


def _shape_hint(at: tuple[Any, ...]) -> str:
    """The hint for a shape error at path ``at`` ('' when there is none to give)."""
    if not at:
        return ""
    last, parent = at[-1], at[-2] if len(at) > 1 else None
    if len(at) == 1 and last in _TOP_SHAPES:
        return f"; {_TOP_SHAPES[str(last)]}"
    if last == "player" and isinstance(parent, int):
        key = "step_player"
    elif isinstance(last, int):
        key = {"do": "step", "choices": "choice", "players": "player", "dice": "die"}.get(
            str(parent), ""
        )
        if parent in ("events", "events_in_order", "events_exactly", "no_events"):
            key = "events"
        elif len(at) > 2 and at[-3] == "zones":
            key = "zone"
    elif parent == "zones":
        key = "zone"
    elif parent in ("counters", "tracks", "quantities"):
        key = str(parent)
    elif last in ("events_in_order", "events_exactly", "no_events"):
        key = "events"
    else:
        key = str(last)
    hint = _SHAPES.get(key, "")
    return f"; {hint}" if hint else ""


def _show_value(value: Any) -> str:
    """A value as the scenario wrote it, short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _dice_problem(
    path: Path, doc: Any, game: Game, given: int, error: ScriptedDiceError, step: int
) -> str:
    """The scenario's dice could not give a roll of the step at line ``step``: said at the
    die that cannot come up, or at the step that ran out of them, with what to write."""
    sides = getattr(error, "sides", 6)
    value = getattr(error, "value", None)
    # The rule that rolled, when the engine knows it ("cards/x.cards:4:11: no scripted ...").
    rolled_at = str(error).rpartition(": ")[0]
    by = f" at {rolled_at}" if rolled_at else ""
    if value is None:
        where = f" (line {_line(doc, 'dice')})" if "dice" in doc else ""
        return (
            f"{path}:{step}: this step rolls a d{sides}{by}, but the scenario's scripted dice "
            f"are used up ({given} given); add the roll's result, 1 to {sides}, to "
            f"'dice:'{where}"
        )
    index = given - len(game.scripted_dice or []) - 1
    lc = getattr(doc.get("dice"), "lc", None)
    try:
        line, column = lc.item(index)  # type: ignore[union-attr]
        at = f"{int(line) + 1}:{int(column) + 1}"
    except (KeyError, IndexError, TypeError, AttributeError):
        at = str(_line(doc, "dice"))
    return (
        f"{path}:{at}: the scripted die {value} (number {index + 1} of 'dice:') cannot come "
        f"up on the d{sides} that the step at line {step} rolls{by}; give a number from 1 to "
        f"{sides}"
    )


class _ScriptedChoices(Policy):
    """Answers from the scenario, each matched against the question asked."""

    def __init__(self, path: Path, choices: list[tuple[str | None, str, int]], line: int):
        self.path = path
        self.choices = choices
        self.used = 0
        self.line = line  # where a question with no answer left is told

    def decide(self, game: Game, question: Question) -> str:
        """The next scripted answer, or a clear failure."""
        if self.used >= len(self.choices):
            raise ScenarioError(
                f"{self.path}:{self.line}: the scenario has no choice left, but the engine asks "
                f"'{question.id}': {question.describe()}; add its answer to 'choices:' "
                f"(- {question.id}: ANSWER)"
            )
        expected, answer, line = self.choices[self.used]
        self.used += 1
        if expected is not None and expected not in (question.id, question.prompt):
            raise ScenarioError(
                f"{self.path}:{line}: scenario answers '{expected}: {answer}' but the engine "
                f"asks '{question.id}': {question.describe()}"
            )
        # An answer the question does not allow goes to the engine as it is: the engine's
        # refusal (naming its rule) is what a scenario expecting it checks.
        return answer

    def forced(self, game: Game, question: Question) -> str | None:
        """A question with one legal answer is answered without asking (engine/runtime.py:
        ``Game.ask``). A scripted answer naming it is still taken as its answer (and held to
        the rule: one the question does not allow is refused), so a scenario written before,
        or one also run against a variant where the question has more answers, keeps working.
        A bare answer is never taken: nothing says it is this question's."""
        if self.used < len(self.choices):
            expected, answer, _line = self.choices[self.used]
            if expected is not None and expected in (question.id, question.prompt):
                self.used += 1
                return answer
        return None


def _hook(path: Path, at: int, table: str, key: str, hooks: Any, *args: Any) -> Any:
    """Call the game's ``GIVEN``/``EXPECT`` hook for ``key``; a failure inside it is the
    game's Python's, told at the scenario's line with the hook's ``def`` (it was "internal
    error ... (a bug in cardc or the game's flow)"). A rule refusing passes through."""
    hook = hooks[key]
    try:
        return hook(*args)
    except (RuleError, ScenarioError):
        raise
    except Exception as error:  # noqa: BLE001 - the game's own Python, said where it is
        import traceback

        # The line that raised, in the hook's own file (else its def).
        code = getattr(hook, "__code__", None)
        lines = [
            frame.lineno
            for frame in traceback.extract_tb(error.__traceback__)
            if code is not None and frame.filename == code.co_filename
        ]
        where = (
            f", {shown_path(code.co_filename)}:{lines[-1] if lines else code.co_firstlineno}"
            if code
            else ""
        )
        raise ScenarioError(
            f"{path}:{at}: the game's Python failed in {table}[{key!r}]{where}: "
            f"{type(error).__name__}: {error}"
        ) from error


def _answer(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


class Runner:
    """Runs scenario documents against the compiled games under ``generated``."""

    def __init__(self, generated: Path, variant: str | None = None):
        self.generated = generated
        self.variant = variant

    def run_file(self, path: Path) -> Iterator[ScenarioResult]:
        """Run every scenario in one file; a problem of one never stops the others."""
        try:
            documents = load(path)
        except ScenarioError as error:
            yield ScenarioResult(str(path), path.stem, 1, False, str(error))
            return
        for document, line, problem in documents:
            if problem is not None:
                name = (
                    str(document.get("scenario", path.stem))
                    if isinstance(document, dict)
                    else path.stem
                )
                yield ScenarioResult(str(path), name, line, False, problem)
            else:
                yield self.run(path, document, line)

    def run(self, path: Path, doc: Any, line: int) -> ScenarioResult:
        """Run one scenario document. Whatever goes wrong is this scenario's failure, at its
        line: a bug in a game's flow must not end the run of every other scenario."""
        name = str(doc.get("scenario", path.stem))
        try:
            self._run(path, doc, line)
        except ScenarioError as error:
            return ScenarioResult(str(path), name, line, False, str(error))
        except RuleError as error:
            return ScenarioResult(
                str(path), name, line, False, f"{path}:{line}: a rule failed: {error}"
            )
        except Exception as error:  # noqa: BLE001 - one scenario's failure, never the run's
            return ScenarioResult(
                str(path),
                name,
                line,
                False,
                f"{path}:{line}: internal error while running this scenario: "
                f"{type(error).__name__}: {error} (a bug in cardc or the game's flow)",
            )
        return ScenarioResult(str(path), name, line, True)

    def folder(self, path: Path, doc: Any) -> Path:
        """The compiled game (or variant) folder the scenario runs against."""
        game_name = str(doc["game"])
        variant = self.variant or doc.get("variant")
        if self.variant == BASE_VARIANT:
            # `cardc test --variant base`: the game itself, whatever variant a scenario names
            # (as `cardc sim --variant base`), so the base's results stand beside a variant's.
            variant = None
        # By name only, inside generated/: a path here would load and run a module elsewhere.
        # The variant named by `cardc test --variant` is no line of the file: its game's.
        variant_key = "variant" if not self.variant and doc.get("variant") else "game"
        for what, value in (("game", game_name), ("variant", variant)):
            problem = name_problem(value, what) if value else None
            if problem:
                at = _value_at(doc, variant_key if what == "variant" else "game")
                raise ScenarioError(f"{path}:{at}: {problem}")
        folder = compiled_folder(self.generated, game_name, str(variant) if variant else None)
        if (
            variant
            and (self.generated / game_name / "handlers.py").is_file()
            and not (folder / "handlers.py").is_file()
        ):
            known = sorted(
                p.name
                for p in (self.generated / game_name).iterdir()
                if (p / "handlers.py").is_file()
            )
            given = " (cardc test --variant)" if variant_key == "game" else ""
            raise ScenarioError(
                f"{path}:{_value_at(doc, variant_key)}: the game '{game_name}' has no variant "
                f"'{variant}'{given}{_suggest(str(variant), known) or '; it has no variants'}"
                f" (a variant is compiled from cards/{game_name}/variants/NAME.yaml by "
                "'cardc build')"
            )
        if not (folder / "handlers.py").is_file():
            known = (
                sorted(p.name for p in self.generated.iterdir() if p.is_dir())
                if self.generated.is_dir()
                else []
            )
            raise ScenarioError(
                f"{path}:{_value_at(doc, 'game')}: no compiled game '{game_name}' in "
                f"{self.generated}{_suggest(game_name, known)} (run 'cardc build')"
            )
        return folder

    def _run(self, path: Path, doc: Any, line: int) -> None:
        folder = self.folder(path, doc)
        # "cooperative" and "co-op" are the mode coop, as for 'cardc sim --mode'.
        mode = mode_name(str(doc.get("mode") or "solo"))
        players = int(doc.get("players") or MODES.get(mode, 1))
        try:
            # Checked as the engine checks it before running: a damaged cards.json was an
            # "internal error ... JSONDecodeError (a bug in cardc or the game's flow)".
            ir = validate_ir(folder, (folder / "cards.json").read_bytes())
        except (OSError, RuleError) as error:
            raise ScenarioError(
                f"{path}:{line}: the compiled game cannot be used: {error}"
            ) from error
        if not doc.get("mode") and not doc.get("players"):
            # Neither given: as 'cardc sim' seats it, solo for a game one can play alone, else
            # competitive with the fewest players the game takes (`players 2..4`); it was
            # always solo, "Hexhold is for 2 to 4 players, not 1", in every such scenario.
            declared = ir["vocabulary"].get("players") or [1]
            if int(declared[0]) > 1:
                mode, players = "competitive", int(declared[0])
        # The game's own keys, and a market's row for a game that uses markets.
        rules = with_library(game_rules(str(ir["game"]), folder), ir)
        problems = check_scenario(doc, ir, rules, players, (line, 1), _removed(folder, ir))
        if problems:
            raise ScenarioError(
                "\n".join(f"{path}:{p.line}:{p.column}: {p.message}" for p in problems)
            )
        choices: list[tuple[str | None, str, int]] = []
        for index, item in enumerate(doc.get("choices") or []):
            at = _line(doc["choices"], index)
            if isinstance(item, dict):
                ((question, value),) = item.items()
                choices.append((str(question), _answer(value), at))
            else:
                choices.append((None, _answer(item), at))
        # Where a question with no answer left is told: the step asking it (set below), else
        # the choices (a 'given' that asks).
        policy = _ScriptedChoices(
            path, choices, _line(doc, "choices" if "choices" in doc else None)
        )
        game = new_game(
            folder,
            players=players,
            seed=int(doc.get("seed", 0)),
            policies={-1: policy},
            mode=mode,
        )
        game.scripted_dice = [int(d) for d in doc.get("dice") or []]
        dice_given = len(game.scripted_dice)
        expect = doc.get("expect") or {}
        wanted = _refusal(expect)
        wanted_at = _line(expect, "refused" if "refused" in expect else "error")
        failures: list[str] = []
        refused: str | None = None
        try:
            self._apply(path, game, rules, doc.get("given") or {})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise ScenarioError(
                f"{path}:{_line(doc, 'given')}: internal error setting up 'given': "
                f"{type(error).__name__}: {error}"
            ) from error
        except RuleError as error:
            if _internal(error) or not wanted or doc.get("do"):
                raise ScenarioError(
                    f"{path}:{_line(doc, 'given')}: the given state was refused: {error}"
                ) from error
            refused = str(error)
        last: Context | None = None
        steps = [] if refused is not None else list(doc.get("do") or [])
        for index, step in enumerate(steps):
            at = _line(doc["do"], index)
            policy.line = at
            here = step.get("expect") or {}
            mark = len(game.events)
            try:
                context = self._step(path, game, rules, step, at)
            except ScriptedDiceError as error:
                raise ScenarioError(
                    _dice_problem(path, doc, game, dice_given, error, at) + self._recent(game)
                ) from error
            except RuleError as error:
                if _internal(error):
                    raise ScenarioError(
                        f"{path}:{at}: the engine failed inside this step: {error}"
                        f"{self._recent(game)}"
                    ) from error
                if _refusal(here):
                    failures += self._refusal_matches(path, here, str(error))
                    failures += self._check(path, game, rules, here, last, game.events[mark:])
                    continue
                if wanted and index == len(steps) - 1:
                    refused = str(error)
                    break
                hint = (
                    "; a refusal the scenario expects comes from its last step, or is "
                    "expected under the step ('expect: {refused: ...}')"
                    if wanted
                    else ""
                )
                raise ScenarioError(
                    f"{path}:{at}: a rule refused this step: {error}{hint}{self._recent(game)}"
                ) from error
            except ScenarioError as error:
                raise ScenarioError(f"{error}{self._recent(game)}") from error
            except Exception as error:  # noqa: BLE001 - this step's failure, at its line
                raise ScenarioError(
                    f"{path}:{at}: internal error in this step: {type(error).__name__}: "
                    f"{error}{self._recent(game)}"
                ) from error
            last = context or last
            if _refusal(here):
                failures.append(
                    f"{path}:{_line(here, 'refused' if 'refused' in here else 'error')}: "
                    f"expected this step to be refused ('{_refusal(here)}'), but it ran"
                )
            if here:
                failures += self._check(path, game, rules, here, context, game.events[mark:])
        if wanted:
            if refused is None:
                failures.append(
                    f"{path}:{wanted_at}: expected the refusal '{wanted}', but every step ran"
                )
            else:
                failures += self._refusal_matches(path, expect, refused)
        failures += self._check(path, game, rules, expect, last, game.events)
        if refused is None and not doc.get("allow_unused"):
            if game.scripted_dice:
                left = len(game.scripted_dice)
                failures.append(
                    f"{path}:{_line(doc, 'dice')}: {left} of {dice_given} scripted dice "
                    f"{'was' if left == 1 else 'were'} not rolled ({game.scripted_dice}); remove "
                    f"{'it' if left == 1 else 'them'} or set allow_unused: true"
                )
            if policy.used < len(choices):
                _q, _a, at = choices[policy.used]
                left = len(choices) - policy.used
                failures.append(
                    f"{path}:{at}: {counted(left, 'scripted choice')} "
                    f"{'was' if left == 1 else 'were'} not asked for; remove "
                    f"{'it' if left == 1 else 'them'} or set allow_unused: true"
                )
        if failures:
            raise ScenarioError("\n".join(failures) + self._recent(game))

    def _refusal_matches(self, path: Path, expect: Any, message: str) -> list[str]:
        wanted = _refusal(expect)
        if wanted and wanted in message:
            return []
        key = "refused" if "refused" in expect else "error"
        return [
            f"{path}:{_line(expect, key)}: expected the refusal '{wanted}', but the engine "
            f"refused with: {message}"
        ]

    # -- given / expect by the names a designer knows (checked by engine.scenario_check)

    def _player_state(
        self, path: Path, game: Game, rules: Any, spec: Any, index: int, set_state: bool
    ) -> list[str]:
        player = game.players[index]
        problems: list[str] = []
        hooks = getattr(rules, "GIVEN" if set_state else "EXPECT", {}) if rules else {}
        for key, value in spec.items():
            at = _line(spec, key)
            if key == "counters":
                for name, amount in value.items():
                    # A counter the seats of a team share (Game.counter_holder) is the team's.
                    holder = game.counter_holder(player, name)
                    if set_state:
                        game.give_counter(player, name, int(amount))
                    elif holder.counters[name] != int(amount):
                        problems.append(
                            f"{path}:{_line(value, name)}: expected {name} "
                            f"{amount}, got {holder.counters[name]}"
                        )
            elif key == "tracks":
                for name, marked in value.items():
                    if set_state:
                        player.tracks[name].marked = int(marked)
                    elif player.tracks[name].marked != int(marked):
                        problems.append(
                            f"{path}:{_line(value, name)}: expected {marked} boxes "
                            f"marked on {name}, got {player.tracks[name].marked}"
                        )
            elif key == "zones":
                for name, cards in value.items():
                    if set_state:
                        player.zones[name] = (
                            [str(c) for c in cards] if isinstance(cards, list) else []
                        )
                    else:
                        held = player.zones[name]
                        ok = (
                            len(held) == cards
                            if isinstance(cards, int)
                            else sorted(held) == sorted(str(c) for c in cards)
                        )
                        if not ok:
                            problems.append(
                                f"{path}:{_line(value, name)}: expected {name} {cards}, got {held}"
                            )
            elif set_state:
                _hook(path, at, "GIVEN", key, hooks, game, player, _plain(value))
            else:
                try:
                    got = _hook(path, at, "EXPECT", key, hooks, game, player)
                except ScenarioError as error:  # the other expectations are still checked
                    problems.append(str(error))
                    continue
                if not _same(got, _plain(value)):
                    problems.append(f"{path}:{at}: expected {key} {value}, got {_shown(got)}")
        return problems

    def _apply(self, path: Path, game: Game, rules: Any, given: Any) -> None:
        hooks = getattr(rules, "GIVEN", {}) if rules else {}
        for key, value in given.items():
            if key == "round":
                game.round = int(value)
            elif key == "player":
                self._player_state(path, game, rules, value, 0, True)
            elif key == "players":
                for index, spec in enumerate(value):
                    self._player_state(path, game, rules, spec, index, True)
            else:
                _hook(path, _line(given, key), "GIVEN", key, hooks, game, None, _plain(value))

    def _check(
        self,
        path: Path,
        game: Game,
        rules: Any,
        expect: Any,
        last: Context | None,
        events: list[tuple[Any, ...]],
    ) -> list[str]:
        """Every expectation of ``expect`` that does not hold (each is checked, whatever
        else fails); ``events`` are the ones in scope (a step's own, or the whole game's)."""
        problems: list[str] = []
        hooks = getattr(rules, "EXPECT", {}) if rules else {}
        happened = [describe_event(e) for e in events]
        for key, value in expect.items():
            at = _line(expect, key)
            if key == "round":
                if game.round != int(value):
                    problems.append(f"{path}:{at}: expected round {value}, got {game.round}")
            elif key == "player":
                problems += self._player_state(path, game, rules, value, 0, False)
            elif key == "players":
                for index, spec in enumerate(value):
                    problems += self._player_state(path, game, rules, spec, index, False)
            elif key == "quantities":
                got = dict(last.q) if last is not None else {}
                for name, amount in value.items():
                    if name not in got:
                        problems.append(
                            f"{path}:{_line(value, name)}: the step has no quantity "
                            f"'{name}'{_suggest(name, got)}"
                        )
                    elif got[name] != int(amount):
                        problems.append(
                            f"{path}:{_line(value, name)}: expected {name} {amount}"
                            f", got {got[name]}"
                        )
            elif key in ("events", "no_events"):
                for index, pattern in enumerate(value):
                    found = any(event_matches(str(pattern), text) for text in happened)
                    if found != (key == "events"):
                        verb = "did not happen" if key == "events" else "happened"
                        problems.append(f"{path}:{_line(value, index)}: '{pattern}' {verb}")
            elif key == "events_in_order":
                problems += _in_order(path, value, happened)
            elif key == "events_exactly":
                wanted = [str(v) for v in value]
                if wanted != happened:
                    problems.append(
                        f"{path}:{at}: expected exactly these events:\n    "
                        + "\n    ".join(wanted or ["(none)"])
                        + "\n  got:\n    "
                        + "\n    ".join(happened or ["(none)"])
                    )
            elif key in ("refused", "error"):
                continue
            else:
                try:
                    got = _hook(path, at, "EXPECT", key, hooks, game, None)
                except ScenarioError as error:  # the other expectations are still checked
                    problems.append(str(error))
                    continue
                if not _same(got, _plain(value)):
                    problems.append(f"{path}:{at}: expected {key} {value}, got {_shown(got)}")
        return problems

    def _recent(self, game: Game) -> str:
        tail = [describe_event(e) for e in game.events[-8:]]
        return (
            ("\n  last events:\n    " + "\n    ".join(tail)) if tail else "\n  (no events happened)"
        )

    def _step(self, path: Path, game: Game, rules: Any, step: Any, line: int) -> Context | None:
        try:
            return self._do_step(game, rules, step)
        except GameEnded as ended:
            # ``end_game "reason"`` (or an ``end when`` that held) ends the game: the step ran
            # to its end and refused nothing. The game keeps the reason, as its flow would;
            # a scenario sees the ending in its events (``end_game player 1 REASON``).
            if hasattr(game, "reason"):
                game.reason = ended.reason
            return None

    def _do_step(self, game: Game, rules: Any, step: Any) -> Context | None:
        player = game.players[int(step.get("player", 1)) - 1]
        event = _plain(step.get("event") or {})
        given = {str(k): int(v) for k, v in (step.get("quantities") or {}).items()}
        if "run" in step or "fire" in step:
            card, _, trigger = str(step.get("run") or "").partition(".")
            trigger = trigger if "run" in step else str(step["fire"])
            # Every quantity the trigger declares starts at 0, as a plain 'fire TRIGGER' of the
            # flow starts it, unless the step gives it: a card reading one the step left out
            # ('add heroism_difficulty 1') met no quantity at all, an internal KeyError.
            declared = game.ir["vocabulary"]["triggers"].get(trigger) or {}
            quantities = {**dict.fromkeys(declared.get("quantities") or (), 0), **given}
            if "run" in step:
                return game.run(card, trigger, player, event=event, quantities=quantities)
            return game.fire(trigger, player, event=event, quantities=quantities)
        actions = scenario_actions(rules, game.ir)
        result = actions[str(step["action"])](game, player, **_plain(step.get("args") or {}))
        return result if isinstance(result, Context) else None


def _refusal(expect: Any) -> str | None:
    """The refusal an ``expect`` mapping waits for (``refused``, or its older name ``error``)."""
    if not isinstance(expect, dict):
        return None
    value = expect.get("refused", expect.get("error"))
    return None if value is None else str(value)


def _internal(error: RuleError) -> bool:
    """True when the error is a failure of Python code (a TypeError inside a flow), not a
    rule refusing: only a refusal the engine raises on purpose may be expected."""
    return bool(getattr(error, "internal", False))


def event_matches(pattern: str, text: str) -> bool:
    """True when the event line ``text`` is ``pattern`` or starts with its words: whole words
    only, so ``defeated player 1`` never matches ``undefeated player 1 ...``."""
    return text == pattern or text.startswith(pattern + " ")


def _in_order(path: Path, patterns: Any, happened: list[str]) -> list[str]:
    """``events_in_order``: each pattern matches an event after the one the previous matched."""
    position = 0
    for index, pattern in enumerate(patterns):
        for offset, text in enumerate(happened[position:]):
            if event_matches(str(pattern), text):
                position += offset + 1
                break
        else:
            before = "" if index == 0 else f" after '{patterns[index - 1]}'"
            earlier = any(event_matches(str(pattern), t) for t in happened[:position])
            why = " (it happened, but earlier)" if earlier else ""
            return [f"{path}:{_line(patterns, index)}: '{pattern}' did not happen{before}{why}"]
    return []


def describe_event(event: tuple[Any, ...]) -> str:
    """An engine event as a line of words: ``mark player 1 health 1``."""
    parts = []
    for index, part in enumerate(event):
        if index == 1 and isinstance(part, int) and event[0] not in ("die",):
            parts.append(f"player {part + 1}")
        else:
            parts.append(json.dumps(part) if isinstance(part, (dict, list)) else str(part))
    return " ".join(parts)


#: What a scenario file's name ends in: both YAML spellings, as cardc's pytest plugin collects.
SCENARIO_SUFFIXES = (".yaml", ".yml")


def scenario_files(paths: list[Path]) -> list[Path]:
    """Every scenario file under ``paths``, sorted."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(p for p in path.rglob("*") if p.suffix in SCENARIO_SUFFIXES and p.is_file())
            )
        else:
            files.append(path)
    return files
