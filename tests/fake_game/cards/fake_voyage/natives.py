"""Fake Voyage: a small game flow with the contract the simulator expects of a game module.

``GAME_CLASS.play() -> result`` (scores, team_score, titles, sunk, winner, logbook) and
``POLICIES = {"random": factory, "greedy": factory}``. Found by path beside the fake
project's cards (``tests/fake_game/cards/fake_voyage/``), it stands in for a real flow: twelve
months of choosing an allocation, a seeded pirate, sailing, and docking through the fixture's
handler table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.runtime import Context, Game, Policy, Question, RandomLegal

#: Allocations (sailing speed, crew stamina, armament) a captain may write.
ALLOCATIONS = ("3 3 3", "4 2 3", "2 2 5", "5 3 1", "1 1 1")

SOLO_TITLES = ((30, "Hapless Explorer"), (40, "Mediocre Explorer"), (10**9, "Legendary Explorer"))
COOP_TITLES = ((70, "Hapless Explorers"), (10**9, "Legendary Explorers"))


@dataclass
class Result:
    """The result of one game, as the simulator reads it."""

    scores: list[int]
    team_score: int | None
    titles: list[str]
    sunk: list[bool]
    winner: int | None
    logbook: list[list[dict[str, Any]]]


def _title(score: int, bands: tuple[tuple[int, str], ...]) -> str:
    return next(name for top, name in bands if score <= top)


class FakeVoyage(Game):
    """Twelve months; a ship whose durability or health track fills sinks and scores 0."""

    def on_track_full(self, player: Any, track: str) -> None:
        """A full track sinks the ship."""
        player.flags["sunk"] = track

    def play(self) -> Result:
        """Play twelve months (fewer if a ship sinks) and score the game."""
        logbook: list[list[dict[str, Any]]] = [[] for _ in self.players]
        for month in range(1, int(self.params["rounds"]) + 1):
            voyage = ("calm_seas", "storm")[self.rng.randrange(2)]
            pirate = self.roll(2, 6) // 2
            for player in self.players:
                if player.flags.get("sunk"):
                    continue
                question = Question(f"allocate.{month}", player.index, "allocate", ALLOCATIONS)
                speed, stamina, armament = map(int, self.ask(player, question).split())
                c = Context(player, "harbour", "month")
                start = player.flags.get("position", "Lisbon")
                destination = f"port {self.die(6)}" if speed > 1 else start
                health_before = player.tracks["health"].marked
                damage = max(pirate - armament, 0)
                self.mark(c, "durability", damage)
                scurvy = max(speed - stamina, 0)
                self.mark(c, "health", scurvy)
                player.flags["position"] = destination
                self.run("harbour", "dock", player, event={"distance": speed})
                logbook[player.index].append(
                    {
                        "month": month,
                        "voyage": voyage,
                        "sailing_speed": speed,
                        "crew_stamina": stamina,
                        "armament": armament,
                        "pirate_power": pirate,
                        "start": start,
                        "destination": destination,
                        "distance": speed,
                        "prestige_total": player.counters["prestige"],
                        "damage": damage,
                        "scurvy": player.tracks["health"].marked - health_before,
                        "note": "ship sank" if player.flags.get("sunk") else "",
                    }
                )
            if self.mode == "coop" and any(p.flags.get("sunk") for p in self.players):
                break
        sunk = [bool(p.flags.get("sunk")) for p in self.players]
        scores = [
            0 if s else p.counters["prestige"] for p, s in zip(self.players, sunk, strict=True)
        ]
        team = None
        if self.mode == "coop":
            team = 0 if any(sunk) else sum(scores)
            titles = [_title(team, COOP_TITLES)] * len(scores)
        else:
            titles = [
                "" if s else _title(x, SOLO_TITLES) for x, s in zip(scores, sunk, strict=True)
            ]
        winner = None
        if self.mode == "competitive" and scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
        return Result(scores, team, titles, sunk, winner, logbook)


class Greedy(Policy):
    """Always the balanced allocation."""

    def decide(self, game: Game, question: Question) -> str:
        """The first allocation."""
        return question.options[0]


GAME_CLASS = FakeVoyage
POLICIES = {
    "random": lambda game, index: RandomLegal(),
    "greedy": lambda game, index: Greedy(),
}
