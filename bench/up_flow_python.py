"""Uncharted Passage's flow (cards/uncharted_passage/flow.cards) written by hand in Python, over
the game's own module as it is today: kept ONLY for bench/ (bench/sim.py measures it side by
side with the compiled flow). Nothing in cardc imports it.

Why it exists. Issue 11 asks for the DSL flow "no slower than the hand-written flow measured
side by side". ``bench/up_handwritten.py`` is the hand-written module as it stood before
flow.cards replaced it, frozen: it still plays the rules of that day (no stacked Prestige
markers, no anchor spaces reached by a ``lose`` undone, no Ship Damage verb, ...), and every
rule fixed since in ``cards/uncharted_passage/`` made the DSL side do work the frozen side
does not. Measured against it, a rule fix reads as a flow slowdown. This module is the other
control: the same rules, the same natives, the same card handlers, the same map and the same
policy as the compiled game; only what flow.cards says (the setup, the months and their
phases, ``end when``, the final scoring, and the verbs and functions flow.cards defines:
``anchor``, ``scurvy_check``, ``ship_damage``, ``gain_port_card``, ``final_score``) is
Python here, written as a Python programmer writes a game loop: direct method calls, no
lookup tables, a sinking checked where it can happen. bench/sim.py checks that it plays the
very same games as the compiled flow (every event and every result, seed by seed, in each
mode) before it times either; tests/test_bench_handwritten.py checks it too.

It follows flow.cards phase by phase; a change to flow.cards that this module does not follow
makes the check above fail, and the benchmark says so rather than time two different games.
"""

from __future__ import annotations

import types
from typing import Any

from engine import sim
from engine.flow import flow_of
from engine.runtime import Context, GameEnded, Player


def flow_class(rules: Any) -> type:
    """The game class of ``rules`` (the game's natives module, loaded by path) with flow.cards'
    flow written in Python instead of the compiled one."""
    base: Any = rules.GAME_CLASS
    offer_rum, scurvy = rules.offer_rum, rules.scurvy
    scurvy_distance, scurvy_stamina = rules.scurvy_distance, rules.scurvy_stamina
    sailor_points = rules.game.sailor_points

    class HandWrittenFlow(base):  # type: ignore[misc]
        """Uncharted Passage played by a hand-written flow over its own natives."""

        def __post_init__(self) -> None:
            super().__post_init__()
            # The verbs flow.cards defines that the game's Python calls (every Ship Damage,
            # every Port Card gained), as Python.
            self._ship_damage_verb = _ship_damage
            self._port_card_verb = _gain_port_card

        def play(self, c: Context | None = None, card: str | None = None) -> Any:
            """The whole game: setup, the months, the end; the prelude's ``play`` verb
            otherwise (``play(c, card)``, from an effect)."""
            if c is not None and card is not None:
                return super().play(c, card)
            # The result reads the flow's winner, tiebreak and titles (data, not flow).
            self._flow_table = flow_of(self)
            self.playing = True
            try:
                if not self.set_up:
                    self.set_up = True
                    self.before_setup()
                    self.set_up_world_map()
                    self.deal_voyage_pile()
                    self.shuffle_port_cards()
                    self.deal_missions()
                self._months()
                self.reason = "rounds"
            except GameEnded as ended:
                self.reason = ended.reason
            finally:
                self.playing = False
            self.rounds_played = max(self.rounds_played, self.round)
            return self._final_scoring()

        def _months(self) -> None:
            """ "Each round consists of the 1) Planning phase, 2) Pirate phase, 3) Sailing
            phase, and 4) Anchoring phase"; "After the 12th round, the game ends." A ship that
            sinks ends the game after the step it sank in."""
            board = self.board
            players = self.players
            contexts = self._contexts
            first = contexts[0]
            many = len(players) > 1
            cooperative = self.mode == "coop" and many
            mid_event_round = self.params["mid_event_round"]
            limit = self.params["rounds"]
            self.round_count = limit
            month = max(int(self.round), 1)
            while month <= limit:
                self.round = month
                self.begin_month(first)
                if month == mid_event_round:
                    self.reveal_mid_event(first)
                    if board.get("over"):
                        self.end_when_held()
                # Planning
                self.reveal_voyage(first)
                if not board.get("over"):
                    for c in contexts:
                        self.write_numbers(c)
                if board.get("over"):
                    self.end_when_held()
                # Pirate
                self.roll_pirates(first)
                for c in self._turn_order(contexts) if many else contexts:
                    if not c.player.flags.get("sunk"):
                        self.face_pirates(c)
                if board.get("over"):
                    self.end_when_held()
                # Sailing & Anchoring
                for c in self._turn_order(contexts) if many else contexts:
                    if not board.get("over"):
                        self.set_sail(c)
                        self._anchor(c)
                if board.get("over"):
                    self.end_when_held()
                if cooperative:
                    self.share()
                    if board.get("over"):
                        self.end_when_held()
                self.write_logbook(first)
                if board.get("over"):
                    self.end_when_held()
                month += 1

        @staticmethod
        def _turn_order(contexts: list[Context]) -> list[Context]:
            """ "The player with the lower score on the Prestige track goes first. If tied,
            the player whose marker is on top goes first." """
            return sorted(
                contexts,
                key=lambda c: (c.player.counters["prestige"], -int(c.player.flags["arrived"])),
            )

        def _anchor(self, c: Context) -> None:
            """The Anchoring phase: A. docked at a port (Crew Actions), or B. anchored
            anywhere else (the Scurvy Check, then the place's rewards)."""
            self.drop_anchor(c)
            if c.player.flags.get("docked"):
                if not self.board.get("over"):
                    self.crew_actions(c)
                return
            # "Compare the total distance sailed this round to the Crew Stamina. If your Crew
            # Stamina is lower, you suffer from Scurvy equal to the difference." (Rum first.)
            offer_rum(self, c)
            shortfall = scurvy_distance(self, c) - scurvy_stamina(self, c)
            scurvy(self, c, shortfall if shortfall > 0 else 0)
            if not self.board.get("over"):
                self.anchored_elsewhere(c)

        def _final_scoring(self) -> Any:
            """End of the Game: the month a sinking cut short gets its logbook line; each
            captain's final prestige (nothing for a sunk ship); the result."""
            try:
                self.write_logbook(self._contexts[0])
                for c in self._contexts:
                    player = c.player
                    flags = player.flags
                    flags["final_score"] = 0 if flags.get("sunk") else self._final_score(player)
                    flags["final_score_prestige"] = player.counters["prestige"]
            except GameEnded:
                pass
            return self.result()

        def _final_score(self, player: Player) -> int:
            """ "Gain 1 prestige point for each prestige star gained from "Adventures of a
            Sailor" Port Cards. Subtract 1 ... critical-damage space ... Subtract 1 ...
            declining-health space." """
            held = player.zones["port_cards"].count("adventures_of_a_sailor")
            return int(
                player.counters["prestige"]
                + sailor_points(held, self.sailor_points)
                - player.tracks["durability"].checked("critical_damage")
                - player.tracks["health"].checked("declining_health")
            )

    HandWrittenFlow.__name__ = HandWrittenFlow.__qualname__ = "HandWrittenFlow"
    return HandWrittenFlow


def _ship_damage(g: Any, c: Context, amount: int) -> None:
    """Ship Damage: "Mark an X on the Ship Durability Track in the logbook equal to the amount
    of damage"."""
    g.mark(c, "durability", amount)


def _gain_port_card(g: Any, c: Context) -> None:
    """One Port Card from the pile (none when it is used up)."""
    g.draw(c, "port_cards", 1)


def simulator(folder: Any) -> sim.Simulator:
    """An :class:`engine.sim.Simulator` of the compiled game in ``folder`` whose games are
    played by this hand-written flow over the game's own class, natives, verbs, handlers, map
    and policies."""
    simulator = sim.Simulator(folder)
    # The game's natives module as it is, but for its GAME_CLASS: games are made as the
    # compiled flow's are (Simulator.new_game reads GAME_CLASS there).
    rules = types.ModuleType(simulator.rules.__name__)
    rules.__dict__.update(vars(simulator.rules))
    rules.GAME_CLASS = flow_class(simulator.rules)
    simulator.rules = rules
    return simulator
