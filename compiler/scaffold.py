"""``cardc new``: a starter game folder, or a whole new project around one."""

from __future__ import annotations

import re
from pathlib import Path

from compiler.project import GAME_FILE, Project

_GAME_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: The longest game name: it names a folder, files and a Python module.
MAX_NAME = 64


def _shown(text: str) -> str:
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= 80 else shown[:77] + "..."


_GAME_CARDS = """# {title}: what its cards may name. See README.md, "The language".
game {name} "{title}" {{
  players 1..4
  score victory_points
  # A param says what it counts and its bounds: a house rule's params: out of them is refused.
  @provisional("a starting point; set your game's length")
  param rounds 10 {{ counts "the rounds of a game"; min 1 }}
  counter victory_points
  counter coins
  zone hand
  trigger play "when a card is played from the hand"
  kind card "a card of the deck" {{
    property copies number optional
  }}
}}
"""

# The order of play, as data (README, "The flow"): what `cardc sim` plays. Edit it freely.
_FLOW_CARDS = """# How {title} is played: setup, then rounds of turns, then the winner.
# See README.md, "The flow".
flow "{title}" {{
  setup {{
    phase deal "shuffle the deck; each player draws 3" {{
      build_deck hand
      for each p in players {{ draw hand 3 }} @provisional("the opening hand is a guess")
    }}
  }}
  # `param rounds` rounds; in each, every player takes a turn in seat order.
  round rounds {{ }}
  turn {{
    phase draw {{ draw hand 1 }}
    phase play "play a card from the hand, or pass" {{ play_one hand }}
  }}
  winner highest
}}
"""

_EXAMPLE_CARDS = """# Your first card. Run `cardc check` after each edit.
card "Lucky Find" {{
  copies 3 @provisional("how many go in the deck is still open")
  on play {{
    gain coins 2
  }}
}}
"""

# The first rules test: passes as written, so `cardc test` is green from the start; the
# schema comment lets a YAML editor complete and check it (README, "Scenarios").
_SCENARIO = """# yaml-language-server: $schema=../../../generated/{name}/scenario.schema.json
# A rules test: given state, steps, and what must hold after. Run `cardc build`, then
# `cardc test`. See README.md, "Scenarios".
scenario: Lucky Find gives 2 coins when played
rulebook: "Lucky Find: gain 2 coins."
game: {name}
given:
  player:
    counters: {{coins: 1}}
do:
  - run: lucky_find.play
expect:
  player:
    counters: {{coins: 3}}
  events_exactly:
    - gain player 1 coins 2
"""

_PYPROJECT = """[tool.cardc]
cards = "cards"
generated = "generated"
scenarios = "tests/scenarios"
"""


class ScaffoldError(Exception):
    """A ``cardc new`` request that cannot be carried out."""


def scaffold(game: str, project: Project | None, cwd: Path) -> list[str]:
    """Create the files for ``game``; return one line per file created."""
    if not _GAME_NAME.fullmatch(game):
        # The name it likely means, when one can be made of it ("My Game": my_game).
        meant = re.sub(r"[^a-z0-9]+", "_", game.lower()).strip("_")
        such = f" (cardc new {meant})" if _GAME_NAME.fullmatch(meant) and meant != game else ""
        raise SystemExit(
            f"cardc new: '{_shown(game)}' is not a game name\n"
            "  hint: use lower_snake_case letters, digits and '_', starting with a letter" + such
        )
    from compiler.project import RESERVED_GAMES
    from dsl.parser import KEYWORDS

    # 'flow' opens a flow declaration wherever a declaration may start.
    keywords = KEYWORDS | {"flow"}
    if game in keywords or game in RESERVED_GAMES:
        # 'game if "If" {' does not parse, and a game 'sheets' is written into
        # generated/sheets/: the starter project would not check.
        why = f"'{game}' is a keyword of the language" if game in keywords else RESERVED_GAMES[game]
        raise SystemExit(
            f"cardc new: '{game}' cannot name a game: {why}\n"
            f"  hint: choose another name, such as my_{game}"
        )
    if len(game) > MAX_NAME:
        # It names a folder and a Python module: file systems stop at 255 bytes.
        raise SystemExit(
            f"cardc new: a game name is at most {MAX_NAME} characters, not {len(game)}\n"
            "  hint: choose a shorter name; the game's title can be as long as you like"
        )
    created: list[str] = []
    if project is None:
        root = cwd / game
        if root.exists():
            raise SystemExit(f"cardc new: '{root}' already exists\n  hint: choose another name")
        root.mkdir(parents=True)
        (root / "pyproject.toml").write_text(_PYPROJECT, encoding="utf-8")
        created.append(f"created {root / 'pyproject.toml'}")
        cards = root / "cards"
        scenarios = root / "tests" / "scenarios"
    else:
        cards = project.cards
        scenarios = project.scenarios
    folder = cards / game
    if folder.exists():
        raise SystemExit(f"cardc new: '{folder}' already exists\n  hint: choose another name")
    folder.mkdir(parents=True)
    (folder / "variants").mkdir()
    (scenarios / game).mkdir(parents=True, exist_ok=True)
    title = game.replace("_", " ").title()
    (folder / GAME_FILE).write_text(_GAME_CARDS.format(name=game, title=title), encoding="utf-8")
    (folder / "cards.cards").write_text(_EXAMPLE_CARDS.format(), encoding="utf-8")
    (folder / "flow.cards").write_text(_FLOW_CARDS.format(title=title), encoding="utf-8")
    created += [
        f"created {folder / GAME_FILE}",
        f"created {folder / 'cards.cards'}",
        f"created {folder / 'flow.cards'}",
    ]
    starter = scenarios / game / "lucky_find.yaml"
    if not starter.exists():
        starter.write_text(_SCENARIO.format(name=game), encoding="utf-8")
        created.append(f"created {starter}")
    created.append(
        f"next: cd {folder.parent.parent} && cardc check && cardc build && cardc test "
        f"&& cardc sim {game}"
    )
    return created
