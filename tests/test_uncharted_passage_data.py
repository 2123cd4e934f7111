"""Uncharted Passage's components and World Map as data, checked against the rulebook.

The data is the IR ``cardc build`` writes from ``cards/uncharted_passage/*.cards``
(``generated/uncharted_passage/cards.json``), read the way the engine reads it: through
``engine.loader.new_game`` for the cards and formulas, through the game's own
``cards/uncharted_passage/map.py`` for the map. Quoted sentences are from the rulebook
(``uncharted-passage-remastered.txt``); what the rulebook does not print must be
``@provisional``.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.hexgrid import adjacent
from engine.loader import new_game, rules_module
from engine.runtime import Context, Scripted

#: Uncharted Passage's own Python (cards/uncharted_passage/natives.py and its siblings), the very
#: module the engine binds when it loads generated/uncharted_passage.
UP_NATIVES = rules_module("uncharted_passage", Path(__file__).resolve().parent.parent)
_MAP = UP_NATIVES.world_map
UnchartedPassage = UP_NATIVES.game.UnchartedPassage
WorldMap = _MAP.WorldMap
from_cards = _MAP.from_cards
load = _MAP.load

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "uncharted_passage"


@cache
def ir() -> dict[str, Any]:
    """The compiled IR of the game."""
    data: dict[str, Any] = json.loads((GENERATED / "cards.json").read_text(encoding="utf-8"))
    return data


def cards(kind: str, tag: str | None = None) -> list[dict[str, Any]]:
    """The IR cards of a kind (and tag)."""
    return [c for c in ir()["cards"] if c["kind"] == kind and (tag is None or tag in c["tags"])]


def card(ident: str) -> dict[str, Any]:
    """One IR card by id."""
    found = [c for c in ir()["cards"] if c["id"] == ident]
    assert len(found) == 1, ident
    return found[0]


def props(ident: str) -> dict[str, Any]:
    """One card's properties."""
    return dict(card(ident)["properties"])


def world() -> WorldMap:
    """The World Map, from the IR."""
    return load(GENERATED)


def game(*answers: tuple[str | None, str], dice: tuple[int, ...] = ()) -> UnchartedPassage:
    """A fresh solo game through the real pipeline, decisions and dice scripted."""
    g = new_game(GENERATED, players=1, policies={-1: Scripted(answers)})
    assert isinstance(g, UnchartedPassage)
    g.scripted_dice = list(dice)
    return g


# -- Contents: "30 Port Cards, 9 First-half Voyage Cards, 5 Mid-event Cards, 9 Second-half
#    Voyage Cards, 9 Route Mission Cards, 12 Trade Mission Cards, 16 Discovery Mission Cards"


def test_thirty_port_cards_of_the_seven_kinds() -> None:
    kinds = {c["title"]: c["properties"]["copies"] for c in cards("port_card")}
    assert set(kinds) == {
        "Reinforced Rope",
        "Lime Juice",
        "Exploration Journal",
        "Adventures of a Sailor",
        "Smoke Bomb",
        "Figurehead",
        "Rum",
    }
    assert sum(kinds.values()) == 30
    assert all(copies >= 1 for copies in kinds.values())


@pytest.mark.parametrize(
    ("kind", "tag", "count"),
    [
        ("voyage", "first_half", 9),
        ("voyage", "second_half", 9),
        ("mid_event", None, 5),
        ("mission", "route", 9),
        ("mission", "trade", 12),
        ("mission", "discovery", 16),
    ],
)
def test_the_contents_counts(kind: str, tag: str | None, count: int) -> None:
    assert len(cards(kind, tag)) == count


def test_every_voyage_card_is_in_one_half_and_every_mission_of_one_type() -> None:
    for voyage in cards("voyage"):
        assert len(set(voyage["tags"]) & {"first_half", "second_half"}) == 1, voyage["id"]
    for mission in cards("mission"):
        assert len(set(mission["tags"]) & {"route", "trade", "discovery"}) == 1, mission["id"]


NAMED = {
    # The port cards the rulebook describes.
    "reinforced_rope": "port_card",
    "lime_juice": "port_card",
    "exploration_journal": "port_card",
    "adventures_of_a_sailor": "port_card",
    "smoke_bomb": "port_card",
    "figurehead": "port_card",
    "rum": "port_card",
    # "Famine", "Pirate's Raid", "Plague", "Rocks".
    "famine": "voyage",
    "pirates_raid": "voyage",
    "plague": "voyage",
    "rocks": "voyage",
    # The Mid-Event Cards section.
    "discover_the_coordinates_of_the_sunken_ship": "mid_event",
    "groceries_in_vogue": "mid_event",
    "household_goods_in_vogue": "mid_event",
    "luxury_goods_in_vogue": "mid_event",
    "anti_piracy_mission": "mid_event",
    # The missions the rulebook names.
    "before_the_cherry_blossoms_fall": "mission",
    "the_northwestern_passage": "mission",
    "conquer_antarctica": "mission",
    "an_ecological_study_of_predators": "mission",
    "a_study_on_pirate_infested_area": "mission",
    "legend_of_kraken": "mission",
    "discover_galapagos_islands": "mission",
}


@pytest.mark.parametrize(("ident", "kind"), sorted(NAMED.items()))
def test_every_named_card_is_present(ident: str, kind: str) -> None:
    assert card(ident)["kind"] == kind


@pytest.mark.parametrize(
    ("ident", "tag"),
    [
        ("before_the_cherry_blossoms_fall", "route"),
        ("the_northwestern_passage", "route"),
        # Listed under "Route Mission" in the rulebook.
        ("conquer_antarctica", "route"),
        ("an_ecological_study_of_predators", "route"),
        ("a_study_on_pirate_infested_area", "route"),
        ("legend_of_kraken", "discovery"),
        ("discover_galapagos_islands", "discovery"),
    ],
)
def test_the_named_missions_are_of_their_type(ident: str, tag: str) -> None:
    assert card(ident)["tags"] == [tag]


# -- Voyage cards


def test_resources_are_a_total_or_one_of_the_two_fixed_triples() -> None:
    # "Some voyage cards have the number of resources indicated as "1 3 5" or "2 4 6"."
    triples = []
    for voyage in cards("voyage"):
        p = voyage["properties"]
        assert ("resources" in p) != ("resource_triple" in p), voyage["id"]
        if "resource_triple" in p:
            triples.append(tuple(p["resource_triple"][0]))
        else:
            # Three numbers of 1 to 6 each: at least 3, at most 18.
            assert 3 <= p["resources"] <= 18
    assert set(triples) == {(1, 3, 5), (2, 4, 6)}


def test_both_pirate_formulas_are_on_the_cards() -> None:
    # "checkmark >= die": the higher die; "checkmark > die, sum of dice": add a double.
    used = Counter(v["formulas"]["pirate"]["expr"]["native"] for v in cards("voyage"))
    assert set(used) == {"highest", "highest_or_sum"}


@pytest.mark.parametrize(
    ("ident", "trigger"),
    [
        ("plague", "reveal"),
        ("pirates_raid", "reveal"),
        ("rocks", "reveal"),
        ("famine", "dock"),
    ],
)
def test_the_four_events_keep_their_handlers(ident: str, trigger: str) -> None:
    assert trigger in card(ident)["triggers"]


@pytest.mark.parametrize(("stamina", "allowed"), [(3, True), (4, False)])
def test_a_number_restraint_is_a_condition_on_the_logbook(stamina: int, allowed: bool) -> None:
    # "Follow any number restraints imposed by events. ex) Crew stamina < 4"
    g = game()
    restrained = [v["id"] for v in cards("voyage") if "restraint" in v["formulas"]]
    assert "weary_crew" in restrained
    g.players[0].counters["crew_stamina"] = stamina
    assert g.formula("weary_crew", "restraint", Context(g.players[0], "weary_crew", "")) is allowed


def test_restraints_name_only_the_three_logbook_numbers() -> None:
    for voyage in cards("voyage"):
        restraint = voyage["formulas"].get("restraint")
        if restraint is not None:
            assert restraint["expr"]["left"]["name"] in {
                "sailing_speed",
                "crew_stamina",
                "armament",
            }


# -- Mid-event cards


@pytest.mark.parametrize(("stamina", "met"), [(4, True), (3, False)])
def test_the_sunken_ship_conditions(stamina: int, met: bool) -> None:
    # "1. Sailing Speed >= 3: at least 3 spaces away from any Port. 2. (Discovery Spot
    # distance) >= 2: at least 2 spaces away from any Discovery Spot. 3. Crew Stamina >= 4."
    sunken = "discover_the_coordinates_of_the_sunken_ship"
    assert props(sunken)["port_distance"] == 3
    assert props(sunken)["discovery_distance"] == 2
    g = game()
    g.players[0].counters["crew_stamina"] = stamina
    assert g.formula(sunken, "requires", Context(g.players[0], sunken, "")) is met


def test_the_sunken_ship_can_be_found_somewhere_on_the_map() -> None:
    m = world()
    found = [
        s.id
        for s in m.spaces.values()
        if s.terrain == "sea"
        and (m.distance_to_nearest(s.id, "port") or 0) >= 3
        and (m.distance_to_nearest(s.id, "discovery") or 0) >= 2
    ]
    assert found


def test_the_three_in_vogue_cards_name_the_three_kinds_of_goods() -> None:
    # "Groceries / Household Goods / Luxury Goods in Vogue - Gain the indicated amount of
    # prestige each time you sell the depicted specialty."
    goods = {
        props(f"{kind}_in_vogue")["goods"]: props(f"{kind}_in_vogue")["sale_value"]
        for kind in ("groceries", "household_goods", "luxury_goods")
    }
    assert set(goods) == {"groceries", "household_goods", "luxury_goods"}
    # Selling gains 1 otherwise ("You immediately gain 1 Prestige for each specialty you sell").
    assert all(value > 1 for value in goods.values())


def test_every_kind_of_goods_is_sold_somewhere() -> None:
    sold = {props(s.specialty)["goods"] for s in world().ports() if s.specialty}
    assert sold == {"groceries", "household_goods", "luxury_goods"}


# -- Port cards


def test_only_adventures_of_a_sailor_is_kept_after_use() -> None:
    # "Port cards are single-use cards that are discarded immediately after use, except for
    # "Adventures of a Sailor"."
    kept = [c["id"] for c in cards("port_card") if c["properties"].get("single_use") is False]
    assert kept == ["adventures_of_a_sailor"]


@pytest.mark.parametrize(("held", "points"), [(1, 1), (3, 3), (4, 5), (5, 7)])
def test_adventures_of_a_sailor_points(held: int, points: int) -> None:
    # "earn 1 point per card for the first 3 cards, and 2 points per card thereafter. Ex) If you
    # have 5 cards, you earn a total of 7 points"
    table = [clause[0] for clause in props("adventures_of_a_sailor")["points_per_card"]]
    assert sum(table[min(i, len(table) - 1)] for i in range(held)) == points


# -- the logbook's tables and tracks


def test_the_crew_action_reference_table() -> None:
    rows = {row[0]: set(row[1:]) for row in props("crew_actions")["rows"]}
    # "6 - both purchasing and selling"; "5 - both ... and gain one Port Card"; "4 - either
    # purchasing or selling ..., and gain one Port Card"; "3 - either purchasing or selling";
    # "2 - Gain one Port Card"; "1 - You can't perform any actions."
    assert rows == {
        6: {"purchase", "sell"},
        5: {"purchase", "sell", "gain_port_card"},
        4: {"purchase_or_sell", "gain_port_card"},
        3: {"purchase_or_sell"},
        2: {"gain_port_card"},
        1: set(),
    }


def title_for(score: int, mode: str) -> str:
    """The title a final score earns, from the title cards."""
    found = [
        c["title"]
        for c in cards("title", mode)
        if c["properties"].get("min_score", score)
        <= score
        <= c["properties"].get("max_score", score)
    ]
    assert len(found) == 1, (score, found)
    return found[0]


@pytest.mark.parametrize(
    ("score", "mode", "title"),
    [
        # "~30: Hapless Explorer; 31-40: Mediocre Explorer; 41-45: Veteran Explorer; 46-50:
        # Historic Explorer; 51 and above: Legendary Explorer"
        (-3, "solo", "Hapless Explorer"),
        (30, "solo", "Hapless Explorer"),
        (31, "solo", "Mediocre Explorer"),
        (40, "solo", "Mediocre Explorer"),
        (41, "solo", "Veteran Explorer"),
        (45, "solo", "Veteran Explorer"),
        (46, "solo", "Historic Explorer"),
        (50, "solo", "Historic Explorer"),
        (51, "solo", "Legendary Explorer"),
        (90, "solo", "Legendary Explorer"),
        # "~70: Hapless Explorers; 71-80: Mediocre Explorers; 81-90: Veteran Explorers; 91-100:
        # Historic Explorers; 101+: Legendary Explorers"
        (70, "coop", "Hapless Explorers"),
        (71, "coop", "Mediocre Explorers"),
        (80, "coop", "Mediocre Explorers"),
        (81, "coop", "Veteran Explorers"),
        (91, "coop", "Historic Explorers"),
        (100, "coop", "Historic Explorers"),
        (101, "coop", "Legendary Explorers"),
    ],
)
def test_title_bands(score: int, mode: str, title: str) -> None:
    assert title_for(score, mode) == title


def test_the_prestige_track_has_anchor_spaces_on_it() -> None:
    # "When you reach a space with the anchor icon on the Prestige Track, you get one Port Card"
    track = props("prestige_track")
    anchors = [clause[0] for clause in track["anchor_spaces"]]
    assert anchors == sorted(set(anchors))
    assert all(1 <= a < track["spaces"] for a in anchors)


def test_the_durability_and_health_tracks_have_their_special_boxes() -> None:
    # "Whenever you mark an X in the critical-damage space"; "Whenever you mark an X in the
    # declining-health space"
    tracks = ir()["vocabulary"]["tracks"]
    assert tracks["durability"]["boxes"]["critical_damage"]
    assert tracks["health"]["boxes"]["declining_health"]
    for name in ("durability", "health"):
        assert max(p for ps in tracks[name]["boxes"].values() for p in ps) < tracks[name]["length"]


# -- missions: targets that exist on the map


def test_mission_targets_are_on_the_map() -> None:
    m = world()
    regions = {s.region for s in m.ports()}
    specialties = {s.specialty for s in m.ports()}
    for mission in cards("mission"):
        p = mission["properties"]
        for clause in p.get("regions", ()):
            assert clause[0] in regions, mission["id"]
        for clause in [*p.get("spots", ()), *([[p["spot"]]] if "spot" in p else [])]:
            assert m.space(clause[0]).is_discovery_spot, mission["id"]
        if "trade" in mission["tags"]:
            assert p["deliver"] in specialties, mission["id"]
            to = p["to"]
            assert to in regions or m.space(to).is_port, mission["id"]
            # A delivery to where the goods are sold would be no trade.
            sellers = {s.id for s in m.ports() if s.specialty == p["deliver"]}
            assert to not in sellers and not {m.region_of(s) for s in sellers} & {to}


def test_every_discovery_mission_has_its_own_spot() -> None:
    spots = [c["properties"]["spot"] for c in cards("mission", "discovery")]
    assert len(set(spots)) == 16


def test_there_are_four_pirate_infested_areas_to_study() -> None:
    # "A Study on Pirate Infested Area" is accomplished by anchoring at 4 different Pirate
    # Infested Areas.
    assert props("a_study_on_pirate_infested_area")["infested_areas"] == 4
    assert len(world().pirates()) >= 4


# -- the World Map


def test_the_game_begins_in_lisbon() -> None:
    # "The game always begins in Lisbon."
    assert world().start == "lisbon"
    assert world().space("lisbon").is_port


def test_lisbon_to_sierra_leone_needs_a_sailing_speed_of_3() -> None:
    # "To get from Lisbon to Sierra Leone, you need a sailing speed of 3."
    m = world()
    assert m.distance("lisbon", "sierra_leone") == 3
    assert "sierra_leone" not in m.reachable("lisbon", 2)
    assert m.reachable("lisbon", 3)["sierra_leone"] == 3


def test_staying_in_place_is_within_any_sailing_speed() -> None:
    # "You can stay in place without sailing."
    assert world().reachable("lisbon", 1)["lisbon"] == 0


def test_the_east_asian_ports() -> None:
    # "When you dock at a port in East Asia (Hanyang, Sakai, or Hangzhou)"; "you gain 2 prestige
    # points and an additional amount of prestige equal to the number rolled on a die"
    m = world()
    assert {s.id for s in m.ports_in("east_asia")} == {"hanyang", "sakai", "hangzhou"}
    assert all(m.space(p).stars == 2 for p in ("hanyang", "sakai", "hangzhou"))


def test_every_port_shows_stars_a_specialty_and_a_region() -> None:
    # "A port space shows: 1) Port icon, 2) Prestige points, 3) Port name, 4) Specialties."
    for port in world().ports():
        assert port.stars is not None and port.stars >= 1, port.id
        assert card(port.specialty or "")["kind"] == "specialty", port.id
        assert port.region in ir()["vocabulary"]["symbols"], port.id


def test_the_antarctica_discovery_spots() -> None:
    m = world()
    spots = [clause[0] for clause in props("conquer_antarctica")["spots"]]
    assert len(spots) >= 2
    southmost = max(s.cell.r for s in m.spaces.values())
    for spot in spots:
        assert m.space(spot).is_discovery_spot
        # Antarctica is the map's south: the spots are on its last two rows.
        assert m.space(spot).cell.r >= southmost - 1
        assert m.distance("lisbon", spot) is not None


def test_the_northwestern_passage_is_a_route_through_the_arctic() -> None:
    # "For the mission "The Northwestern Passage," you must sail according to the world map on
    # the card."
    m = world()
    route = [clause[0] for clause in props("the_northwestern_passage")["route"]]
    for here, there in zip(route, route[1:], strict=False):
        assert m.distance(here, there) is not None
    # The passage joins the Atlantic to the Pacific: without its spaces, the way round is longer.
    without = from_cards(
        c for c in ir()["cards"] if not (c["kind"] == "space" and c["id"] in route[1:-1])
    )
    through = m.distance(route[0], route[-1])
    around = without.distance(route[0], route[-1])
    assert through is not None and (around is None or around > through + 6)


@pytest.mark.parametrize(
    ("mission", "spot"),
    [("discover_galapagos_islands", "galapagos_islands"), ("legend_of_kraken", "kraken")],
)
def test_galapagos_and_the_kraken_are_discovery_spots(mission: str, spot: str) -> None:
    assert props(mission)["spot"] == spot
    assert world().space(spot).is_discovery_spot
    assert world().distance("lisbon", spot) is not None


def test_each_pirate_icon_has_6_adjacent_spaces_of_its_own() -> None:
    # "The 6 spaces adjacent to a pirate icon are the Pirate Infested Area."
    m = world()
    areas = [m.infested_area(p.id) for p in m.pirates()]
    for pirate, area in zip(m.pirates(), areas, strict=True):
        assert len(area) == 6, pirate.id
        assert all(m.passable(s) for s in area), pirate.id
    # No space is in two areas, so "4 different Pirate Infested Areas" is never ambiguous.
    assert sum(len(a) for a in areas) == len(frozenset().union(*areas))


def test_a_pirate_space_is_never_passed_nor_landed_on() -> None:
    # "You cannot pass or land on a pirate space."
    m = world()
    for pirate in m.pirates():
        for neighbour in m.infested_area(pirate.id):
            assert pirate.id not in m.reachable(neighbour, 6)
    assert not any(m.space(s).is_pirate for s in m.reachable("lisbon"))


def test_a_port_can_be_in_a_pirate_infested_area() -> None:
    m = world()
    assert m.in_pirate_infested_area("sakai")
    assert not m.in_pirate_infested_area("lisbon")


def test_white_borders_cannot_be_crossed() -> None:
    # "White borders cannot be crossed."
    m = world()
    edges = [
        tuple(clause)
        for border in cards("white_border")
        for clause in border["properties"]["edges"]
    ]
    assert edges
    for a, b in edges:
        assert adjacent(m.space(a).cell, m.space(b).cell)
        assert b not in m.adjacent(a) and a not in m.adjacent(b)
        assert m.distance(a, b) != 1


def test_the_suez_border_sends_the_ship_round_africa() -> None:
    m = world()
    assert m.distance("alexandria", "red_sea") is not None
    assert (m.distance("alexandria", "red_sea") or 0) > 6


def test_date_line_letters_pair_the_west_and_east_edges() -> None:
    # "Spaces with the same letter are considered the same space."
    m = world()
    letters = Counter(s.date_line for s in m.spaces.values() if s.date_line)
    assert letters and set(letters.values()) == {2}
    columns = props("world_map")["columns"]
    for letter in letters:
        west, east = sorted(
            (s for s in m.spaces.values() if s.date_line == letter), key=lambda s: s.cell.q
        )
        assert m.same_space(west.id, east.id)
        assert m.canonical(east.id) == west.id
        # One row, the drawing's first and last columns.
        assert west.cell.r == east.cell.r and east.cell.q - west.cell.q == columns - 1
        assert m.distance(west.id, east.id) == 0


def test_sailing_across_the_date_line() -> None:
    # "You can sail across the Date Line to the other side of the World Map."
    m = world()
    assert m.distance("sea_24_3", "sea_1_3") == 2
    assert m.reachable("bering_strait_east", 1) == m.reachable("bering_strait", 1)


def test_every_passable_space_can_be_reached_from_lisbon() -> None:
    m = world()
    reach = m.reachable("lisbon")
    assert [s for s in m.spaces if m.is_canonical(s) and m.passable(s) and s not in reach] == []


# -- every value the rulebook does not print is @provisional


def provisional(ident: str) -> set[str]:
    """What a card marks provisional: 'card' or property names."""
    return set(card(ident)["provisional"])


def test_every_space_and_the_map_are_provisional() -> None:
    # The printed World Map is a picture the rulebook text does not carry.
    assert "card" in provisional("world_map")
    for kind in ("space", "white_border", "specialty"):
        unmarked = [c["id"] for c in cards(kind) if "card" not in c["provisional"]]
        assert unmarked == [], kind


def test_port_values_are_provisional_except_the_east_asian_rules() -> None:
    for port in cards("space", "port"):
        marked = set(port["provisional"])
        assert "specialty" in marked, port["id"]
        if port["id"] in ("hanyang", "sakai", "hangzhou"):
            # Printed: "you gain 2 prestige points"; "East Asia (Hanyang, Sakai, or Hangzhou)".
            assert not marked & {"stars", "region"}, port["id"]
        else:
            assert {"stars", "region"} <= marked, port["id"]


def test_unprinted_card_values_are_provisional() -> None:
    for port_card in cards("port_card"):
        assert "copies" in port_card["provisional"], port_card["id"]
    for voyage in cards("voyage"):
        # Which half, which formula, which resources: none is printed per card.
        assert {"card", "pirate"} <= set(voyage["provisional"]), voyage["id"]
        if "resources" in voyage["properties"]:
            assert "resources" in voyage["provisional"], voyage["id"]
        if "restraint" in voyage["formulas"]:
            assert "restraint" in voyage["provisional"], voyage["id"]
    for mission in cards("mission"):
        marked = set(mission["provisional"])
        assert "card" in marked or "reward" in marked, mission["id"]
        if mission["id"] not in NAMED:
            assert "card" in marked, mission["id"]
    for ident in ("the_northwestern_passage",):
        assert "route" in provisional(ident)
    for ident in ("conquer_antarctica", "an_ecological_study_of_predators"):
        assert "spots" in provisional(ident)
    assert "reward" in provisional("discover_the_coordinates_of_the_sunken_ship")
    for kind in ("groceries", "household_goods", "luxury_goods"):
        assert "sale_value" in provisional(f"{kind}_in_vogue")
    assert {"spaces", "anchor_spaces"} <= provisional("prestige_track")
    tracks = {p["what"] for p in ir()["provisional"] if p["card"] == ""}
    assert {"track durability", "track health"} <= tracks


def test_printed_values_are_not_marked_provisional() -> None:
    # The rulebook prints the Sunken Ship's conditions, the crew actions and the titles.
    assert not provisional("discover_the_coordinates_of_the_sunken_ship") & {
        "port_distance",
        "discovery_distance",
        "requires",
    }
    assert provisional("crew_actions") == set()
    assert all(c["provisional"] == [] for c in cards("title"))


# -- the missions' own handlers, through the generated code


def test_discover_galapagos_gains_the_die_and_suffers_it_as_scurvy() -> None:
    # ""Discover Galapagos Islands": Gain additional prestige and suffer Scurvy equal to the die
    # result."
    g = game(dice=(3,))
    g.players[0].zones["missions"] = ["discover_galapagos_islands"]
    g.anchor_at_sea(g.players[0], "galapagos_islands")
    stars = props("discover_galapagos_islands")["reward"][0][1]
    assert g.players[0].counters["prestige"] == stars + 3
    assert g.players[0].tracks["health"].marked == 3
    assert g.players[0].zones["accomplished"] == ["discover_galapagos_islands"]
    assert g.scripted_dice == []


def test_lime_juice_reduces_the_galapagos_scurvy_by_up_to_2() -> None:
    # "You may use Lime Juice to reduce the amount of Scurvy damage."
    g = game(("lime_juice.scurvy.use", "yes"), dice=(1,))
    g.players[0].zones["missions"] = ["discover_galapagos_islands"]
    g.players[0].zones["port_cards"] = ["lime_juice"]
    g.anchor_at_sea(g.players[0], "galapagos_islands")
    assert g.players[0].tracks["health"].marked == 0
    assert g.players[0].zones["port_cards"] == []


def test_a_discovery_mission_is_accomplished_only_at_its_spot() -> None:
    # "The mission is accomplished as soon as you anchor at the Discovery Spot."
    g = game(dice=(5,))
    g.players[0].zones["missions"] = ["discover_hawaii"]
    g.anchor_at_sea(g.players[0], "tahiti")
    assert g.players[0].zones["accomplished"] == []
    g.anchor_at_sea(g.players[0], "hawaii")
    # Its reward: "stars 2, die" ("If a die is depicted, gain additional points equal to the
    # number rolled").
    assert g.players[0].counters["prestige"] == 2 + 5
    assert g.players[0].zones["accomplished"] == ["discover_hawaii"]


# -- the printed rules reference (reference.yaml quotes the rulebook) against the data


def _band(text: str) -> tuple[int | None, int | None]:
    """A printed score band: "~30", "31-40", "51 and above", "101+"."""
    text = text.strip()
    if text.startswith("~"):
        return None, int(text[1:])
    if text.endswith("+"):
        return int(text[:-1]), None
    if text.endswith(" and above"):
        return int(text.split()[0]), None
    low, high = text.split("-")
    return int(low), int(high)


def _printed_tables() -> dict[str, Any]:
    from compiler.sheets.reference import load_reference

    path = Path(__file__).resolve().parent.parent / "cards" / "uncharted_passage" / "reference.yaml"
    return {table.title: table for table in load_reference(path).tables}


@pytest.mark.parametrize(
    ("table", "tag"),
    [("Titles (Solo Mode)", "solo"), ("Titles (2-Player Cooperative Mode)", "coop")],
)
def test_the_printed_title_bands_are_the_title_cards(table: str, tag: str) -> None:
    # The reference page quotes the rulebook's bands; the flow scores by the title cards.
    # The two must not drift apart.
    printed = {title: _band(band) for band, title in _printed_tables()[table].rows}
    data = {
        c["title"]: (c["properties"].get("min_score"), c["properties"].get("max_score"))
        for c in cards("title", tag)
    }
    assert printed == data


def test_the_printed_crew_action_table_is_the_crew_actions_card() -> None:
    # The printed rows quote the rulebook; the flow reads the crew_actions card's words.
    words = {
        "purchase": "purchasing",
        "sell": "selling",
        "purchase_or_sell": "either purchasing or selling",
        "gain_port_card": "gain one Port Card",
    }
    printed = dict(_printed_tables()["Crew Action reference table"].rows)
    for row in props("crew_actions")["rows"]:
        stamina, actions = row[0], row[1:]
        text = printed[str(stamina)]
        if not actions:
            assert "can't perform any actions" in text
        for action in actions:
            assert words[action].lower() in text.lower(), (stamina, action, text)
        if "purchase_or_sell" not in actions and {"purchase", "sell"} <= set(actions):
            assert "both" in text
