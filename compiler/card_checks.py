"""A game's own checks of its card data, run by ``cardc check``: ``CARD_CHECKS`` in natives.py.

The checker knows a property's DSL type (a string, a list of names), not what the game's Python
makes of it: Land vs Sea reads ``face_a "LLLSSS"`` as six land or sea edges. Without these
checks a face of five letters checks and builds, and fails the first simulated game that draws
the tile. ``CARD_CHECKS = {kind: check}`` (:mod:`engine.api`) runs ``check(card, cards)`` on each
card of that kind (``check(card, cards, vocabulary)`` when it takes the game's declarations
too); a :class:`engine.api.CardError` it raises, or each of those it returns (every problem of
the card), is an error at the property it names (in the card file, or the variant's YAML that
set it).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from compiler.project import display_path
from dsl.diagnostics import Diagnostic, file_span
from dsl.nodes import Declaration, Property, SourceFile, Span

CODE = "card-data"


def _declarations(parsed: Iterable[SourceFile]) -> dict[str, Declaration]:
    """The parsed declarations by the ``file:line`` the IR's ``source`` gives a card."""
    return {
        f"{decl.span.file}:{decl.span.line}": decl
        for source in parsed
        for decl in source.declarations
    }


def _span(decl: Declaration | None, prop: str | tuple[str, ...] | None, source: str) -> Span:
    """Where to show a problem: the property's line (the variant's, when it set it), else the
    card's head, else the file the IR names. A problem of two properties together (a tuple:
    a player count on both sides of a scoring aid) is shown at the first of them a variant set,
    the line that made it, else at the first the card has."""
    if decl is not None:
        from engine.api import names_in

        names = names_in(prop)
        members = [
            member
            for name in names
            for member in decl.body
            if isinstance(member, Property) and member.name == name
        ]
        for member in members:
            if member.span.file.endswith((".yaml", ".yml")):
                return member.span
        if members:
            return members[0].span
        return decl.span
    return file_span(source.rsplit(":", 1)[0] or source)


def _param_span(parsed: Iterable[SourceFile], param: str) -> Span | None:
    """Where a variant set the game's parameter ``param`` (its ``params:`` entry, whose span
    compiler.variants gives the game's ``param`` line), or None when game.cards sets it: a
    card the game's own files hold is then the one to show (the Campsite one too many)."""
    for source in parsed:
        for decl in source.declarations:
            if decl.kind != "game":
                continue
            for member in decl.body:
                if isinstance(member, Property) and member.name == "param":
                    words = [w for clause in member.args for w in clause]
                    if words and getattr(words[0], "id", None) == param:
                        span = words[-1].span if len(words) > 1 else member.span
                        return span if span.file.endswith((".yaml", ".yml")) else None
    return None


def _takes_vocabulary(check: Any) -> bool:
    """Whether a card check takes a third argument, the game's vocabulary (engine.api)."""
    try:
        params = list(inspect.signature(check).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature: the two-argument form
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


def check_cards(
    rules: Any,
    ir: Mapping[str, Any],
    parsed: Iterable[SourceFile],
    diagnostics: list[Diagnostic],
    removed: Mapping[str, Span] | None = None,
) -> None:
    """Run the game module's ``CARD_CHECKS`` over the IR's cards; each problem a diagnostic.
    ``removed``: the kinds of card a variant removes some of, at its ``remove:`` entry, where
    a problem of a kind's number (a ``CardError`` with ``kind``) is shown."""
    from engine.api import CardError, names_in
    from engine.runtime import RuleError

    checks = getattr(rules, "CARD_CHECKS", None) if rules is not None else None
    if not checks:
        return
    where = str(display_path(Path(rules.__file__))) if getattr(rules, "__file__", None) else ""
    kinds = set(ir.get("vocabulary", {}).get("kinds", {}))
    if not isinstance(checks, Mapping) or not all(callable(fn) for fn in checks.values()):
        diagnostics.append(
            Diagnostic(
                CODE,
                "CARD_CHECKS is a dict of a kind's name to a function check(card, cards)",
                file_span(where),
                "error",
                ('write: CARD_CHECKS = {"hex_tile": check_hex_tile}',),
                show_source=False,
            )
        )
        return
    for kind in checks:
        if kinds and kind not in kinds:
            diagnostics.append(
                Diagnostic(
                    CODE,
                    f"CARD_CHECKS names '{kind}', which is not a kind of card this game declares",
                    file_span(where),
                    "error",
                    ("kinds: " + ", ".join(sorted(kinds)),),
                    show_source=False,
                )
            )
    cards = {str(card["id"]): card for card in ir.get("cards", [])}
    vocabulary = ir.get("vocabulary", {})
    declarations: dict[str, Declaration] | None = None
    for card in cards.values():
        check = checks.get(card["kind"])
        if check is None:
            continue
        problems: list[
            tuple[
                str | tuple[str, ...] | None,
                str,
                str | None,
                str | tuple[str, ...] | None,
                str | None,
            ]
        ] = []
        try:
            # Raising one CardError, or returning every problem of the card as CardErrors.
            if _takes_vocabulary(check):
                returned = check(card, cards, vocabulary)
            else:
                returned = check(card, cards)
            for error in returned or ():
                if not isinstance(error, CardError):
                    raise TypeError(f"it returned {error!r}, not a CardError")
                problems.append((error.prop, error.detail, error.hint, error.param, error.kind))
        except CardError as error:
            problems.append((error.prop, error.detail, error.hint, error.param, error.kind))
        except RuleError as error:
            problems.append((None, str(error), None, None, None))
        except Exception as error:  # a bug in the game's check, shown without a traceback
            detail = f"{where}: CARD_CHECKS['{card['kind']}'] failed on it: "
            detail += f"{type(error).__name__}: {error}"
            problems.append((None, detail, "fix the check in the game's Python", None, None))
        if not problems:
            continue
        if declarations is None:
            declarations = _declarations(parsed)
        source = str(card.get("source", ""))
        for prop, detail, hint, param, kind in problems:
            # The line that made the game short: the variant's removal of cards of the kind,
            # else the variant's change of the parameter, else the card (game.cards' own).
            span = (removed or {}).get(kind) if kind is not None else None
            for name in names_in(param):
                # Two parameters together (Crew Cabins and a die's sides): at the first of
                # them the variant set.
                span = span or _param_span(parsed, name)
            # Shown at the card, the problem is the card's ("Sea Serpent: ..."); shown at the
            # variant's removal or parameter, it is the game's: a card's title before it named
            # whichever card was checked first ("Trading Post: setup places 4 Locations ...",
            # at a `remove:` that did not name it).
            said = detail if span is not None else f"{card.get('title', card['id'])}: {detail}"
            diagnostics.append(
                Diagnostic(
                    CODE,
                    said,
                    span or _span(declarations.get(source), prop, source),
                    "error",
                    (hint,) if hint else (),
                )
            )


DECK_CODE = "deck-undefined"


def _statements(node: Any) -> Iterable[dict[str, Any]]:
    """Every statement (and expression) of an IR body, nested ones too."""
    if isinstance(node, list):
        for item in node:
            yield from _statements(item)
    elif isinstance(node, dict):
        yield node
        for value in node.values():
            if isinstance(value, (dict, list)):
                yield from _statements(value)


def _placed(node: Any, at: list[int]) -> Iterable[tuple[dict[str, Any], list[int]]]:
    """Every statement and expression of an IR body with the position of the statement it
    is in (an expression's IR carries none: a call is placed at its statement)."""
    if isinstance(node, list):
        for item in node:
            yield from _placed(item, at)
    elif isinstance(node, dict):
        at = list(node.get("at") or at)
        yield node, at
        for value in node.values():
            if isinstance(value, (dict, list)):
                yield from _placed(value, at)


def _zone_of(stmt: dict[str, Any]) -> str | None:
    args = stmt.get("args") or []
    first = args[0] if args else None
    if isinstance(first, dict) and first.get("kind") == "ref" and first.get("to") == "zone":
        return str(first.get("name"))
    return None


#: The origin of the markets module's statements in the IR.
MARKETS = "stdlib.markets"
#: The library modules whose natives and verbs read a player's own zones.
PLAYER_ZONES = ("stdlib.decks", "stdlib.zones")
MARKET_ZONE_CODE = "market-zone"


def check_decks(rules: Any, ir: Mapping[str, Any], diagnostics: list[Diagnostic]) -> None:
    """``draw ZONE`` (and the markets module's ``refill_market ZONE``) takes from the deck of
    that zone, which a flow's ``build_deck ZONE`` (or ``stock_market ZONE KIND``) makes or the
    game's Python keeps (``board["deck:ZONE"]``, named in natives.py's ``DECKS``). A
    draw from a zone nothing builds a deck for checked and built, then stopped the first game
    that ran it (Uncharted Passage's missions: "New Orders: draw a mission"); it is an error at
    the draw."""
    bodies: list[tuple[str, Any]] = []
    for card in ir.get("cards", []):
        source = str(card.get("source", "")).rsplit(":", 1)[0]
        for block in (card.get("triggers") or {}).values():
            bodies.append((source, block.get("body")))
    definitions = ir.get("definitions") or {}
    for definition in [*definitions.get("verbs", []), *definitions.get("functions", [])]:
        bodies.append((str(definition.get("source", "")).rsplit(":", 1)[0], definition))
    for section in (ir.get("flow") or {}).get("sections", []):
        for phase in section.get("phases", []):
            bodies.append((str((phase.get("loc") or {}).get("file", "")), phase.get("body")))
    built = {str(zone) for zone in (getattr(rules, "DECKS", None) or ())}
    draws: list[tuple[str, str, str, list[int]]] = []
    rows: set[str] = set()  # the zones that name a market's face-up row
    reads: list[tuple[str, str, str, list[int]]] = []  # a player's zone read by the library
    for source, body in bodies:
        for node, at in _placed(body, [1, 1]):
            zone = _zone_of(node) if node.get("kind") in ("verb", "call") else None
            if zone is not None:
                origin, name = node.get("origin"), node.get("verb") or node.get("native")
                if origin == MARKETS and name != "stock_market":
                    rows.add(zone)
                elif origin in PLAYER_ZONES:
                    reads.append((source, str(name), zone, at))
        for stmt in _statements(body):
            if stmt.get("kind") != "verb":
                continue
            zone = _zone_of(stmt)
            if zone is None:
                continue
            which = (stmt.get("origin"), stmt.get("verb"))
            if which in (("prelude", "build_deck"), (MARKETS, "stock_market")):
                built.add(zone)
            elif which in (("prelude", "draw"), (MARKETS, "refill_market")):
                draws.append((source, str(which[1]), zone, list(stmt.get("at") or [1, 1])))
    for source, name, zone, (line, column) in reads:
        if zone not in rows:
            continue
        # `is_empty(shop)` of a market: the player's zone 'shop' a market never fills (its
        # row is market_cards(shop), its deck the board's), so it is always true, and Bazaar's
        # end condition 'the market has run out' ended the game after its first phase.
        diagnostics.append(
            Diagnostic(
                MARKET_ZONE_CODE,
                f"'{name}' works on the player's own zone '{zone}', but '{zone}' is a market: "
                f"its cards lie face up in the market's row, never in a player's zone",
                Span(source, line, column, line, column + len(name)),
                "warning",
                (
                    f"ask the market: market_cards({zone}) (its row), in_market({zone}, CARD); "
                    f"or give the player's zone a name of its own",
                ),
            )
        )
    for source, verb, zone, (line, column) in draws:
        if zone in built:
            continue
        if verb == "refill_market":
            # A market's deck is its own cards, rarely every card with copies (build_deck's).
            hint = (
                f"stock its deck in the flow's setup from the kind of card it sells "
                f"(stock_market {zone} KIND), or build_deck {zone} for every card with copies"
            )
        else:
            hint = f"build it in the flow's setup (build_deck {zone})"
        diagnostics.append(
            Diagnostic(
                DECK_CODE,
                f"'{verb} {zone}' takes from a deck of {zone}, and nothing in this game builds one",
                Span(source, line, column, line, column + len(verb)),
                "error",
                (
                    f"{hint}; a deck the game's Python keeps in board['deck:{zone}'] is named "
                    f"in natives.py: DECKS = ('{zone}',)",
                ),
            )
        )
