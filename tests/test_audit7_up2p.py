"""audit7-up2p: Uncharted Passage's two 2-player modes, checked over played games and on the
game's own state (the rule cases as scenarios are in
tests/scenarios/uncharted_passage/audit7_2p.yaml)."""

from __future__ import annotations

from pathlib import Path

from engine.loader import new_game, rules_module

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "uncharted_passage"
UP = rules_module("uncharted_passage", ROOT)
POLICIES = UP.POLICIES
UnchartedPassage = UP.game.UnchartedPassage


def _played(mode: str, seed: int, policy: str = "greedy") -> UnchartedPassage:
    g = new_game(GENERATED, players=2, seed=seed, mode=mode)
    assert isinstance(g, UnchartedPassage)
    g.policies = {i: POLICIES[policy](g, i) for i in range(2)}
    g.play()
    return g


def test_a_claimed_public_mission_leaves_the_public_missions() -> None:
    # "Public Mission Cards can be claimed by either player; the first player to complete the
    # requirement takes the card. Once claimed, it is no longer available to the other player."
    # (The greedy captains claim some; random ones seldom complete any.)
    claimed = 0
    for seed in range(12):
        g = _played("competitive", seed)
        dealt = [e[2] for e in g.events if e[0] == "accomplish"]
        public_left = set(g.board["public_missions"])
        taken = [m for p in g.players for m in p.zones["accomplished"]]
        assert len(taken) == len(set(taken)), "a mission accomplished twice"
        assert not public_left & set(taken), "a claimed public mission is still public"
        # The 4 public cards are either still public or in one captain's accomplished pile.
        claimed += 4 - len(public_left)
        assert len(dealt) == len(taken)
    assert claimed > 0, "no public mission was claimed in 12 games: the test checks nothing"


def test_co_op_divides_the_12_missions_without_a_redraw() -> None:
    # Co-op: "Randomly draw 3 Route Mission Cards, 4 Trade Mission Cards, and 5 Discovery Mission
    # Cards. Players discuss and divide these 12 cards ... Remove all other mission cards." The
    # competitive redraw ("you may discard 1 mission card and draw a new one") has no pile left.
    g = _played("coop", 3)
    asked = [e for e in g.events if e[0] == "decision" and "missions.redraw" in str(e)]
    split = [e for e in g.events if e[0] == "decision" and "coop.missions" in str(e)]
    assert asked == []
    assert len(split) == 6


def test_the_ships_given_where_they_stand_are_on_their_own_markers() -> None:
    # "The ship marker that was placed in the previous round serves as the starting point for
    # the current round"; "Sail from where you docked in the previous round (Lisbon in the first
    # round)": a ship that has not sailed yet has placed no marker in Lisbon.
    g = new_game(GENERATED, players=2, seed=1, mode="competitive")
    assert isinstance(g, UnchartedPassage)
    chart = UP.world_map.stand_in_chart(g.ir)
    for player in g.players:
        player.flags["position"] = "lisbon"
    g.round = 1
    assert g.markers_under_ships(chart) == {}
    g.round = 5
    assert g.markers_under_ships(chart) == {"lisbon": 2}
    g.players[1].flags["position"] = "calicut"
    assert g.markers_under_ships(chart) == {"lisbon": 1, "calicut": 1}
