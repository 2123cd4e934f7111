"""Uncharted Passage's cards, run through the real pipeline against the rulebook.

Each test loads ``generated/uncharted_passage/`` (run ``cardc build`` first) with
``engine.loader.new_game``, so the handlers under test are the ones ``cardc`` generated from
``cards/uncharted_passage/*.cards`` and the natives, verbs and flow are
``cards/uncharted_passage/natives.py``. Dice and decisions are always scripted: a roll or a question
the script does not expect fails the test, and so does a scripted answer left unused. Quoted
sentences are from the rulebook (``uncharted-passage-remastered.txt``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.loader import new_game, rules_module
from engine.runtime import Context, IllegalDecision, Player, RuleError, Scripted

#: Uncharted Passage's own Python (cards/uncharted_passage/natives.py and its siblings), the very
#: module the engine binds when it loads generated/uncharted_passage.
UP_NATIVES = rules_module("uncharted_passage", Path(__file__).resolve().parent.parent)
EXPECT = UP_NATIVES.EXPECT
GIVEN = UP_NATIVES.GIVEN
UnchartedPassage = UP_NATIVES.game.UnchartedPassage

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "uncharted_passage"


def game(
    *answers: tuple[str | None, str], dice: tuple[int, ...] = (), players: int = 1, **state: Any
) -> UnchartedPassage:
    """A fresh game with scripted decisions and dice; ``state`` goes through the GIVEN hooks."""
    g = new_game(GENERATED, players=players, policies={-1: Scripted(answers)})
    assert isinstance(g, UnchartedPassage)
    g.scripted_dice = list(dice)
    for name, value in state.items():
        GIVEN[name](g, None, value)
    return g


def me(g: UnchartedPassage) -> Player:
    """The solo player."""
    return g.players[0]


def hold(g: UnchartedPassage, *port_cards: str) -> None:
    """The solo player holds these Port Cards face-up."""
    me(g).zones["port_cards"] = list(port_cards)


def expect(g: UnchartedPassage, name: str) -> Any:
    """The solo player's state by the name a scenario uses."""
    return EXPECT[name](g, None)


def script_used(g: UnchartedPassage) -> bool:
    """Every scripted die rolled and every scripted answer asked for."""
    policy = g.policies[-1]
    assert isinstance(policy, Scripted)
    return g.scripted_dice == [] and policy.used == len(policy.answers)


def stars(g: UnchartedPassage, mission: str) -> int:
    """The stars printed in a mission's reward (the card data, provisional or not)."""
    reward = g.cards[mission]["properties"]["reward"]
    return sum(int(amount) for name, amount in reward if name == "stars")


def test_the_game_class_is_bound() -> None:
    g = game()
    assert type(g) is UnchartedPassage
    assert set(g.natives) >= {"in_pirate_infested_area", "region_of", "difference"}
    assert set(g.verbs) >= {"raid", "accomplish"}
    # The Scurvy Check is the DSL's (flow.cards), compiled into the generated module.
    assert "scurvy_check" in g.dsl_verbs


# -- Plague: "Immediately mark an X on the Health Track. Using Lime Juice prevents Plague."


def test_plague_marks_health() -> None:
    g = game()
    g.run("plague", "reveal", me(g))
    assert expect(g, "health_marked") == 1
    assert script_used(g)


def test_plague_marks_health_when_lime_juice_is_held_but_declined() -> None:
    g = game(("play.lime_juice", "no"))
    hold(g, "lime_juice")
    g.run("plague", "reveal", me(g))
    assert expect(g, "health_marked") == 1
    assert expect(g, "port_cards") == ["lime_juice"]
    assert script_used(g)


def test_lime_juice_prevents_plague_and_is_discarded() -> None:
    # "Port cards are single-use cards that are discarded immediately after use"
    g = game(("play.lime_juice", "yes"))
    hold(g, "lime_juice")
    g.reveal("plague")
    assert expect(g, "health_marked") == 0
    assert expect(g, "port_cards") == []
    assert g.board["voyage"] == "plague"
    assert script_used(g)


# -- Pirate's Raid: "Immediately roll two dice and apply Ship Damage equal to the difference. If
#    you are not currently in a Pirate Infested Area, ignore the event."


def test_pirates_raid_is_ignored_outside_a_pirate_infested_area() -> None:
    # No dice are scripted: rolling any would fail.
    g = game(in_pirate_infested_area=False)
    g.run("pirates_raid", "reveal", me(g))
    assert expect(g, "durability_marked") == 0
    assert script_used(g)


def test_pirates_raid_is_ignored_where_the_flag_was_never_set() -> None:
    g = game(position="lisbon")
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 0


def test_pirates_raid_damages_by_the_difference_of_two_dice() -> None:
    g = game(dice=(5, 2), in_pirate_infested_area=True)
    g.run("pirates_raid", "reveal", me(g))
    assert expect(g, "durability_marked") == 3
    assert script_used(g)


def test_pirates_raid_reads_the_infested_area_from_the_board() -> None:
    # "The 6 spaces adjacent to a pirate icon are the Pirate Infested Area."
    g = game(dice=(1, 3), position="Cape Verde")
    g.board["pirate_infested_area"] = {"cape_verde"}
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 2


def test_pirates_raid_of_a_double_does_no_damage_and_spends_no_smoke_bomb() -> None:
    g = game(dice=(3, 3), in_pirate_infested_area=True)
    hold(g, "smoke_bomb")
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 0
    assert expect(g, "port_cards") == ["smoke_bomb"]
    assert script_used(g)


def test_smoke_bomb_reduces_the_pirates_raid_by_up_to_2() -> None:
    # Smoke Bomb: "It also can be used to reduce Ship Damage from the Pirate's Raid on the
    # Voyage Card."
    g = game(("smoke_bomb.pirate_raid.use", "yes"), dice=(4, 1), in_pirate_infested_area=True)
    hold(g, "smoke_bomb")
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 1
    assert expect(g, "port_cards") == []
    assert script_used(g)


def test_smoke_bomb_declined_leaves_the_raid_damage() -> None:
    g = game(("smoke_bomb.pirate_raid.use", "no"), dice=(4, 1), in_pirate_infested_area=True)
    hold(g, "smoke_bomb")
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 3
    assert expect(g, "port_cards") == ["smoke_bomb"]


def test_smoke_bomb_never_takes_raid_damage_below_zero() -> None:
    g = game(("smoke_bomb.pirate_raid.use", "yes"), dice=(2, 1), in_pirate_infested_area=True)
    hold(g, "smoke_bomb")
    g.reveal("pirates_raid")
    assert expect(g, "durability_marked") == 0


# -- Pirate phase: "Roll the dice and apply the formula indicated on the voyage card. ... If your
#    Armament is lower than the Pirate's Combat Power, your ship takes damage equal to the
#    difference."


def test_pirate_phase_damages_by_the_difference() -> None:
    # "Normally, you take 3 ship damage": Armament 3 against a Combat Power of 6.
    g = game(dice=(6, 2))
    g.pirate_phase(me(g), "plague", armament=3)
    assert expect(g, "durability_marked") == 3
    assert script_used(g)


def test_rum_and_smoke_bomb_together_in_the_rulebook_example() -> None:
    # "With your Armament at 3, the Pirate's Combat Power is 6. Normally, you take 3 ship damage,
    # but you use Rum to increase your Armament to 4 and Smoke Bomb to reduce Pirate's Combat
    # Power to 4, so you take no damage. Discard Rum and Smoke Bomb."
    g = game(
        ("rum.pirate_combat.use", "yes"),
        ("smoke_bomb.pirate_combat.use", "yes"),
        dice=(6, 2),
    )
    hold(g, "rum", "smoke_bomb")
    combat = g.pirate_phase(me(g), "plague", armament=3)
    assert combat.q == {"armament": 4, "pirate_power": 4}
    assert expect(g, "durability_marked") == 0
    assert expect(g, "port_cards") == []
    assert script_used(g)


def test_two_port_cards_of_the_same_name_answer_once() -> None:
    # "you can't play multiple cards of the same name at the same time to enhance their effects"
    g = game(("smoke_bomb.pirate_combat.use", "yes"), dice=(6, 1))
    hold(g, "smoke_bomb", "smoke_bomb")
    combat = g.pirate_phase(me(g), "plague", armament=1)
    assert combat.q["pirate_power"] == 4
    assert expect(g, "port_cards") == ["smoke_bomb"]
    assert script_used(g)


def test_pirate_phase_uses_the_logbook_armament_by_default() -> None:
    g = game(dice=(5, 1))
    me(g).counters["armament"] = 5
    g.pirate_phase(me(g), "famine")
    assert expect(g, "durability_marked") == 0


def test_highest_formula_keeps_the_higher_die_even_on_a_double() -> None:
    # "Roll two dice, then apply the higher number. If you get the same number, apply that number."
    g = game(dice=(4, 4))
    assert g.pirate_phase(me(g), "plague", armament=6).q["pirate_power"] == 4


def test_highest_or_sum_formula_adds_a_double() -> None:
    # "Roll two dice, and apply the higher number. If you get the same number, add them together."
    g = game(dice=(3, 3, 2, 5))
    assert g.pirate_phase(me(g), "pirates_raid", armament=6).q["pirate_power"] == 6
    assert g.pirate_phase(me(g), "pirates_raid", armament=6).q["pirate_power"] == 5


def test_a_pirate_power_rolled_once_applies_to_both_players() -> None:
    # "The Pirate Combat Strength rolled on the dice applies equally to both players."
    g = game(players=2)
    for player, armament in zip(g.players, (2, 5), strict=True):
        g.pirate_phase(player, "plague", armament=armament, pirate_power=4)
    assert [p.tracks["durability"].marked for p in g.players] == [2, 0]


# -- Anti-Piracy Mission: "Gain prestige whenever your Armament is higher than the Pirate's
#    Combat Power."


@pytest.mark.parametrize(("armament", "gained"), [(5, 1), (3, 0), (2, 0)])
def test_anti_piracy_mission_rewards_only_a_higher_armament(armament: int, gained: int) -> None:
    g = game(dice=(3, 1))
    g.reveal("anti_piracy_mission")
    g.pirate_phase(me(g), "famine", armament=armament)
    assert expect(g, "prestige") == gained


def test_anti_piracy_mission_is_not_in_force_before_it_is_revealed() -> None:
    g = game(dice=(3, 1))
    g.pirate_phase(me(g), "famine", armament=5)
    assert expect(g, "prestige") == 0


def test_anti_piracy_mission_counts_the_armament_after_rum() -> None:
    g = game(("rum.pirate_combat.use", "yes"), dice=(3, 1), mid_event="anti_piracy_mission")
    hold(g, "rum")
    g.pirate_phase(me(g), "famine", armament=3)
    assert expect(g, "prestige") == 1


def test_anti_piracy_handler_compares_its_quantities() -> None:
    g = game()
    g.run(
        "anti_piracy_mission",
        "pirate_resolved",
        me(g),
        quantities={"armament": 4, "pirate_power": 3},
    )
    g.run(
        "anti_piracy_mission",
        "pirate_resolved",
        me(g),
        quantities={"armament": 3, "pirate_power": 4},
    )
    assert expect(g, "prestige") == 1


# -- Reinforced Rope: "You may sail 1 additional space. The extra sailing distance from it does
#    not count toward the Scurvy Check."


def test_reinforced_rope_handler_adds_reach_outside_the_scurvy_check() -> None:
    g = game(("reinforced_rope.sailing.use", "yes"))
    hold(g, "reinforced_rope")
    window = g.run(
        "reinforced_rope", "sailing", me(g), quantities={"reach": 4, "unscurvied_distance": 0}
    )
    assert window.q == {"reach": 5, "unscurvied_distance": 1}
    assert expect(g, "port_cards") == []


def test_reinforced_rope_in_the_rulebook_scurvy_example() -> None:
    # "With your Sailing Speed at 4, you sailed 5 spaces using Reinforced Rope and anchored at a
    # Discovery Spot. Although your Crew Stamina is only 4, you are considered to have sailed
    # only 4 spaces, so no Scurvy occurs."
    g = game(("reinforced_rope.sailing.use", "yes"))
    me(g).counters.update(sailing_speed=4, crew_stamina=4)
    hold(g, "reinforced_rope")
    g.sail(me(g), 5)
    assert (expect(g, "distance_sailed"), expect(g, "excluded_distance")) == (5, 1)
    g.anchor_at_sea(me(g), "discovery spot")
    assert expect(g, "health_marked") == 0
    assert expect(g, "port_cards") == []
    assert script_used(g)


def test_without_reinforced_rope_the_same_voyage_is_out_of_reach() -> None:
    # "Sail ... to a space that is within your Sailing Speed."
    g = game()
    me(g).counters["sailing_speed"] = 4
    with pytest.raises(RuleError, match="cannot sail 5 spaces"):
        g.sail(me(g), 5)


def test_a_voyage_within_the_sailing_speed_leaves_reinforced_rope_unplayed() -> None:
    g = game()
    me(g).counters.update(sailing_speed=4, crew_stamina=3)
    hold(g, "reinforced_rope")
    g.sail(me(g), 4)
    g.anchor_at_sea(me(g), "sea")
    # "If your Crew Stamina is lower, you suffer from Scurvy equal to the difference."
    assert expect(g, "health_marked") == 1
    assert expect(g, "port_cards") == ["reinforced_rope"]
    assert script_used(g)


# -- Scurvy Check: "Compare the total distance sailed this round to the Crew Stamina. If your
#    Crew Stamina is lower, you suffer from Scurvy equal to the difference."


def test_scurvy_check_marks_the_shortfall() -> None:
    g = game(distance_sailed=5)
    me(g).counters["crew_stamina"] = 2
    g.anchor_at_sea(me(g), "sea")
    assert expect(g, "health_marked") == 3


def test_scurvy_check_uses_no_crossed_out_crew_action_space() -> None:
    # "Whenever you mark an X in the declining-health space, you must also mark an X in the
    # topmost unchecked numbered space of the Crew Action reference table. From now on, you
    # can't ... apply the value to Scurvy Check."
    first_declining = min(game().players[0].tracks["health"].boxes["declining_health"])
    g = game(distance_sailed=6, health_marked=first_declining)
    me(g).counters["crew_stamina"] = 6
    g.anchor_at_sea(me(g), "sea")
    assert expect(g, "health_marked") == first_declining + 1


# -- Lime Juice: "When Scurvy occurs, reduce the amount by up to 2."


def test_lime_juice_reduces_scurvy_by_2() -> None:
    g = game(("lime_juice.scurvy.use", "yes"), distance_sailed=6)
    me(g).counters["crew_stamina"] = 3
    hold(g, "lime_juice")
    g.anchor_at_sea(me(g), "sea")
    assert expect(g, "health_marked") == 1
    assert expect(g, "port_cards") == []
    assert script_used(g)


def test_lime_juice_reduces_scurvy_by_up_to_2_never_below_zero() -> None:
    g = game(("lime_juice.scurvy.use", "yes"), distance_sailed=4)
    me(g).counters["crew_stamina"] = 3
    hold(g, "lime_juice")
    g.anchor_at_sea(me(g), "sea")
    assert expect(g, "health_marked") == 0


def test_no_scurvy_opens_no_lime_juice_window() -> None:
    g = game(distance_sailed=2)
    me(g).counters["crew_stamina"] = 3
    hold(g, "lime_juice")
    g.anchor_at_sea(me(g), "sea")
    assert expect(g, "health_marked") == 0
    assert expect(g, "port_cards") == ["lime_juice"]
    assert script_used(g)


def test_lime_juice_handler_reduces_the_scurvy_quantity() -> None:
    g = game(("lime_juice.scurvy.use", "yes"))
    hold(g, "lime_juice")
    assert g.run("lime_juice", "scurvy", me(g), quantities={"scurvy": 3}).q["scurvy"] == 1


# -- Famine: "When docked in a port, you must first make a Scurvy Check as if you were anchored at
#    a Discovery Spot or sea, then perform Crew Actions as normal, using your Crew Stamina."


def test_famine_makes_a_scurvy_check_on_docking() -> None:
    g = game(distance_sailed=5)
    me(g).counters["crew_stamina"] = 3
    g.run("famine", "dock", me(g), event={"port": "lisbon"})
    assert expect(g, "health_marked") == 2


def test_famine_is_in_force_for_its_month_when_docking() -> None:
    g = game(distance_sailed=5)
    me(g).counters["crew_stamina"] = 3
    g.reveal("famine")
    g.dock(me(g), "lisbon")
    assert expect(g, "health_marked") == 2


def test_docking_makes_no_scurvy_check_in_another_month() -> None:
    # "B. If You Anchor at a Place Other Than a Port ... make a Scurvy Check": a port, no check.
    g = game(distance_sailed=5, voyage="plague")
    me(g).counters["crew_stamina"] = 3
    g.dock(me(g), "lisbon")
    assert expect(g, "health_marked") == 0


# -- Rocks: "Immediately mark an X on the Ship Durability Track."


def test_rocks_marks_durability_for_every_player() -> None:
    # 2-player: "The contents of this card apply equally to both players."
    g = game(players=2)
    g.reveal("rocks")
    assert [p.tracks["durability"].marked for p in g.players] == [1, 1]


# -- Before the Cherry Blossoms Fall: "accomplished by entering any East Asian port before
#    Round 6." "Once accomplished, a mission cannot be accomplished again."


@pytest.mark.parametrize("port", ["Hanyang", "Sakai", "Hangzhou"])
def test_cherry_blossoms_accomplished_in_east_asia_before_round_6(port: str) -> None:
    g = game(round=5)
    me(g).zones["missions"] = ["before_the_cherry_blossoms_fall"]
    g.dock(me(g), port)
    assert expect(g, "accomplished") == ["before_the_cherry_blossoms_fall"]
    assert expect(g, "missions") == []
    assert expect(g, "prestige") == stars(g, "before_the_cherry_blossoms_fall")


@pytest.mark.parametrize("round_", [6, 7, 12])
def test_cherry_blossoms_not_accomplished_from_round_6(round_: int) -> None:
    g = game(round=round_)
    me(g).zones["missions"] = ["before_the_cherry_blossoms_fall"]
    g.dock(me(g), "Sakai")
    assert expect(g, "accomplished") == []
    assert expect(g, "prestige") == 0


def test_cherry_blossoms_not_accomplished_outside_east_asia() -> None:
    g = game(round=2, position="lisbon", region="europe")
    me(g).zones["missions"] = ["before_the_cherry_blossoms_fall"]
    g.dock(me(g), "lisbon")
    assert expect(g, "accomplished") == []


def test_cherry_blossoms_not_accomplished_twice() -> None:
    g = game(round=3)
    me(g).zones["missions"] = ["before_the_cherry_blossoms_fall"]
    g.dock(me(g), "Sakai")
    # "Turn the accomplished mission card face down": it answers no trigger any more.
    assert "before_the_cherry_blossoms_fall" not in g.cards_in_force(me(g))
    g.round = 4
    g.dock(me(g), "Hanyang")
    assert expect(g, "prestige") == stars(g, "before_the_cherry_blossoms_fall")
    # Run directly, bypassing what is in force: the verb itself refuses a second time.
    g.run("before_the_cherry_blossoms_fall", "dock", me(g), event={"port": "hangzhou"})
    assert expect(g, "prestige") == stars(g, "before_the_cherry_blossoms_fall")
    assert expect(g, "accomplished") == ["before_the_cherry_blossoms_fall"]


# -- Legend of Kraken: "Gain additional prestige and take Ship Damage equal to the die result."


def test_legend_of_kraken_gains_stars_and_a_die_and_takes_the_die_as_damage() -> None:
    g = game(dice=(3,))
    me(g).zones["missions"] = ["legend_of_kraken"]
    g.anchor_at_sea(me(g), "kraken")
    assert expect(g, "prestige") == stars(g, "legend_of_kraken") + 3
    assert expect(g, "durability_marked") == 3
    assert expect(g, "accomplished") == ["legend_of_kraken"]
    assert script_used(g)


def test_legend_of_kraken_is_not_accomplished_elsewhere_nor_twice() -> None:
    g = game(dice=(2,))
    me(g).zones["missions"] = ["legend_of_kraken"]
    g.anchor_at_sea(me(g), "galapagos")
    assert expect(g, "accomplished") == []
    g.anchor_at_sea(me(g), "kraken")
    g.anchor_at_sea(me(g), "kraken")
    assert expect(g, "prestige") == stars(g, "legend_of_kraken") + 2
    assert expect(g, "durability_marked") == 2
    assert script_used(g)


def test_a_die_and_an_anchor_in_a_reward() -> None:
    # "If a die is depicted, gain additional points equal to the number rolled. Gain 1 Port Card
    # for each anchor icon." No card here prints them yet, so the reward is set in the test.
    g = game(dice=(5,), port_card_pile=["lime_juice", "rum"])
    g.cards["before_the_cherry_blossoms_fall"]["properties"]["reward"] = [
        ["stars", 2],
        ["die"],
        ["port_cards", 1],
    ]
    g.verbs["accomplish"](g, Context(me(g), "", "dock"), "before_the_cherry_blossoms_fall")
    assert expect(g, "prestige") == 7
    assert expect(g, "port_cards") == ["lime_juice"]


# -- Critical damage: "Whenever you mark an X in the critical-damage space, you must abandon one
#    of your specialties or Port Cards. If you are unable to do so, your ship takes one
#    additional damage."


def _before_critical(g: UnchartedPassage) -> int:
    """Mark durability up to the box before the first critical-damage box; return that box."""
    box = min(me(g).tracks["durability"].boxes["critical_damage"])
    GIVEN["durability_marked"](g, None, box - 1)
    return box


def test_critical_damage_abandons_a_port_card() -> None:
    g = game(("critical_damage.abandon", "rum"))
    box = _before_critical(g)
    hold(g, "rum", "lime_juice")
    g.reveal("rocks")
    assert expect(g, "durability_marked") == box
    assert expect(g, "port_cards") == ["lime_juice"]
    assert expect(g, "critical_damage_checked") == 1
    assert script_used(g)


def test_critical_damage_may_abandon_a_specialty() -> None:
    g = game(("critical_damage.abandon", "specialty"))
    _before_critical(g)
    me(g).counters["specialties"] = 2
    hold(g, "rum")
    g.reveal("rocks")
    assert expect(g, "specialties") == 1
    assert expect(g, "port_cards") == ["rum"]


def test_critical_damage_with_nothing_to_abandon_takes_one_more_damage() -> None:
    g = game()
    box = _before_critical(g)
    g.reveal("rocks")
    assert expect(g, "durability_marked") == box + 1
    assert script_used(g)


def test_critical_damage_refuses_a_card_not_held() -> None:
    g = game(("critical_damage.abandon", "smoke_bomb"))
    _before_critical(g)
    hold(g, "rum")
    with pytest.raises(IllegalDecision):
        g.reveal("rocks")


# -- Sinking: "if you check the last space on your Ship Durability Track or Health Track, your
#    ship sinks and the game ends immediately."


def test_marking_the_last_durability_box_sinks_the_ship() -> None:
    g = game()
    GIVEN["durability_marked"](g, None, me(g).tracks["durability"].length - 1)
    assert expect(g, "sunk") is False
    g.reveal("rocks")
    assert expect(g, "sunk") is True
    assert g.board["over"] is True


def test_marking_the_last_health_box_sinks_the_ship() -> None:
    g = game()
    GIVEN["health_marked"](g, None, me(g).tracks["health"].length - 2)
    g.reveal("plague")
    assert expect(g, "sunk") is False
    g.reveal("plague")
    assert expect(g, "sunk") is True


# -- errors name the rule they came from


def test_a_native_raising_inside_a_handler_names_the_dsl_position() -> None:
    g = game(round=2)
    with pytest.raises(RuleError, match=re.escape("cards/uncharted_passage/missions.cards:8:5")):
        g.run("before_the_cherry_blossoms_fall", "dock", me(g), event={"port": "Atlantis"})
    with pytest.raises(RuleError, match="'Atlantis'"):
        g.run("before_the_cherry_blossoms_fall", "dock", me(g), event={"port": "Atlantis"})


def test_a_missing_scripted_die_names_the_dsl_position() -> None:
    g = game(in_pirate_infested_area=True)
    with pytest.raises(RuleError, match=re.escape("cards/uncharted_passage/voyages.cards:25:7")):
        g.reveal("pirates_raid")
