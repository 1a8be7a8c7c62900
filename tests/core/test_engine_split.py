"""GameBase is the protocol over a game's hooks; its checks, saving and notation are
mixed in from modules of their own, and a game sees one class as before.

Each concern is written in one module (``core/_validation.py``, ``core/_saving.py``,
``core/_notation.py``) and nowhere else, and the names a game or a user calls on
``GameBase`` are all still there, on the class and on a game's instance.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl import GameBase
from cardcrawl.core._notation import NotationMixin
from cardcrawl.core._saving import SavingMixin
from cardcrawl.core._validation import ValidationMixin

CORE = Path(cardcrawl.__file__).parent / "core"

# Where each concern's public methods are written, and only there.
CONCERNS = {
    ValidationMixin: ("validate", "state_problems", "census_problems", "check_player"),
    SavingMixin: (
        "state_to_data",
        "state_from_data",
        "action_to_data",
        "action_from_data",
        "observation_type",
        "observation_to_data",
        "observation_from_data",
        "observation_schema",
        "state_schema",
    ),
    NotationMixin: (
        "notation",
        "position",
        "build",
        "observation_notation",
        "observation_position",
    ),
}
# The protocol GameBase itself writes over the hooks.
PROTOCOL = (
    "initial_state",
    "reseed",
    "current_player",
    "legal_actions",
    "chance_outcomes",
    "check",
    "is_legal",
    "step",
    "describe",
    "is_terminal",
    "returns",
    "format_action",
    "sample_state",
)


def defined_in(cls: type) -> set[str]:
    """The names a class's own body defines (not those it inherits)."""
    return set(vars(cls))


@pytest.mark.parametrize("mixin", list(CONCERNS), ids=lambda mixin: mixin.__name__)
def test_each_concern_is_written_in_its_module_alone(mixin: type) -> None:
    names = CONCERNS[mixin]
    assert set(names) <= defined_in(mixin)
    assert not set(names) & defined_in(GameBase)
    assert issubclass(GameBase, mixin)
    for name in names:
        assert getattr(GameBase, name) is getattr(mixin, name)


def test_gamebase_writes_the_protocol_itself() -> None:
    assert set(PROTOCOL) <= defined_in(GameBase)


@pytest.mark.parametrize("game_name", ["mapless-house", "escape-from-haydes"])
def test_a_game_still_answers_every_name(game_name: str) -> None:
    game = cardcrawl.load(game_name)
    state = game.initial_state(seed=3)
    for names in (*CONCERNS.values(), PROTOCOL):
        for name in names:
            assert callable(getattr(game, name)) or name == "observation_type", name
    # One call of each concern, through the game, as a user makes it.
    game.validate(state)
    assert game.state_from_data(game.state_to_data(state)) == state
    assert game.position(game.notation(state)).rng == state.rng


def test_the_concern_modules_name_no_game() -> None:
    # Generic modules never import a game package.
    for module in ("_validation.py", "_saving.py", "_notation.py", "_engine.py"):
        tree = ast.parse((CORE / module).read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        assert not {m for m in imported if m.startswith(("cardcrawl.mapless", "cardcrawl.haydes"))}


def test_the_checks_fail_on_a_method_written_twice() -> None:
    # A subclass that writes validate again in its own body is seen doing so.
    class Twice(GameBase):  # type: ignore[type-arg]
        def validate(self, state: object) -> None:
            raise NotImplementedError

    assert "validate" in defined_in(Twice)
    assert inspect.isabstract(Twice)
