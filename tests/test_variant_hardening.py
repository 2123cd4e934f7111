"""Issue 14's reproducers for variants: wrong values accepted, crashes of ``variant set``, and
edits that lost a designer's bytes. Each runs ``cardc`` in process on a copy of Land vs Sea
(its ``lost_traders`` tile has numeric properties, ``lost_city`` a boolean one).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

import pytest

from compiler.cli import main

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'
VARIANT = Path("cards/land_vs_sea/variants/house.yaml")


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of Land vs Sea, the current directory."""
    shutil.copytree(REPO / "cards" / "land_vs_sea", tmp_path / "cards" / "land_vs_sea")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``cardc argv...`` in process: the exit status and everything it printed."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out + err


def check(capsys: pytest.CaptureFixture[str], text: str | bytes) -> tuple[int, str]:
    """``cardc check`` with the variant file ``house.yaml`` holding ``text``."""
    if isinstance(text, str):
        text = text.encode()
    VARIANT.write_bytes(text)
    return run(capsys, "check")


# -- values are held to the DSL's rules


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("tracks: {}\ncards: {lost_traders: {land_icons: .nan}}\n", "2:36", "NaN is not a number"),
        ("cards:\n  lost_traders: {land_icons: .inf}\n", "2:30", "an infinite number"),
        ("cards:\n  lost_traders: {land_icons: -.inf}\n", "2:30", "an infinite number"),
        ("cards:\n  lost_traders: {land_icons: 1e23}\n", "2:30", "too large a number"),
        ("description: [a, b]\n", "1:14", "'description' is one line of text"),
        ("description: {a: 1}\n", "1:14", "'description' is one line of text"),
    ],
)
def test_wrong_values_are_errors_at_the_value(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, message: str
) -> None:
    status, out = check(capsys, text)
    assert status == 1, out
    assert f"{VARIANT}:{where}: error[variant-value]" in out
    assert message in out


def test_a_control_character_in_text_is_card_text_not_an_unknown_escape(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # YAML's "\x07" is the BEL character; the DSL writes it \u{7}. It was reported as
    # "unknown escape '\u'" because the value went to the DSL as JSON.
    status, out = check(capsys, 'cards:\n  lost_city: {text: "bell\\x07 and \\"quotes\\""}\n')
    assert status == 0, out
    assert "unknown escape" not in out


def test_positions_inside_an_add_block_s_messages_are_the_yaml_s(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = 'description: x\nadd: |\n  tile "Spring" {\n    city (true\n  }\n'
    status, out = check(capsys, text)
    assert status == 1
    # The '(' is on YAML line 4, column 10; the '}' the hint names on line 5.
    assert f"{VARIANT}:4:10: error[unclosed-bracket]" in out
    assert "opened at 4:10" in out
    assert "before the '}' on line 5" in out


@pytest.mark.parametrize(
    "text, message",
    [
        ("- a\n- b\n", "a variant is a mapping of keys"),
        ("a: [\n", "this is not valid YAML"),
        (b"description: x\n\xff\n", "2:1: error[not-utf8]: this file is not valid UTF-8"),
        ("description: \x01\n", "not valid YAML: the character U+0001"),
        # Found by tests/test_fuzz.py: a tagged scalar has no position (it crashed).
        ("!!python/object:os.system\n", "a variant is a mapping of keys"),
    ],
)
def test_a_variant_that_is_not_a_mapping_of_yaml_is_an_error_of_that_file(
    project: Path, capsys: pytest.CaptureFixture[str], text: str | bytes, message: str
) -> None:
    status, out = check(capsys, text)
    assert status == 1, out
    assert f"{VARIANT}:" in out and message in out
    # The error is the file's own, not one "with the variant 'house'" in some other file.
    assert "with the variant" not in out


# -- variant set / unset


@pytest.mark.parametrize("path", [".", "..", "cards..copies", ""])
def test_a_path_that_is_no_path_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    VARIANT.write_text("description: x\n")
    status, out = run(capsys, "variant", "set", "land_vs_sea/house", path, "3")
    assert status == 2
    assert "is not a PATH" in out and "internal error" not in out


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "- a\n- b\n",
            "a variant is a mapping of keys (description, params, cards, ...), not a list",
        ),
        ("a: [\n", "house.yaml:2:1: this is not valid YAML"),
        (b"\xff\xfe", "house.yaml:1:1: this file is not valid UTF-8"),
        ("a: 1\r\nb: 2\n", "mixes line ends"),
    ],
)
def test_set_on_a_file_it_cannot_edit_refuses_and_leaves_it(
    project: Path, capsys: pytest.CaptureFixture[str], text: str | bytes, message: str
) -> None:
    raw = text.encode() if isinstance(text, str) else text
    VARIANT.write_bytes(raw)
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_city.city", "false"
    )
    assert status == 1, out
    assert message in out and "internal error" not in out
    assert VARIANT.read_bytes() == raw


@pytest.mark.parametrize("value", [".nan", ".inf", "100000000000000000000000", "1e23"])
def test_set_refuses_a_number_a_card_cannot_hold(
    project: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    VARIANT.write_text("description: x\n")
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_traders.land_icons", value
    )
    assert status == 1, out
    assert VARIANT.read_text() == "description: x\n"


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(
            b"# why\ndescription: x\nremove:\n  - menhir_scoring\n# the end\n", id="trailing"
        ),
        pytest.param(b"description: x  # eol\n\n# after a blank line\n", id="trailing-eol"),
        pytest.param(b"\xef\xbb\xbfdescription: x\n", id="bom"),
        pytest.param(b"description: x\r\nremove:\r\n  - menhir_scoring\r\n", id="crlf"),
        pytest.param(b"---\ndescription: x\n", id="document-start"),
        pytest.param(b"# header\n---\ndescription: x\n", id="comment-before-start"),
        pytest.param(b"cards:\n    lost_city:\n        city: true\n", id="four-spaces"),
        pytest.param(b"remove:\n- menhir_scoring\n", id="unindented-list"),
        pytest.param(b"# only comments\n", id="comments-only"),
        pytest.param(b"", id="empty"),
    ],
)
def test_set_then_unset_gives_the_file_back_byte_for_byte(
    project: Path, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    VARIANT.write_bytes(raw)
    # A value the card data plays (a bare '3' is no icon: refused at cardc check).
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_traders.land_icons", "caravan 3"
    )
    assert status == 0, out
    edited = VARIANT.read_bytes()
    assert b"land_icons: caravan 3" in edited
    # The shape of the file is kept by the edit itself too.
    assert edited.startswith(b"\xef\xbb\xbf") == raw.startswith(b"\xef\xbb\xbf")
    assert (b"\r\n" in edited) == (b"\r\n" in raw)
    status, out = run(
        capsys, "variant", "unset", "land_vs_sea/house", "cards.lost_traders.land_icons"
    )
    assert status == 0, out
    assert VARIANT.read_bytes() == raw


def test_a_comment_after_the_last_key_stays_when_that_key_is_unset(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    VARIANT.write_text("description: x\ncards:\n  lost_city:\n    city: false\n# keep me\n")
    status, out = run(capsys, "variant", "unset", "land_vs_sea/house", "cards.lost_city.city")
    assert status == 0, out
    assert VARIANT.read_text() == "description: x\n# keep me\n"


def test_a_file_ruamel_would_rewrite_elsewhere_is_refused_with_the_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = "description: x\n...\n"
    VARIANT.write_text(raw)
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_city.city", "false"
    )
    assert status == 1
    assert f"{VARIANT}:2: cardc cannot rewrite this file without changing other lines" in out
    assert VARIANT.read_text() == raw


def test_set_writes_atomically_and_keeps_the_file_mode(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    VARIANT.write_text("description: x\n")
    os.chmod(VARIANT, 0o640)
    before = VARIANT.stat().st_ino
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_city.city", "false"
    )
    assert status == 0, out
    # A new file renamed over the old one (never the old one truncated and rewritten).
    assert VARIANT.stat().st_ino != before
    assert stat.S_IMODE(VARIANT.stat().st_mode) == 0o640
    assert not [p for p in VARIANT.parent.iterdir() if p.name.startswith(".")]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_variants_folder_is_a_message(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    VARIANT.write_text("description: x\n")
    folder = VARIANT.parent
    os.chmod(folder, 0o555)
    try:
        status, out = run(
            capsys, "variant", "set", "land_vs_sea/house", "cards.lost_city.city", "false"
        )
    finally:
        os.chmod(folder, 0o755)
    assert status == 1
    assert "cannot use" in out and "internal error" not in out
    assert VARIANT.read_text() == "description: x\n"


@pytest.mark.parametrize(
    "code, hint",
    [(errno.EROFS, "read-only"), (errno.ENOSPC, "the disk is full"), (errno.EACCES, "permissions")],
)
def test_a_write_the_system_refuses_is_a_message_and_the_file_stays(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    code: int,
    hint: str,
) -> None:
    # Root ignores permissions, so the system's answer is simulated where cardc writes.
    import compiler.variant_edit

    def refuse(path: Path, data: bytes) -> None:
        raise OSError(code, os.strerror(code), str(path))

    VARIANT.write_text("description: x\n")
    monkeypatch.setattr(compiler.variant_edit, "write_atomic", refuse)
    status, out = run(
        capsys, "variant", "set", "land_vs_sea/house", "cards.lost_city.city", "false"
    )
    assert status == 1
    assert f"cardc: cannot use {VARIANT}: {os.strerror(code)}" in out
    assert hint in out and "internal error" not in out
    assert VARIANT.read_text() == "description: x\n"


@pytest.mark.parametrize(
    "text, code",
    [
        ("extends: ../experienced\n", "variant-extends"),
        ("extends: /tmp/x\n", "variant-extends"),
        ("add_files: [../tiles.cards]\n", "variant-path"),
        ("add_files: [/etc/hostname.cards]\n", "variant-path"),
    ],
)
def test_a_variant_names_its_parent_and_files_not_paths(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, code: str
) -> None:
    # `extends: ../x` crashed (ValueError from Path.with_name); add_files read files
    # anywhere on disk.
    status, out = check(capsys, text)
    assert status == 1, out
    assert f"{VARIANT}:1:" in out and f"error[{code}]" in out
    assert "internal error" not in out and "duplicate-card" not in out
