"""Rule variants: YAML overlays checked like the base, built to generated/<game>/<variant>/,
edited by ``cardc variant`` without disturbing the file, and compared by ``cardc diff``.

Tests that write work on a copy of one game in a temporary project (a ``pyproject.toml`` with
``[tool.cardc]``), never on the repository's own files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.build import build
from compiler.checking import check_paths
from compiler.cli import main
from compiler.diff import diff_ir, render_errata
from compiler.pipeline import compile_game
from compiler.project import Project, card_files, find_project
from compiler.variants import compile_variant
from dsl.diagnostics import Diagnostic, SourceCache
from engine.loader import new_game

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "cards"
GENERATED = REPO / "generated"
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


def _variant(game: str, name: str) -> dict:
    result, _overlay = compile_variant(
        CARDS / game, CARDS / game / "variants" / f"{name}.yaml", SourceCache()
    )
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert not errors, errors
    assert result.ir is not None
    return result.ir


def _base(game: str) -> dict:
    result = compile_game(CARDS / game, SourceCache())
    assert result.ir is not None, result.diagnostics
    return result.ir


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A temporary project with a copy of Land vs Sea (and its variants), cwd at its root."""
    shutil.copytree(CARDS / "land_vs_sea", tmp_path / "cards" / "land_vs_sea")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = find_project(tmp_path)
    assert found is not None
    return found


def _write_variant(project: Project, name: str, text: str) -> Path:
    path = project.cards / "land_vs_sea" / "variants" / f"{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _errors(project: Project, name: str) -> list[Diagnostic]:
    folder = project.cards / "land_vs_sea"
    result, _overlay = compile_variant(
        folder, Path("cards/land_vs_sea/variants") / f"{name}.yaml", SourceCache()
    )
    return sorted((d for d in result.diagnostics if d.severity == "error"), key=Diagnostic.sort_key)


# -- the real variants


def test_thirteen_months_sets_the_rounds_and_nothing_else() -> None:
    # The rulebook's game is 12 rounds (`param rounds 12` in game.cards); the variant makes 13.
    base, variant = _base("uncharted_passage"), _variant("uncharted_passage", "thirteen_months")
    assert base["vocabulary"]["params"]["rounds"] == 12
    assert variant["vocabulary"]["params"]["rounds"] == 13
    assert variant["variant"] == "thirteen_months"
    diff = diff_ir(base, variant)
    assert [c.line() for c in diff.vocabulary] == ["param rounds: 12 -> 13"]
    assert not (diff.changed or diff.added or diff.removed)


def test_the_engine_plays_the_built_variant_with_its_own_parameters() -> None:
    # generated/<game>/<variant>/ is what the engine loads for `variant:` in a scenario.
    game = new_game(GENERATED / "uncharted_passage" / "thirteen_months")
    assert game.params["rounds"] == 13
    assert new_game(GENERATED / "uncharted_passage").params["rounds"] == 12
    harsh = new_game(GENERATED / "uncharted_passage" / "harsher_sea")
    assert harsh.players[0].tracks["durability"].length == 8


def test_harsher_sea_shortens_the_durability_track() -> None:
    variant = _variant("uncharted_passage", "harsher_sea")
    track = variant["vocabulary"]["tracks"]["durability"]
    assert track == {"length": 8, "boxes": {"critical_damage": [3, 6]}}
    # The health track is untouched.
    assert variant["vocabulary"]["tracks"]["health"]["length"] == 10


def test_no_mid_event_removes_the_mid_event_cards_and_the_round() -> None:
    variant = _variant("uncharted_passage", "no_mid_event")
    assert variant["vocabulary"]["params"]["mid_event_round"] == 0
    assert not [c for c in variant["cards"] if c["kind"] == "mid_event"]
    assert [c["kind"] for c in _base("uncharted_passage")["cards"]].count("mid_event") >= 1


def test_experienced_mix_keeps_only_city_scoring() -> None:
    # "3. City scoring (Uncharted expansion)." is the only expansion layer of the mix; the
    # base game's "1. Mountain & Coral scoring" and "2. Caravan & Ship scoring" stay.
    cards = [c for c in _variant("land_vs_sea", "experienced")["cards"] if c["kind"] == "layer"]
    assert [c["id"] for c in cards if c["properties"]["box"] == "uncharted"] == ["city_scoring"]
    assert sorted(c["id"] for c in cards if c["properties"]["box"] == "base_game") == [
        "caravan_and_ship_scoring",
        "mountain_and_coral_scoring",
    ]


def test_pirate_unlocked_changes_only_the_pirate_tile() -> None:
    diff = diff_ir(_base("darwins_journey"), _variant("darwins_journey", "pirate_unlocked"))
    assert [c.id for c in diff.changed] == ["pirate"]
    # The option's sentences are printed in the Pirates Setup rule on every sheet; the variant
    # itself changes only the tile's `unlocked_at_start`, which the Diary's setup reads.
    change = diff.changed[0].changes[0]
    assert (change.what, change.before, change.after) == ("unlocked_at_start", None, "true")


def test_more_locations_adds_cards_from_the_yaml_and_a_cards_file() -> None:
    variant = _variant("incredible_expeditions", "more_locations")
    added = diff_ir(_base("incredible_expeditions"), variant).added
    assert {c["id"] for c in added} == {
        "whirlpool_narrows",
        "coral_reef",
        "smugglers_cove",
        "sunken_temple",
        "kraken_deep",
    }
    inline = next(c for c in variant["cards"] if c["id"] == "whirlpool_narrows")
    assert inline["source"].endswith("variants/more_locations.yaml:12")
    # In generated/, sources are named from the project root, YAML files included.
    built = (GENERATED / "incredible_expeditions" / "more_locations" / "cards.json").read_text()
    assert '"source": "cards/incredible_expeditions/variants/more_locations.yaml:12"' in built
    assert '"source": "cards/incredible_expeditions/variants/more_locations.cards:' in built
    # "place 4 of them between Port City and the Drowned City": the base game lays out 4 of
    # its 6 Locations between, the variant 6 of its 11.
    assert len(new_game(GENERATED / "incredible_expeditions", players=2).lay_out_locations()) == 6
    game = new_game(GENERATED / "incredible_expeditions" / "more_locations", players=2)
    assert len(game.lay_out_locations()) == 8


# -- errors point at the YAML


def test_a_misspelt_path_names_its_yaml_line_with_did_you_mean(project: Project) -> None:
    _write_variant(
        project,
        "broken",
        "# broken on purpose\n"
        "cards:\n"
        "  city_scorin: {text: x}\n"
        "  lost_city: {edgez: all_land_or_all_sea}\n"
        "remove: [menhir]\n"
        "extendz: experienced\n",
    )
    found = [(d.span.line, d.span.column, d.code, d.hints) for d in _errors(project, "broken")]
    assert found == [
        (3, 3, "variant-path", ("did you mean 'city_scoring'?",)),
        (4, 15, "variant-path", ("did you mean 'edges'?",)),
        (5, 10, "variant-path", ("did you mean 'menhir_scoring'?",)),
        (6, 1, "variant-key", ("did you mean 'extends'?",)),
    ]
    assert all(d.span.file.endswith("broken.yaml") for d in _errors(project, "broken"))


def test_an_unknown_parameter_or_track_is_reported_at_its_key(project: Project) -> None:
    _write_variant(project, "params", "params:\n  points: 3\ntracks:\n  durability: 8\n")
    found = [(d.span.line, d.message) for d in _errors(project, "params")]
    assert found == [
        (2, "'points' is not a parameter of this game"),
        (4, "'durability' is not a track of this game"),
    ]


def test_an_error_inside_an_inline_dsl_block_points_at_the_yaml_line(project: Project) -> None:
    _write_variant(
        project,
        "inline",
        "description: new tiles\n"
        "add: |\n"
        '  tile "Volcano Isle" {\n'
        "    edges all_land_or_all_se\n"
        "  }\n"
        '  tile "Reef" {\n'
        "    edges all_land_or_all_sea +\n"
        "  }\n",
    )
    errors = _errors(project, "inline")
    at = {d.code: (d.span.line, d.span.column) for d in errors}
    # Line 4 of the YAML, column 11: where 'all_land_or_all_se' is written in the file.
    assert at["name-undefined"] == (4, 11)
    assert (
        "did you mean 'all_land_or_all_sea'?"
        in next(d for d in errors if d.code == "name-undefined").hints
    )
    # A syntax error of the snippet: the '+' with nothing after it, on YAML line 7.
    assert at["missing-operand"][0] == 7


def test_a_property_value_of_the_wrong_type_points_at_the_value(project: Project) -> None:
    _write_variant(project, "typed", "cards:\n  lost_city:\n    city: maybe\n")
    (error,) = _errors(project, "typed")
    assert (error.span.line, error.span.column) == (3, 11)


def test_extends_applies_the_parent_first_and_refuses_a_cycle(project: Project) -> None:
    _write_variant(project, "child", "extends: experienced\nremove: [city_scoring]\n")
    folder = project.cards / "land_vs_sea"
    result, _o = compile_variant(folder, folder / "variants" / "child.yaml", SourceCache())
    assert result.ir is not None
    # The experienced mix keeps only City scoring of the expansion's layers; the child drops it.
    layers = [c for c in result.ir["cards"] if c["kind"] == "layer"]
    assert not [c for c in layers if c["properties"]["box"] == "uncharted"]
    _write_variant(project, "a", "extends: b\n")
    _write_variant(project, "b", "extends: a\n")
    assert [d.code for d in _errors(project, "a")] == ["variant-extends"]
    _write_variant(project, "lost", "extends: experiencd\n")
    (error,) = _errors(project, "lost")
    # Land vs Sea has an inexperienced mix too ("For inexperienced gamers' first game").
    assert error.hints == ("did you mean 'experienced' or 'inexperienced'?",)


def test_cardc_check_reports_variant_errors(project: Project) -> None:
    _write_variant(project, "broken", "params:\n  roundz: 1\n")
    sources = SourceCache()
    result = check_paths(card_files(project.cards), project, sources)
    assert [(Path(d.span.file).name, d.span.line) for d in result.diagnostics] == [
        ("broken.yaml", 2)
    ]


# -- build


def test_build_compiles_every_variant_and_check_covers_them(project: Project) -> None:
    outcome = build(project, [], check_only=False, sources=SourceCache())
    assert outcome.status == 0, outcome.diagnostics
    folder = project.generated / "land_vs_sea" / "experienced"
    assert (folder / "handlers.py").is_file()
    assert '"variant": "experienced"' in (folder / "cards.json").read_text(encoding="utf-8")
    again = build(project, [], check_only=False, sources=SourceCache())
    assert again.report == ["generated/ is up to date (1 game unchanged)"]
    # Editing the variant makes generated/ stale, and the rebuild picks it up.
    _write_variant(project, "experienced", "remove: [menhir_scoring]\n")
    check = build(project, [], check_only=True, sources=SourceCache())
    assert check.status == 1
    assert "stale: generated/land_vs_sea/experienced/cards.json" in check.report
    # A broken variant fails the build and leaves generated/ as it was.
    _write_variant(project, "experienced", "remove: [menhir]\n")
    failed = build(project, [], check_only=False, sources=SourceCache())
    assert failed.status == 1
    assert any(d.span.file.endswith("experienced.yaml") for d in failed.diagnostics)


# -- editing


def test_set_then_unset_gives_back_the_identical_bytes(project: Project) -> None:
    path = project.cards / "land_vs_sea" / "variants" / "experienced.yaml"
    before = path.read_bytes()
    assert main(["variant", "set", "land_vs_sea/experienced", "cards.lost_city.city", "false"]) == 0
    edited = path.read_text(encoding="utf-8")
    assert "cards:\n  lost_city:\n    city: false\n" in edited
    # The comments and the order of the keys are kept.
    assert edited.startswith(before.decode())
    assert main(["variant", "unset", "land_vs_sea/experienced", "cards.lost_city.city"]) == 0
    assert path.read_bytes() == before


def test_set_keeps_comments_and_quoting_and_replaces_in_place(project: Project) -> None:
    path = _write_variant(
        project,
        "quoted",
        "# why: a house rule\n"
        "cards:\n"
        "  lost_city:\n"
        "    text: 'kept as written'  # a comment\n"
        "    city: true\n"
        "remove: [menhir_scoring]  # and this\n",
    )
    assert main(["variant", "set", "land_vs_sea/quoted", "cards.lost_city.city", "false"]) == 0
    assert path.read_text(encoding="utf-8") == (
        "# why: a house rule\n"
        "cards:\n"
        "  lost_city:\n"
        "    text: 'kept as written'  # a comment\n"
        "    city: false\n"
        "remove: [menhir_scoring]  # and this\n"
    )


def test_set_refuses_a_path_that_names_nothing(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project.cards / "land_vs_sea" / "variants" / "experienced.yaml"
    before = path.read_bytes()
    assert main(["variant", "set", "land_vs_sea/experienced", "cards.lost_citty.city", "1"]) == 1
    err = capsys.readouterr().err
    assert "'lost_citty' is not a card of this game" in err
    assert "did you mean 'lost_city'?" in err
    assert path.read_bytes() == before


def test_variant_new_creates_a_file_that_checks(project: Project) -> None:
    assert main(["variant", "new", "land_vs_sea/house", "--extends", "experienced"]) == 0
    path = project.cards / "land_vs_sea" / "variants" / "house.yaml"
    assert "extends: experienced" in path.read_text(encoding="utf-8")
    assert main(["variant", "new", "land_vs_sea/house"]) == 1


# -- diff and errata


def test_diff_prints_what_changed_from_what_to_what(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _write_variant(
        project,
        "house",
        "cards:\n  lost_city: {city: false}\nremove: [menhir_scoring]\n"
        'add: |\n  tile "Reef" {\n    edges all_land_or_all_sea\n  }\n',
    )
    assert main(["diff", "land_vs_sea", "land_vs_sea/house"]) == 0
    out = capsys.readouterr().out
    assert "changed tile lost_city (Lost City):\n  city: true -> false" in out
    assert "added tile reef (Reef)" in out
    assert "removed layer menhir_scoring (Menhir scoring)" in out
    assert main(["diff", "land_vs_sea/experienced", "land_vs_sea/house"]) == 0
    out = capsys.readouterr().out
    assert "experienced -> house" in out
    # experienced takes Bandit and Pirate scoring out; house keeps it: from one to the other
    # it comes back, and Menhir scoring, out of both, is no change.
    assert "added layer bandit_and_pirate_scoring (Bandit and Pirate scoring)" in out
    assert "menhir" not in out


def test_errata_lists_exactly_the_changed_cards(project: Project) -> None:
    _write_variant(project, "house", "cards:\n  lost_city: {city: false}\n")
    out = project.root / "errata.md"
    assert main(["diff", "land_vs_sea", "land_vs_sea/house", "--errata", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "## Lost City (tile, `lost_city`)" in text
    assert "| city | true | false |" in text
    assert text.count("## ") == 1  # one changed card, no other section


def test_html_errata_escapes_card_text() -> None:
    base, variant = _base("land_vs_sea"), _base("land_vs_sea")
    variant = {**variant, "variant": "x", "cards": [dict(c) for c in variant["cards"]]}
    variant["cards"][0]["properties"] = {"text": "<b>bold</b>"}
    html = render_errata(diff_ir(base, variant), "T", "html")
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html


def test_errata_prints_only_the_changed_cards_through_the_sheets_emitter(
    project: Project,
) -> None:
    from compiler.variants import sheets_renderer

    if sheets_renderer() is None:
        pytest.skip("the sheets emitter (compiler.sheets) is not installed")
    _write_variant(project, "house", "cards:\n  lost_city: {city: false}\n")
    out = project.root / "errata.md"
    assert main(["diff", "land_vs_sea", "land_vs_sea/house", "--errata", str(out)]) == 0
    sheet = (project.root / "errata.cards.md").read_text(encoding="utf-8")
    # The sheet's cards: one heading a card, before the rules reference page.
    cards = sheet.split("## Cards", 1)[1].split("\n## ", 1)[0]
    assert [line for line in cards.splitlines() if line.startswith("### ")] == ["### Lost City"]


def test_scenarios_run_against_a_variant_with_the_variant_option() -> None:
    # `cardc test --variant harsher_sea`: the base game's "A ship with one Durability space left
    # does not sink" (9 of 10 boxes) sinks on the variant's 8-box track.
    from engine.scenario import Runner

    path = REPO / "tests" / "scenarios" / "uncharted_passage" / "logbook.yaml"
    name = "A ship with one Durability space left does not sink"
    base = {r.name: r for r in Runner(GENERATED).run_file(path)}
    harsh = {r.name: r for r in Runner(GENERATED, variant="harsher_sea").run_file(path)}
    assert base[name].passed
    assert not harsh[name].passed
    # The scenario marks 9 boxes: the variant's track holds 8, which the scenario check finds
    # before anything runs.
    assert "9 is more than 8, the most the boxes of durability (8 boxes) can be" in (
        harsh[name].message
    )
