"""Game options on the command line: ``-o NAME=VALUE`` everywhere, and the shortcut flags
and default limits that each game declares in its ``GameTools``, never the CLI itself.

The games here are registered by the tests (a Mapless House under other names, with
tools of their own), so what is checked is that the flags follow the registry.
"""

from __future__ import annotations

import ast
import io
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.cli._main import main
from cardcrawl.core import _registry
from cardcrawl.mapless import MaplessHouse

CLI = Path(cardcrawl.__file__).parent / "cli"
HOUSE = "cc-test-shortcut-house"
PREFIX = "cc_shortcut_test_"


class ShortcutHouse(MaplessHouse):
    """The Mapless House under another name, with tools of its own."""


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test leaves the registry, ``sys.path`` and ``sys.modules`` as they were."""
    saved = dict(_registry._REGISTRY)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)
    for name in [m for m in sys.modules if m.startswith(PREFIX)]:
        del sys.modules[name]


def register(name: str = HOUSE, **tools: Any) -> None:
    tool = cardcrawl.GameTools(**tools)
    cardcrawl.register_game(name, ShortcutHouse, description="A test.", tools=tool, replace=True)


def run(*argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def simulate(*argv: str) -> tuple[int, str, str]:
    return run("simulate", *argv, "--games", "3", "--workers", "1", "--progress", "none")


def record_options(path: Path) -> dict[str, object]:
    return dict(cardcrawl.Record.from_json(path.read_text("utf-8")).options)


# ------------------------------------------------------ from the registry
def test_a_registered_games_shortcut_sets_its_option(tmp_path: Path) -> None:
    register(shortcuts={"max_turns": "--max-turns"}, limit=("max_turns", 7))
    path = tmp_path / "game.json"
    code, out, err = run(
        "play", HOUSE, "--bot", "random", "--seed", "1", "--max-turns", "3", "--record", str(path)
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == f"Record saved to {path}."
    assert record_options(path)["max_turns"] == 3


def test_a_simulation_gets_the_limit_its_game_declares() -> None:
    register(shortcuts={"max_turns": "--max-turns"}, limit=("max_turns", 7))
    code, out, err = simulate(HOUSE)
    assert code == 0, err
    assert out.splitlines()[0] == f"{HOUSE}, 3 games per bot, seed 0, options max_turns=7"
    # A limit given wins over the default.
    code, out, _ = simulate(HOUSE, "--max-turns", "5")
    assert out.splitlines()[0].endswith("options max_turns=5")


def test_a_game_without_a_declared_limit_simulates_with_the_options_it_is_given() -> None:
    register()
    code, out, _ = simulate(HOUSE, "-o", "max_turns=4")
    assert code == 0
    assert out.splitlines()[0].endswith("options max_turns=4")


def test_a_flag_of_the_games_own_choosing(tmp_path: Path) -> None:
    register(shortcuts={"max_turns": "--turns"})
    code, out, _ = run("play", "--help")
    assert code == 0
    # Help wraps lines, at hyphens too.
    help_text = "".join(out.split())
    assert f"--turnsMAX_TURNSshortcutfor-omax_turns=MAX_TURNS({HOUSE})" in help_text
    path = tmp_path / "game.json"
    code, _, err = run("play", HOUSE, "--bot", "random", "--turns", "2", "--record", str(path))
    assert code == 0, err
    assert record_options(path)["max_turns"] == 2
    code, _, err = simulate(HOUSE, "--turns", "6")
    assert code == 0, err


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_flag_the_game_does_not_declare_is_a_usage_error(command: str) -> None:
    register(shortcuts={"max_turns": "--turns"})
    register("cc-test-plain-house")
    code, out, err = run(command, "cc-test-plain-house", "--bot", "random", "--turns", "2")
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: cardcrawl {command}")
    assert (
        f"cardcrawl {command}: error: cc-test-plain-house has no shortcut --turns; "
        "give -o max_turns=VALUE"
    ) in err


def test_a_flag_for_an_option_the_game_lacks_names_the_option() -> None:
    register(shortcuts={"max_turns": "--turns", "dread": "--dread"})
    register("cc-test-plain-house")
    code, _, err = run("play", "cc-test-plain-house", "--bot", "random", "--dread", "2")
    assert code == 2
    assert "cc-test-plain-house has no option 'dread' (set by --dread); its options are: " in err
    code, _, err = run("play", HOUSE, "--bot", "random", "--dread", "2")
    assert code == 2
    assert f"{HOUSE} has no option 'dread' (set by --dread)" in err


def test_shortcut_values_are_read_as_option_values_are() -> None:
    register(shortcuts={"max_turns": "--turns"})
    code, _, err = run("play", HOUSE, "--bot", "random", "--turns", "0")
    assert code == 2
    assert "max_turns" in err
    code, _, err = run("play", HOUSE, "--bot", "random", "--turns", "1" * 5_000)
    assert code == 2
    assert "--turns: the value is JSON, but it holds an integer of more than" in err
    code, _, err = run("play", HOUSE, "--bot", "random", "--turns", "3", "-o", "max_turns=4")
    assert code == 2
    assert "option 'max_turns' is given both by --turns and by -o" in err


def test_a_flag_that_is_a_commands_own_or_no_flag_is_not_offered(tmp_path: Path) -> None:
    register(shortcuts={"max_turns": "--seed", "dread_lines": "dread"})
    path = tmp_path / "game.json"
    code, _, err = run("play", HOUSE, "--bot", "random", "--seed", "4", "--record", str(path))
    assert code == 0, err
    record = cardcrawl.Record.from_json(path.read_text("utf-8"))
    assert record.seed == 4
    assert record.options == cardcrawl.load(HOUSE).options.to_data()
    assert run("play", "--help")[0] == 0


def test_a_module_named_with_import_brings_its_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = f"{PREFIX}house"
    (tmp_path / f"{module}.py").write_text(
        textwrap.dedent(
            """
            import cardcrawl
            from cardcrawl.mapless import MaplessHouse

            cardcrawl.register_game(
                "cc-imported-house", MaplessHouse, replace=True,
                tools=cardcrawl.GameTools(shortcuts={"max_turns": "--imported-turns"}))
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "game.json"
    code, _, err = run(
        *("play", "cc-imported-house", "--bot", "random", "--imported-turns", "2"),
        *("--import", module, "--record", str(path)),
    )
    assert code == 0, err
    assert record_options(path)["max_turns"] == 2


def test_a_module_that_does_not_import_is_the_error_told() -> None:
    code, out, err = run(
        "play", "cc-missing-house", "--missing-turns", "2", "--import", f"{PREFIX}missing"
    )
    assert (code, out) == (2, "")
    assert err.startswith("usage: cardcrawl play")
    assert f"cardcrawl play: error: --import {PREFIX}missing: module" in err
    assert "unrecognized" not in err


def test_the_flags_of_a_plugins_game_are_read_once_plugins_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first reading uses the games registered so far; a game (or a flag) it does
    not know makes the command line load the plug-ins and read the arguments again."""
    loads: list[str] = []

    def load_plugins() -> tuple[str, ...]:
        loads.append("loaded")
        register("cc-plugin-house", shortcuts={"max_turns": "--plugin-turns"})
        return cardcrawl.game_names()

    monkeypatch.setattr("cardcrawl.cli._main.game_names", load_plugins)
    assert run("play", "mapless-house", "--bot", "random", "--seed", "2")[0] == 0
    assert loads == []
    code, _, err = run("play", "cc-plugin-house", "--bot", "random", "--plugin-turns", "2")
    assert code == 0, err
    assert loads == ["loaded"]


# --------------------------------------------------------------- -o, --output
def test_render_takes_no_o_and_names_output(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert run("play", "mapless-house", "--bot", "random", "--record", str(path))[0] == 0
    for argv in (["-o", str(tmp_path / "x.svg")], ["-o"], [f"-o{tmp_path / 'x.svg'}"]):
        code, out, err = run("render", str(path), *argv)
        assert (code, out) == (2, "")
        assert err.startswith("usage: cardcrawl render")
        assert "--output FILE" in err.splitlines()[-1]
        assert "Traceback" not in err
    assert not (tmp_path / "x.svg").exists()


def test_render_writes_to_output(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    svg = tmp_path / "last.svg"
    run("play", "mapless-house", "--bot", "random", "--seed", "3", "--record", str(path))
    code, out, err = run("render", str(path), "--output", str(svg))
    assert (code, err) == (0, "")
    assert out.endswith(f"drawn to {svg}.\n")
    assert svg.read_text("utf-8") == run("render", str(path))[1]
    code, _, err = run("render", str(path), "--output", str(tmp_path / "no" / "x.svg"))
    assert code == 2
    assert "--output" in err
    assert "does not exist" in err


def test_simulate_writes_to_output(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    code, out, err = simulate("mapless-house", "--output", str(path))
    assert code == 0, err
    assert f"Wrote {path}." in out
    code, _, err = simulate("mapless-house", "--output", str(tmp_path / "run.txt"))
    assert code == 2
    assert "--output" in err


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_o_is_a_game_option_in_every_command_that_has_options(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "-o NAME=VALUE, --option NAME=VALUE" in out


# ------------------------------------------------------------ no game named
def _code_strings(path: Path) -> Iterator[str]:
    """The string constants of a module, its docstrings left out."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and id(node) not in docstrings:
            yield node.value


@pytest.mark.parametrize("path", sorted(CLI.glob("*.py")), ids=lambda path: path.name)
def test_no_command_line_module_names_a_game(path: Path) -> None:
    """The games, their options and their flags come from the registry, not the CLI."""
    words = ("mapless", "haydes", "max_turns", "max_rounds", "--max-turns", "--max-rounds")
    words += ("--players",)
    named = [text for text in _code_strings(path) if any(word in text for word in words)]
    assert named == []
