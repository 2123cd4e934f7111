"""How much one game may repeat, roll and lay out in all: a card file cannot make cardc hang
(README, "Untrusted input"). Apart from the runtime so the checker can hold a literal count to
it at ``cardc check`` without importing the engine."""

from __future__ import annotations

#: ``repeat``'s times, dice rolled, a range's numbers and the cells of a hex ring or area, in
#: all, in one game (:meth:`engine.runtime.Game.spend`): a card's ``repeat 100000000000`` or
#: ``score 100000000000d6`` is a rule error at its line, not hours of work. A game of any of
#: the four shipped games spends a few hundred at most (tests/test_work_budget.py).
WORK_BUDGET = 1_000_000
