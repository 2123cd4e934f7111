"""The errors of play: a rule that cannot run, the end of a game, an illegal answer, a
scenario's dice that cannot give a roll. :mod:`engine.runtime` re-exports them, where cards,
games and tools have always imported them from."""

from __future__ import annotations


class RuleError(Exception):
    """A rule could not run; the message starts with the DSL position when one is known."""


class GameEnded(RuleError):
    """``end_game "reason"``: the game ends at once. It passes through every handler call
    unchanged (it is no failure to locate) up to the flow, which ends the game with its reason."""

    located = True

    def __init__(self, reason: str):
        super().__init__(f"the game ended: {reason}")
        self.reason = reason


class IllegalDecision(RuleError):
    """A policy answered a question with something that is not one of its legal answers."""


class ScriptedDiceError(RuleError):
    """A scenario's scripted dice cannot give the roll a rule asks for (none is left, or the
    next is a number the die does not have). The scenario's own mistake, not a rule refusing:
    no scenario may expect it as a refusal ("Running out of dice or choices fails at once")."""

    def __init__(self, message: str, sides: int, value: int | None = None) -> None:
        super().__init__(message)
        #: The die rolled, and the scripted number it could not show (None: none was left).
        self.sides = sides
        self.value = value
