"""The rules reference's phases follow the compiled flow of the game or variant it prints.

reference.yaml ties each entry of "Phases, in order" to a flow phase (``phase: NAME``) and may
tie entries, table rows, notes and icons to a card (``card: ID``): a variant that inserts,
replaces, moves or removes a phase, or removes a card, prints what it plays with no
hand-written copy of the list (issue 19, item 4). The errata sheet says the flow's and the
verbs' changes in the rulebook's words.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import SheetError, SheetOptions, render_sheet_files
from compiler.sheets.reference import ReferenceError, load_reference
from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "cards"
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'

#: The rulebook's words for the Planning phase (cards/uncharted_passage/reference.yaml).
PLANNING = "Reveal one card from the top of the Voyage Card pile."


def _ir(project: Project, game: str, variant: str | None) -> dict:
    folder = project.game_dir(game)
    if variant is None:
        result = compile_game(folder, SourceCache())
    else:
        result, _ = compile_variant(folder, folder / "variants" / f"{variant}.yaml", SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    return result.ir


def _md(project: Project, game: str, variant: str | None) -> str:
    ir = _ir(project, game, variant)
    files = render_sheet_files(project, game, ir, variant=variant, formats=("md",))
    return files[f"sheets/{game}/{variant or game}.md"].decode()


def _phases(md: str) -> list[tuple[str, str]]:
    """(title, text) of each numbered entry of "Phases, in order"."""
    if "### Phases, in order" not in md:
        return []
    section = md.split("### Phases, in order", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\d+\. \*\*(.+?)\*\*: (.*)$", section, re.MULTILINE)


def _repo() -> Project:
    project = find_project(REPO)
    assert project is not None
    return project


@pytest.fixture
def passage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A copy of Uncharted Passage in a temporary project, cwd at its root."""
    shutil.copytree(CARDS / "uncharted_passage", tmp_path / "cards" / "uncharted_passage")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = find_project(tmp_path)
    assert found is not None
    return found


def _variant(project: Project, name: str, text: str) -> None:
    path = project.cards / "uncharted_passage" / "variants" / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")


def test_the_base_game_prints_the_rulebooks_phases_in_the_flows_order() -> None:
    titles = [t for t, _ in _phases(_md(_repo(), "uncharted_passage", None))]
    assert titles == ["Planning phase", "Pirate phase", "Sailing phase", "Anchoring phase"]


def test_an_inserted_phase_is_printed_from_its_dsl_with_its_provisional_mark() -> None:
    # No hand-written phase list for the variant any more: the flow gives it.
    assert not (CARDS / "uncharted_passage" / "sheets" / "storm_season.reference.yaml").exists()
    md = _md(_repo(), "uncharted_passage", "storm_season")
    phases = _phases(md)
    assert [t for t, _ in phases][:2] == ["Storm Season", "Planning phase"]
    text = phases[0][1]
    assert text.startswith("If it is round 10 or later, every player: roll a die;")
    mark = re.search(r"◇(\d+)$", text)
    assert mark is not None, text
    # The mark's note says what it is in words, not as the checker's label.
    assert f"| ◇{mark.group(1)} | Phase: Storm Season | a house rule" in md
    assert "flow: phase storm" not in md


def test_a_moved_phase_moves_a_removed_one_is_not_printed(passage: Project) -> None:
    _variant(
        passage,
        "pirates_last",
        "description: pirates last\nflow:\n  - move: pirate\n    after: sailing_and_anchoring\n",
    )
    _variant(passage, "no_pirates", "description: no pirates\nflow:\n  - remove: pirate\n")
    moved = [t for t, _ in _phases(_md(passage, "uncharted_passage", "pirates_last"))]
    assert moved == ["Planning phase", "Sailing phase", "Anchoring phase", "Pirate phase"]
    removed = [t for t, _ in _phases(_md(passage, "uncharted_passage", "no_pirates"))]
    assert removed == ["Planning phase", "Sailing phase", "Anchoring phase"]


def test_a_replaced_phase_says_what_it_now_does(passage: Project) -> None:
    _variant(
        passage,
        "quick_planning",
        "description: quick\nflow:\n"
        '  - replace: |\n      phase planning "Planning" {\n        reveal_voyage\n      }\n',
    )
    phases = dict(_phases(_md(passage, "uncharted_passage", "quick_planning")))
    assert "Planning phase" not in phases  # the base game's words no longer hold
    assert (
        phases["Planning"]
        == "Reveal the top card of the voyage pile; its events apply to every ship."
    )
    assert PLANNING not in phases["Planning"]


def test_a_variants_end_condition_is_printed_with_its_phases(passage: Project) -> None:
    """A house rule 'the game ends when a ship reaches 40 prestige' (flow: end_when) played so,
    but its sheet did not say so anywhere; it is printed after the phases. The base game's own
    end condition (a ship sunk) is the rulebook's words elsewhere, and is not."""
    _variant(
        passage,
        "race_to_40",
        'description: a race\nflow:\n  - end_when: "ship_sunk() or prestige >= 40"\n',
    )
    phases = _phases(_md(passage, "uncharted_passage", "race_to_40"))
    assert phases[-1] == (
        "End of the game",
        "The game ends as soon as a ship has sunk or you have at least 40 prestige.",
    )
    base = [t for t, _ in _phases(_md(passage, "uncharted_passage", None))]
    assert "End of the game" not in base


def test_a_variants_own_entry_for_its_phase_is_printed(passage: Project) -> None:
    _variant(
        passage,
        "quick_planning",
        "description: quick\nflow:\n"
        '  - replace: |\n      phase planning "Planning" {\n        reveal_voyage\n      }\n',
    )
    sheets = passage.cards / "uncharted_passage" / "sheets"
    (sheets / "quick_planning.reference.yaml").write_text(
        "phases:\n  items:\n    - phase: planning\n"
        '      item: [Quick Planning, "Reveal a voyage card; write nothing."]\n',
        encoding="utf-8",
    )
    phases = _phases(_md(passage, "uncharted_passage", "quick_planning"))
    assert phases[0] == ("Quick Planning", "Reveal a voyage card; write nothing.")
    # The base game's other entries stay.
    assert [t for t, _ in phases[1:]] == ["Pirate phase", "Sailing phase", "Anchoring phase"]


def test_entries_rows_notes_and_icons_tied_to_a_removed_card_are_not_printed() -> None:
    base = _md(_repo(), "darwins_journey", None)
    bare = _md(_repo(), "darwins_journey", "no_pirates")
    for heading in (
        "### Phases, in order",
        "### Components",
        "### The Pirate Raid",
        "### Important",
    ):
        assert heading in base and heading not in bare
    legend = bare.split("### Icon legend", 1)[1].split("###", 1)[0]
    assert "| Coins |" in legend and "Treasure token" not in legend
    assert "Pirate Ship icon" not in legend


def test_a_phase_the_reference_names_must_be_in_the_flow(passage: Project) -> None:
    path = passage.cards / "uncharted_passage" / "reference.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("- phase: planning", "- phase: planing"),
        encoding="utf-8",
    )
    # At the line and column of the name, with "did you mean".
    with pytest.raises(
        SheetError,
        match=r"reference.yaml:\d+:14: phases.items: 'planing' is not a phase of "
        r"uncharted_passage's flow\n  hint: .*'planning'",
    ):
        _md(passage, "uncharted_passage", None)


def test_a_tied_entry_of_the_wrong_shape_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "reference.yaml"
    path.write_text("phases:\n  items:\n    - phase: planning\n      text: [A, b]\n")
    with pytest.raises(
        ReferenceError, match=r"reference.yaml:4:7: an entry of phases.items has no 'text'"
    ):
        load_reference(path)
    path.write_text("phases:\n  items:\n    - phase: planning\n  omit: planning\n")
    with pytest.raises(
        ReferenceError, match=r"reference.yaml:3:7: an entry of phases.items needs 'item'"
    ):
        load_reference(path)
    path.write_text("phases:\n  items:\n    - {phase: planning, item: [A, b]}\n  omit: planning\n")
    with pytest.raises(ReferenceError, match=r"reference.yaml:4:9: 'omit' holds a list"):
        load_reference(path)


def test_a_variants_icon_replaces_the_base_icon_of_its_name_only() -> None:
    md = _md(_repo(), "uncharted_passage", "port_cards_two_at_a_time")
    legend = md.split("### Icon legend", 1)[1].split("###", 1)[0]
    assert "Immediately gain two Port Cards" in legend
    assert "Immediately gain a Port Card" not in legend
    assert "| Health track X marked |" in legend  # the base's other icons stay
    # The redefined verb's provisional note is printed, in its own words.
    assert "| Gain two Port Cards | a house rule" in md


def test_the_html_reference_prints_the_flows_phases() -> None:
    from compiler.sheets.html import OVERRIDES, build_sheet
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve

    project = _repo()
    folder = project.game_dir("uncharted_passage")
    ir = _ir(project, "uncharted_passage", "storm_season")
    ref = resolve(reference_for(folder, "storm_season"), ir, {c["id"] for c in ir["cards"]})
    model = build_model(ir, ref, variant="storm_season", folder=folder)
    html = str(build_sheet(model, SheetOptions(), folder / OVERRIDES).reference)
    assert "<td>1. Storm Season</td><td>If it is round 10 or later" in html
    row = html.split("<td>1. Storm Season</td>", 1)[1].split("</tr>", 1)[0]
    # Its icon drawn and its provisional mark, as a card's text has them.
    assert '<svg class="icon"' in row and '<span class="prov">&#9671;' in row
    assert "<td>2. Planning phase</td>" in html


def test_provisional_records_say_what_they_mark_apart() -> None:
    ir = _ir(_repo(), "uncharted_passage", "storm_season")
    records = {(r["card"], r["kind"], r["name"]) for r in ir["provisional"]}
    assert ("flow", "phase", "storm_season") in records
    assert ("", "track", "durability") in records
    assert any(kind == "property" and card and name for card, kind, name in records)
    assert any(kind == "card" and name == "" for _card, kind, name in records)


def test_the_errata_says_the_flows_changes_in_the_rulebooks_words(
    passage: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _variant(
        passage,
        "shuffle",
        "description: shuffle\nflow:\n  - move: sailing_and_anchoring\n    before: pirate\n"
        "  - remove: sharing\n"
        '  - replace: |\n      phase planning "Planning" {\n        reveal_voyage\n      }\n'
        '  - end_when: "round == 10"\n',
    )
    out = passage.root / "errata.md"
    assert (
        main(["diff", "uncharted_passage", "uncharted_passage/shuffle", "--errata", str(out)]) == 0
    )
    words = out.read_text(encoding="utf-8").split("In the rulebook's words:", 1)[1]
    assert "- Co-op: sharing on one space: no longer played." in words
    assert (
        "- The Sailing phase and the Anchoring phase: now played in each round, before the "
        "Pirate phase \\(it traded places with the Pirate phase\\)."
    ) in words
    assert "- The Planning phase: now reveal the top card of the voyage pile" in words
    assert "- The game now ends when it is round 10 \\(it ended when a ship has sunk" in words
    # The rulebook's words, not the DSL's.
    assert "reveal_voyage" not in words and "ship_sunk" not in words


def test_the_errata_says_an_inserted_phase_and_a_redefined_verb_in_words(
    tmp_path: Path,
) -> None:
    project = _repo()
    out = tmp_path / "storm.md"
    assert (
        main(["diff", "uncharted_passage", "uncharted_passage/storm_season", "--errata", str(out)])
        == 0
    )
    text = out.read_text(encoding="utf-8")
    assert (
        "- New phase: Storm Season, played in each round, before the Planning phase: if it is "
        "round 10 or later, every player: roll a die;"
    ) in text
    verb = tmp_path / "verb.md"
    args = ["diff", "uncharted_passage", "uncharted_passage/port_cards_two_at_a_time"]
    assert main([*args, "--errata", str(verb)]) == 0
    assert (
        '- Every "gain one Port Card" of the rules now reads "gain two Port Cards"'
    ) in verb.read_text(encoding="utf-8")
    assert project is not None


def test_every_variants_setup_reads_as_it_plays() -> None:
    base = dict(_phases(_md(_repo(), "incredible_expeditions", None)))
    more = dict(_phases(_md(_repo(), "incredible_expeditions", "more_locations")))
    assert "place 4 of them between Port City" in base["Set up"]
    assert "place 6 of them between Port City" in more["Set up"]
    # The Scenario card sets up the Diary and the Pirate Ship: not "shuffle all 6 tiles".
    scenario = _phases(_md(_repo(), "darwins_journey", "pirate_scenario"))
    assert [t for t, _ in scenario][:2] == ["Setup", "Pirate Scenario"]
    assert not any("shuffle all 6 tiles" in text for _, text in scenario)
    unlocked = dict(_phases(_md(_repo(), "darwins_journey", "pirate_unlocked")))
    assert "the Pirate action is unlocked at the start" in unlocked["Main Board Setup"]


def test_a_variants_table_without_rows_keeps_the_games_rows_under_its_citation(
    tmp_path: Path,
) -> None:
    md = _md(_repo(), "land_vs_sea", "experienced")
    table = md.split("### Scoring layers", 1)[1].split("\n### ", 1)[0]
    assert "Rulebook: City scoring; the base game's layers" in table
    # The game's rows, less those of the layers the variant removes.
    assert "| City scoring: routes |" in table and "Menhir scoring |" not in table
    assert "| Mountain & Coral scoring \\(base game, modelled\\) |" in table
    # Only a variant's reference may leave a table's rows out.
    path = tmp_path / "reference.yaml"
    path.write_text("tables:\n  - {title: Scoring layers, from: x}\n", encoding="utf-8")
    with pytest.raises(ReferenceError, match="a table needs 'columns'"):
        load_reference(path)
    assert load_reference(path, variant=True).tables[0].keeps_rows


def _rules(md: str) -> list[str]:
    """Each entry of the reference's "Rules": ``**Title.** text``."""
    if "### Rules" not in md:
        return []
    section = md.split("### Rules", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\*\*.+?\*\* .*$", section, re.MULTILINE)


def test_a_verb_a_variant_redefines_is_printed_in_the_rules(passage: Project) -> None:
    """A house rule redefining a verb of the game ('verbs:') played so, but the rules
    reference said nothing of it, as it says a house rule's end condition."""
    _variant(
        passage,
        "triple_port",
        "description: three\nverbs: |\n"
        '  verb gain_port_card() "gain three Port Cards" { draw port_cards 3 }\n',
    )
    rules = _rules(_md(passage, "uncharted_passage", "triple_port"))
    assert (
        # The words the sheets print for the verb ("gain one Port Card"), not its new
        # description: "whenever the rules say to gain three Port Cards" said itself again.
        "**Gain three Port Cards.** Whenever the rules say to gain one Port Card, draw 3 "
        "\\[Anchor with card icon\\] Port Cards."
    ) in rules
    # The game's own verbs are the rulebook's: printed nowhere as a rule of their own.
    base = _rules(_md(passage, "uncharted_passage", None))
    assert not [r for r in base if "Port Card" in r.split("**")[1]]
