"""Mutation check of Darwin's Journey's scenarios: does each rule have a scenario that needs it?

Run as ``.venv/bin/python bench/dj_mutations.py [NAME-PREFIX ...] [--json FILE]``. Not a test:
each mutation breaks one rule of the rulebook (cards/darwins_journey/COVERAGE.md names it in
its last column) in a throw-away copy of the checkout, rebuilds the game there (``cardc build
--no-sheets``, the copy's own compiler on ``PYTHONPATH``) and runs the Darwin's Journey
scenarios; it prints how many fail and which. A mutation that no scenario notices (0) is a
rule no scenario shows. About 10-20 s a mutation on a loaded machine.
"""

# ruff: noqa: E501 - the mutations are source text, quoted as the files have it

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDC = Path(sys.executable).with_name("cardc")
IGNORED = shutil.ignore_patterns(".venv", ".git", ".cardc-cache", "print", "__pycache__")

DJ = "cards/darwins_journey/"
P, N, F, B, H = (
    DJ + "pirates.cards",
    DJ + "natives.py",
    DJ + "flow.cards",
    DJ + "board.py",
    DJ + "host.cards",
)
FL = DJ + "variants/fireland.yaml"
C, G, BC = DJ + "crew.cards", DJ + "game.cards", DJ + "board.cards"
VU = "tests/scenarios/darwins_journey/variant_pirate_unlocked.yaml"

#: name -> edits (file, old text, new text); an old text starting "ALL:" is replaced everywhere,
#: any other must occur exactly once.
MUTATIONS: dict[str, list[tuple[str, str, str]]] = {
    "S1 no treasure placed": [(P, "    place_treasure_tokens\n", "")],
    "S2 crew not shuffled in": [(P, "    shuffle_into_crew_deck pirates\n", "")],
    "S4 goal tiles random under scenario": [
        (
            F,
            'if use_pirate_scenario == 1 {\n    # "Instead',
            'if use_pirate_scenario == 2 {\n    # "Instead',
        )
    ],
    "S5 pirate ship not at X": [(F, "    pirate_ship_from_scenario_card\n", "")],
    "S6 scenario diary drawn at random": [
        (F, "    diary_from_scenario_card\n", "    draw_diary_tiles diary_size\n")
    ],
    "S7 pirate ship starts on board": [
        (
            N,
            '    g.log("treasure_placed", 0, len(g.board["treasure"]))',
            '    g.log("treasure_placed", 0, len(g.board["treasure"]))\n    g.board["pirate_region"] = "section_2"',
        )
    ],
    "S8 six base tiles drawn": [
        (N, "drawn = base[: int(size) - len(modules)]", "drawn = base[: int(size)]")
    ],
    "S9a pirate tile not added": [
        (N, "rest = [*drawn, *(t for t in modules if t not in first)]", "rest = [*drawn]")
    ],
    "S9b six tiles not shuffled": [(N, "    g.shuffle(rest)\n    if first:", "    if first:")],
    "S10 optional unlock ignored": [(N, "    if first:\n", "    if False:\n")],
    "S10v variant line deleted": [(VU, "ALL:variant: pirate_unlocked\n", "")],
    "S11 the other 5 not random": [
        (
            N,
            "        rest = rest[:slot] + first + rest[slot:]",
            "        rest = sorted(rest)\n        rest = rest[:slot] + first + rest[slot:]",
        )
    ],
    "S11b not on a top location": [
        (
            N,
            '        slot = int(g.rng.random() * param(g, "diary_top_locations"))',
            "        slot = 2 + int(g.rng.random() * 3)",
        )
    ],
    "H1 reward phase no tent coins": [
        (F, "gain coins reward_phase_coins + tents", "gain coins reward_phase_coins")
    ],
    "H2 first seat always first": [(F, "= (round - 1) % player_count() + 1", "= 1")],
    "H3 no lagging penalty": [
        (F, "        lose victory_points lagging_penalties_behind(scorer) * lagging_penalty\n", "")
    ],
    "D2b landing does not discover": [
        (
            N,
            "        if site is not None:\n            dj.reach_campsite",
            "        if site is not None and _ < moved - 1:\n            dj.reach_campsite",
        )
    ],
    "D1 moves discover nothing": [
        (N, "            dj.reach_campsite(player, site)", "            pass")
    ],
    "D2 passing does not discover": [
        (
            N,
            "        if site is not None:\n            dj.reach_campsite",
            "        if site is not None and _ == moved - 1:\n            dj.reach_campsite",
        )
    ],
    "D1b explorers discover nothing": [
        (
            N,
            "        if site is not None:\n            dj.reach_campsite",
            "        if site is not None and track == 'ocean':\n            dj.reach_campsite",
        )
    ],
    "T1a token stays on campsite": [(N, '    g.board["treasure"][campsite] = 0\n', "")],
    "T1b token not to player": [(N, '    g.gain(c, "treasure", 1)\n', "")],
    "T2 2 coins not 3": [(P, "gain coins 3", "gain coins 2")],
    "T3 coins only after the action": [
        (N, "            dj.reach_campsite(player, site)", "            pending.append(site)"),
        (
            N,
            "    dj = _game(g)\n    for _ in range(moved):",
            "    dj = _game(g)\n    pending = []\n    for _ in range(moved):",
        ),
        (
            N,
            '        _dsl_verb_of(g, "offer_tent")(g, c, site)\n',
            '        _dsl_verb_of(g, "offer_tent")(g, c, site)\n    for site in pending:\n        dj.reach_campsite(player, site)\n',
        ),
    ],
    "M1a leaving token cannot move ship": [
        (P, "        may move_pirate_ship\n      }", "        gain coins 0\n      }")
    ],
    "M1b no token cannot move ship": [
        (P, "    } else {\n      may move_pirate_ship", "    } else {\n      gain coins 0")
    ],
    "M1c no token must move ship": [
        (P, "    } else {\n      may move_pirate_ship", "    } else {\n      move_pirate_ship")
    ],
    "M1d cannot leave a token": [
        (
            P,
            '      choose one of {\n        {\n          take_treasure campsite\n          # "They then gain 3 Coins from the supply."\n          gain coins 3\n        }\n        may move_pirate_ship\n      }',
            "      take_treasure campsite\n      gain coins 3",
        )
    ],
    "M2a only from the supply": [
        (
            N,
            "    question = Question(\n        MOVE_PIRATE_SHIP,",
            "    if g.board.get('pirate_region') is not None:\n        return\n    question = Question(\n        MOVE_PIRATE_SHIP,",
        )
    ],
    "M2b another player chooses": [
        (
            N,
            "    region = g.ask(c.player, question)",
            "    region = g.ask(g.players[0], Question(MOVE_PIRATE_SHIP, g.players[0].index, question.prompt, question.options, rule=question.rule))",
        )
    ],
    "M3a starting area allowed (code)": [(B, "        if section.id != start\n", "")],
    "M3b starting area allowed (code+mark)": [
        (B, "        if section.id != start\n", ""),
        (
            BC,
            'index 1; first_space 0; last_space 2; pirate "NO"',
            'index 1; first_space 0; last_space 2; pirate "OK"',
        ),
    ],
    "M3c region is not between penalties": [
        (
            B,
            'section = section_at(g, player.counters["ship_space"])',
            'section = section_at(g, min(player.counters["ship_space"] + 1, 17))',
        )
    ],
    "I1 taking treasure moves ship too": [
        (P, "          gain coins 3\n", "          gain coins 3\n          may move_pirate_ship\n")
    ],
    "I2 raid sends ship back to supply": [
        (
            N,
            '    c.player.counters["treasure"] = 0\n',
            '    c.player.counters["treasure"] = 0\n    g.board["pirate_region"] = None\n',
        )
    ],
    "R1a raid before reward phase": [
        (F, '    phase reward_phase "the Reward Phase" {\n      reward_phase\n    }\n', ""),
        (
            F,
            "      fire reward_phase_end\n    }\n",
            '      fire reward_phase_end\n    }\n    phase reward_phase "the Reward Phase" {\n      reward_phase\n    }\n',
        ),
    ],
    "R1b only the first seat raided": [
        (
            P,
            "where ship_region(raided) == pirate_region()",
            "where seat(raided) == 1 and ship_region(raided) == pirate_region()",
        )
    ],
    "R1c other regions raided": [
        (
            P,
            "where ship_region(raided) == pirate_region()",
            "where ship_region(raided) != pirate_region()",
        )
    ],
    "R2a 1 per treasure": [(P, "pay coins 2 + 2 * treasure", "pay coins 2 + 1 * treasure")],
    "R2b 3 base": [(P, "pay coins 2 + 2 * treasure", "pay coins 3 + 2 * treasure")],
    "R3a 2 vp per coin": [
        (P, "else lose victory_points missing", "else lose victory_points missing * 2")
    ],
    "R3b vp below 0": [
        (G, "  counter victory_points\n", "  counter victory_points { min -100 }\n")
    ],
    "R3c vp instead of coins": [
        (
            P,
            "pay coins 2 + 2 * treasure else lose victory_points missing",
            "lose victory_points 2 + 2 * treasure",
        )
    ],
    "R4a treasure kept": [(P, "      return_treasure\n", "")],
    "R4b treasure back on campsites": [
        (
            N,
            '    g.board["treasure_in_box"] += returned\n',
            '    g.board["treasure_in_box"] += returned\n    for s in [s for s in g.board["treasure"] if not g.board["treasure"][s]][:returned]:\n        g.board["treasure"][s] = 1\n',
        )
    ],
    "A1a tile 1 coin": [
        (P, "  on activate {\n    gain coins 2", "  on activate {\n    gain coins 1")
    ],
    "A1b tile cannot move ship": [
        (P, "    gain coins 2\n    may move_pirate_ship", "    gain coins 2")
    ],
    "A1c tile must move ship": [
        (P, "    gain coins 2\n    may move_pirate_ship", "    gain coins 2\n    move_pirate_ship")
    ],
    "K1a P1 one action": [(C, "    repeat 2 {", "    repeat 1 {")],
    "K1b P1 pays penalties": [
        (C, "may research_specimen ignoring coin_penalties", "may research_specimen")
    ],
    "K1c P1 mandatory": [
        (
            C,
            "may research_specimen ignoring coin_penalties",
            "research_specimen ignoring coin_penalties",
        )
    ],
    "K2a P2 worker stays placed": [(N, "        placed.remove(location)\n", "")],
    "K2b P2 worker not placeable again": [
        (N, '        c.player.counters["workers_ready"] += 1\n', "")
    ],
    "K2c no normal placement rule": [(H, "= not holds_own_worker(location) and coins", "= coins")],
    "K3a P3 one tile": [(C, "take_objectives up_to 2", "take_objectives up_to 1")],
    "K3b P3 top of discard only": [
        (N, "                (STOP, *pile),", "                (STOP, *pile[-1:]),")
    ],
    "K4a P4 pays cost": [
        (
            N,
            '        g.log("campsite_rewards", c.player.index, site)\n',
            '        g.log("campsite_rewards", c.player.index, site)\n        g.lose(c, "coins", int(prop(g, site, "cost", 0)))\n',
        )
    ],
    "K4b P4 places a tent": [
        (
            N,
            '        g.log("campsite_rewards", c.player.index, site)\n',
            '        g.log("campsite_rewards", c.player.index, site)\n        c.player.counters["tents"] += 1\n',
        )
    ],
    "K4c P4 full campsites excluded": [
        (
            N,
            "            tuple(campsites(g)),\n        )\n        site = g.ask",
            "            tuple(s for s in campsites(g) if free_tent_sites(g, c, s) > 0),\n        )\n        site = g.ask",
        )
    ],
    "X1 base section 2 NO": [
        (
            BC,
            'index 2; first_space 3; last_space 5; pirate "OK"',
            'index 2; first_space 3; last_space 5; pirate "NO"',
        )
    ],
    "X3a fireland lower NO": [
        (
            FL,
            'section_4: {upper_pirate: "NO", lower_pirate: "OK"}',
            'section_4: {upper_pirate: "NO", lower_pirate: "NO"}',
        )
    ],
    "X3b fireland upper OK": [
        (
            FL,
            'section_4: {upper_pirate: "NO", lower_pirate: "OK"}',
            'section_4: {upper_pirate: "OK", lower_pirate: "OK"}',
        )
    ],
    "X4 fireland section 6 NO": [
        (
            FL,
            'section_5: {upper_pirate: "NO", lower_pirate: "OK"}',
            'section_5: {upper_pirate: "NO", lower_pirate: "OK"}\n  section_6: {pirate: "NO"}',
        )
    ],
}


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(copy))
    return subprocess.run(args, cwd=copy, capture_output=True, text=True, env=env, check=False)


def mutate(copy: Path, name: str, edits: list[tuple[str, str, str]]) -> list[str] | str:
    """The scenarios that fail with ``edits`` applied (or why the mutation did not run)."""
    saved: dict[Path, str] = {}
    try:
        for path, old, new in edits:
            full = copy / path
            text = saved.setdefault(full, full.read_text(encoding="utf-8"))
            text = full.read_text(encoding="utf-8")
            if old.startswith("ALL:"):
                text = text.replace(old[4:], new)
            elif text.count(old) != 1:
                return f"{old[:40]!r} occurs {text.count(old)} times in {path}"
            else:
                text = text.replace(old, new)
            full.write_text(text, encoding="utf-8")
        build = run(copy, str(CARDC), "build", "--no-sheets", "cards/darwins_journey")
        if build.returncode:
            return "the build failed: " + (build.stdout + build.stderr)[-300:]
        test = run(copy, str(CARDC), "test", "tests/scenarios/darwins_journey", "--format", "json")
        report = json.loads(test.stdout)
        return [
            f"{Path(s['path']).name}:{s['line']} {s['name']}"
            for s in report["scenarios"]
            if not s["passed"]
        ]
    finally:
        for full, text in saved.items():
            full.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="run only mutations whose names start so")
    parser.add_argument("--json", help="also write {mutation: [failing scenarios]} to this file")
    args = parser.parse_args(argv)
    results: dict[str, list[str]] = {}
    unnoticed = 0
    with tempfile.TemporaryDirectory(prefix="dj-mutations-") as tmp:
        copy = Path(tmp) / "checkout"
        shutil.copytree(ROOT, copy, ignore=IGNORED, symlinks=True)
        for name, edits in MUTATIONS.items():
            if args.only and not any(name.startswith(prefix) for prefix in args.only):
                continue
            failed = mutate(copy, name, edits)
            if isinstance(failed, str):
                print(f"!! {name}: {failed}", flush=True)
                continue
            results[name] = failed
            unnoticed += not failed
            print(f"== {name}: {len(failed)} fail", flush=True)
            for line in failed:
                print(f"     {line}")
    print(f"{len(results)} mutations, {unnoticed} noticed by no scenario")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
