"""Plug-ins: games and variants from installed packages (entry points) and from --import.

The example package (``examples/plugin_package``) is built with the project's own build
backend and installed into a temporary folder, never into the environment running the
tests; the command line then runs in a fresh interpreter with that folder on
``PYTHONPATH``, exactly as it would for a user who installed the package. The rest runs
in-process: lazy loading and broken plug-ins against hand-made distributions (a
``.dist-info`` folder is all that ``importlib.metadata`` reads), and ``--import``
against modules written to a temporary folder.
"""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardcrawl
from cardcrawl.cli._main import main
from cardcrawl.core import _registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "plugin_package"
# Every module these tests write starts with this, so that they can be forgotten after.
PREFIX = "cc_plugtest_"
EXAMPLE_MODULE = "cardcrawl_example_variants"


# ------------------------------------------------------------- fixtures
@pytest.fixture(autouse=True)
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with no plug-in tried and leaves the registry, the plug-in
    bookkeeping, ``sys.path`` and ``sys.modules`` as they were."""
    saved = dict(_registry._REGISTRY)
    # Set afresh, and restored by monkeypatch after this fixture's teardown.
    monkeypatch.setattr(_registry, "_DISCOVERED", None)
    monkeypatch.setattr(_registry, "_TRIED", set())
    monkeypatch.setattr(_registry, "_LOADED", [])
    monkeypatch.setattr(_registry, "_FAILURES", [])
    # --import may append the current directory to sys.path; restored with the list.
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)
    for name in [m for m in sys.modules if m.startswith((PREFIX, EXAMPLE_MODULE))]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder holding the example package, built and installed as pip installs it."""
    if importlib.util.find_spec("hatchling") is None:
        message = "hatchling (in the test extra) builds the example package offline"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    work = tmp_path_factory.mktemp("plugin-package")
    # Built from a copy, so that no build output can land in the repository.
    source = work / "source"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__"))
    target = work / "site"
    command = [
        *(sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"),
        *("--no-build-isolation", "--no-deps", "--no-index", "--no-cache-dir"),
        *("--target", str(target), str(source)),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / EXAMPLE_MODULE / "__init__.py").is_file()
    yield target
    shutil.rmtree(work, ignore_errors=True)


def cli(*argv: str, cwd: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m cardcrawl ARGV`` in a fresh interpreter, with ``site`` importable."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    paths = [str(site)] if site is not None else []
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return subprocess.run(
        [sys.executable, "-m", "cardcrawl", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )


def run(*argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def distribution(
    folder: Path, name: str, entry_points: dict[str, str], modules: dict[str, str]
) -> Path:
    """An installed distribution in ``folder``, put on ``sys.path``: its metadata, its
    entry points in ``cardcrawl.games`` and its modules (name to source)."""
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = [f"[{cardcrawl.ENTRY_POINT_GROUP}]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for module, code in modules.items():
        (folder / f"{module}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    return folder


GOOD = {
    f"{PREFIX}good": """
        import cardcrawl

        def register():
            cardcrawl.register_variant(
                "cc-good-variant", base="mapless-house", options={"max_turns": 7},
                description="A variant from a good plug-in.")
            # Counts its calls: a plug-in must be loaded once, however many lookups.
            from pathlib import Path
            with open(Path(__file__).with_suffix(".calls"), "a") as calls:
                calls.write("x")
        """
}
BROKEN = {
    f"{PREFIX}broken": """
        from pathlib import Path
        with open(Path(__file__).with_suffix(".calls"), "a") as calls:
            calls.write("x")
        import cc_plugtest_no_such_dependency  # noqa: F401
        """
}


def calls(folder: Path, module: str) -> int:
    path = folder / f"{module}.calls"
    return len(path.read_text()) if path.exists() else 0


# --------------------------------------------- the installed example package
def test_games_lists_the_variants_of_an_installed_plugin(site: Path, tmp_path: Path) -> None:
    done = cli("games", cwd=tmp_path, site=site)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert "lost after 12 turns" in lines["mapless-house-sprint"]
    assert "(a variant of mapless-house)" in lines["mapless-house-sprint"]
    assert "(a variant of escape-from-haydes)" in lines["escape-from-haydes-sprint"]
    assert "mapless-house" in lines
    # Without the package on the path, neither variant exists.
    bare = cli("games", cwd=tmp_path)
    assert bare.returncode == 0
    assert "sprint" not in bare.stdout


def test_a_plugin_variant_plays_records_and_replays(site: Path, tmp_path: Path) -> None:
    record_path = tmp_path / "sprint.json"
    played = cli(
        *("play", "mapless-house-sprint", "--bot", "random", "--seed", "1"),
        *("--record", str(record_path)),
        cwd=tmp_path,
        site=site,
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.splitlines()[-2].startswith("Result: ")
    record = cardcrawl.Record.from_json(record_path.read_text("utf-8"))
    assert (record.game, record.seed, record.options["max_turns"]) == (
        "mapless-house-sprint",
        1,
        12,
    )

    replayed = cli("replay", str(record_path), cwd=tmp_path, site=site)
    assert replayed.returncode == 0, replayed.stderr
    header, *story = replayed.stdout.splitlines()
    assert header == f"Replaying mapless-house-sprint with seed 1 ({len(record.actions)} actions)."
    # The same story as the game, but for the "Record saved" note.
    assert story == played.stdout.splitlines()[:-1]

    # Where the plug-in is not installed, the record cannot be replayed, and the
    # message says how to bring the variant in.
    bare = cli("replay", str(record_path), cwd=tmp_path)
    assert bare.returncode == 1
    assert "no game or variant is named 'mapless-house-sprint'" in bare.stderr
    assert "--import" in bare.stderr
    assert "Traceback" not in bare.stderr


def test_a_variant_registered_by_a_plugin_function_plays_and_renders(
    site: Path, tmp_path: Path
) -> None:
    record_path = tmp_path / "haydes.json"
    played = cli(
        *("play", "escape-from-haydes-sprint", "--bot", "random", "--seed", "1"),
        *("--record", str(record_path)),
        cwd=tmp_path,
        site=site,
    )
    assert played.returncode == 0, played.stderr
    record = cardcrawl.Record.from_json(record_path.read_text("utf-8"))
    assert (record.game, record.options["max_rounds"]) == ("escape-from-haydes-sprint", 8)
    drawn = cli("render", str(record_path), cwd=tmp_path, site=site)
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.startswith("<svg")


def test_records_of_plugin_variants_load_in_process(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = cardcrawl.load("mapless-house", max_turns=12)
    data = {
        **cardcrawl.Record.of(base, seed=3, actions=["place 1,0"]).to_data(),
        "game": "mapless-house-sprint",
    }
    with pytest.raises(cardcrawl.RecordError, match="no game or variant"):
        cardcrawl.Record.from_data(data).load_game()
    monkeypatch.syspath_prepend(str(site))
    # Installed after the first lookup: load_plugins looks for plug-ins again.
    assert "sprint = cardcrawl_example_variants" in cardcrawl.load_plugins()
    record = cardcrawl.Record.from_data(data)
    game = record.load_game()
    assert (game.name, game.options.max_turns) == ("mapless-house-sprint", 12)
    assert record.replay() == base.step(base.initial_state(3), base.parse_action("place 1,0"))
    assert cardcrawl.Match.from_record(record).actions == (base.parse_action("place 1,0"),)


def test_the_first_lookup_of_an_unknown_name_loads_the_plugins(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(site))
    assert "mapless-house-sprint" not in _registry._known_names()
    spec = cardcrawl.get_spec("mapless-house-sprint")
    assert (spec.base, spec.preset["max_turns"]) == ("mapless-house", 12)
    # Both entry points of the package were loaded by that one lookup.
    assert cardcrawl.load("escape-from-haydes-sprint").options.max_rounds == 8
    assert {
        "sprint = cardcrawl_example_variants",
        "sprint-haydes = cardcrawl_example_variants.haydes:register",
    } <= set(_registry._LOADED)


# --------------------------------------------------- lazy loading, failures
def test_lookups_of_registered_names_never_load_plugins(tmp_path: Path) -> None:
    distribution(tmp_path, "cc-plugtest-broken", {"broken": f"{PREFIX}broken"}, BROKEN)
    assert cardcrawl.get_spec("mapless-house").name == "mapless-house"
    game = cardcrawl.load("escape-from-haydes-tuybe")
    record = cardcrawl.Record.of(game, seed=2, actions=[])
    assert cardcrawl.Record.from_json(record.to_json()).replay() == game.initial_state(2)
    assert run("play", "mapless-house", "--bot", "random", "--seed", "1")[0] == 0
    assert not _registry._TRIED
    assert calls(tmp_path, f"{PREFIX}broken") == 0


def test_plugins_load_once_however_many_lookups(tmp_path: Path) -> None:
    distribution(tmp_path, "cc-plugtest-good", {"good": f"{PREFIX}good:register"}, GOOD)
    assert cardcrawl.load("cc-good-variant").options.max_turns == 7
    for _ in range(3):
        with pytest.raises(cardcrawl.UnknownGameError) as caught:
            cardcrawl.get_spec("cc-no-such-game")
        assert not isinstance(caught.value, cardcrawl.PluginError)
    assert "cc-good-variant" in cardcrawl.game_names()
    assert f"good = {PREFIX}good:register" in cardcrawl.load_plugins()
    assert calls(tmp_path, f"{PREFIX}good") == 1


def test_a_broken_plugin_is_named_with_its_cause(tmp_path: Path) -> None:
    distribution(tmp_path, "cc-plugtest-broken", {"broken": f"{PREFIX}broken"}, BROKEN)
    distribution(tmp_path, "cc-plugtest-good", {"good": f"{PREFIX}good:register"}, GOOD)
    # The good plug-in's variant is found, the broken one notwithstanding.
    assert cardcrawl.get_spec("cc-good-variant").preset["max_turns"] == 7
    with pytest.raises(cardcrawl.PluginError) as caught:
        cardcrawl.get_spec("cc-from-the-broken-one")
    error = caught.value
    message = str(error)
    assert "no game or variant is named 'cc-from-the-broken-one'" in message
    assert f"plug-in 'broken = {PREFIX}broken'" in message
    assert "of cc-plugtest-broken 1.0" in message
    assert "ModuleNotFoundError: No module named 'cc_plugtest_no_such_dependency'" in message
    assert error.plugins == (f"broken = {PREFIX}broken",)
    assert isinstance(error, cardcrawl.UnknownGameError)
    assert isinstance(error.__cause__, ModuleNotFoundError)
    # Every listing or explicit load says so too; the plug-in is not tried again.
    with pytest.raises(cardcrawl.PluginError, match="broken"):
        cardcrawl.game_names()
    with pytest.raises(cardcrawl.PluginError, match="broken"):
        cardcrawl.load_plugins()
    assert calls(tmp_path, f"{PREFIX}broken") == 1
    # A record of a game the plug-in might have held says why it cannot load.
    record = cardcrawl.Record.of(cardcrawl.load("mapless-house"), seed=1, actions=[])
    tampered = cardcrawl.Record.from_data({**record.to_data(), "game": "cc-lost"})
    with pytest.raises(cardcrawl.RecordError, match="ModuleNotFoundError"):
        tampered.replay()


@pytest.mark.parametrize(
    ("value", "code", "cause"),
    [
        (f"{PREFIX}bad:register", "def register():\n    raise RuntimeError('boom')\n", "boom"),
        (f"{PREFIX}bad:LIMIT", "LIMIT = 3\n", "a plug-in names a module to import or a function"),
        (f"{PREFIX}bad:missing", "\n", "AttributeError"),
        (f"{PREFIX}bad", "import cardcrawl\ncardcrawl.register_game('mapless-house', None)\n", ""),
    ],
    ids=["raises", "not-callable", "no-such-function", "name-taken"],
)
def test_every_kind_of_plugin_failure_is_a_plugin_error(
    tmp_path: Path, value: str, code: str, cause: str
) -> None:
    distribution(tmp_path, "cc-plugtest-bad", {"bad": value}, {f"{PREFIX}bad": code})
    with pytest.raises(cardcrawl.PluginError, match=f"plug-in 'bad = {value}'") as caught:
        cardcrawl.load_plugins()
    assert cause in str(caught.value)
    if value.endswith("bad"):
        assert "'mapless-house' is already registered" in str(caught.value)


def test_a_plugin_may_vary_the_game_of_another_plugin(tmp_path: Path) -> None:
    # Loaded in name order, "a-variant" comes first and needs the game "z-game" adds:
    # its lookup loads the other plug-in from inside the first.
    modules = {
        f"{PREFIX}a": """
            import cardcrawl
            cardcrawl.register_variant("cc-z-brief", base="cc-z-house", options={"max_turns": 5})
            """,
        f"{PREFIX}z": """
            import cardcrawl
            from cardcrawl.mapless import MaplessHouse

            class ZHouse(MaplessHouse):
                rules_version = "1-z.1"

            cardcrawl.register_game("cc-z-house", ZHouse)
            """,
    }
    entry_points = {"a-variant": f"{PREFIX}a", "z-game": f"{PREFIX}z"}
    distribution(tmp_path, "cc-plugtest-pair", entry_points, modules)
    game = cardcrawl.load("cc-z-brief")
    assert (game.rules_version, game.options.max_turns) == ("1-z.1", 5)
    assert cardcrawl.get_spec("cc-z-brief").base == "cc-z-house"
    loaded = cardcrawl.load_plugins()
    assert loaded.index(f"z-game = {PREFIX}z") < loaded.index(f"a-variant = {PREFIX}a")


def test_games_lists_what_loaded_and_names_a_broken_plugin(tmp_path: Path) -> None:
    distribution(tmp_path, "cc-plugtest-broken", {"broken": f"{PREFIX}broken"}, BROKEN)
    code, out, err = run("games")
    assert code == 1
    assert any(line.startswith("mapless-house ") for line in out.splitlines())
    assert err.startswith("cardcrawl: plug-in 'broken = cc_plugtest_broken'")
    assert "ModuleNotFoundError" in err
    assert "Traceback" not in err
    # A built-in game still plays; an unknown one tells why it may be missing.
    assert run("play", "mapless-house", "--bot", "random", "--seed", "2")[0] == 0
    code, out, err = run("play", "cc-gone", "--bot", "random")
    assert (code, out) == (2, "")
    assert "cc_plugtest_broken" in err
    assert "Traceback" not in err


# ------------------------------------------------------------- --import
HOUSE = """
    import cardcrawl

    cardcrawl.register_variant(
        "cc-tiny-house", base="mapless-house", options={"max_turns": 3},
        description="A house of three turns, from an imported module.")
    """


def module(folder: Path, name: str, code: str) -> str:
    (folder / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return name


def test_import_registers_a_variant_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    name = module(tmp_path, f"{PREFIX}house", HOUSE)
    record_path = tmp_path / "tiny.json"
    assert run("play", "cc-tiny-house", "--bot", "random")[0] == 2  # not imported yet

    code, out, err = run(
        *("play", "--import", name, "cc-tiny-house", "--bot", "random", "--seed", "4"),
        *("--record", str(record_path)),
    )
    assert code == 0, err
    record = cardcrawl.Record.from_json(record_path.read_text("utf-8"))
    assert (record.game, record.options["max_turns"]) == ("cc-tiny-house", 3)

    # Before the command, or after it: both are read.
    code, out, err = run("--import", name, "replay", str(record_path))
    assert code == 0, err
    assert out.startswith("Replaying cc-tiny-house with seed 4")
    code, out, err = run("render", str(record_path), "--import", name)
    assert (code, err) == (0, "")
    assert out.startswith("<svg")
    code, out, _ = run("games", "--import", name)
    assert "cc-tiny-house" in out
    code, out, err = run(
        *("simulate", "--import", name, "cc-tiny-house", "--games", "4"),
        *("--workers", "1", "--progress", "none"),
    )
    assert code == 0, err
    assert out.startswith("cc-tiny-house, 4 games per bot, seed 0, options max_turns=3")


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["play", "mapless-house", "--bot", "random"],
        ["replay", "never-read.json"],
        ["render", "never-read.json"],
        ["simulate", "mapless-house", "--games", "1", "--workers", "1"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_missing_module_is_a_usage_error(argv: list[str]) -> None:
    code, out, err = run(*argv, "--import", f"{PREFIX}missing")
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: cardcrawl {argv[0]}")
    assert f"--import {PREFIX}missing: module '{PREFIX}missing' cannot be imported" in err
    assert f"ModuleNotFoundError: No module named '{PREFIX}missing'" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("raise RuntimeError('the module is broken')\n", "RuntimeError: the module is broken"),
        ("def broken(:\n", "SyntaxError"),
        (
            "import cardcrawl\ncardcrawl.register_variant('mapless-house', base='mapless-house')\n",
            "'mapless-house' is already registered",
        ),
    ],
    ids=["raises", "syntax-error", "name-taken"],
)
def test_a_module_that_fails_to_import_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, message: str
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    name = module(tmp_path, f"{PREFIX}failing", code)
    status, out, err = run("--import", name, "play", "mapless-house", "--bot", "random")
    assert (status, out) == (2, "")
    assert err.startswith("usage: cardcrawl play")
    assert message in err
    assert "Traceback" not in err


def test_import_finds_a_module_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the console script runs: its folder first on the path, not the current one.
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    monkeypatch.chdir(tmp_path)
    name = module(tmp_path, f"{PREFIX}here", HOUSE)
    code, out, err = run("games", "--import", name)
    assert code == 0, err
    assert "cc-tiny-house" in out
    assert sys.path[-1] == str(tmp_path)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("cc_plugtest_file.py", "for the file cc_plugtest_file.py, give the module name"),
        ("some/dir/variants", "is not a module name"),
        ("", "is not a module name"),
    ],
)
def test_import_wants_a_module_name(given: str, message: str) -> None:
    code, _, err = run("games", "--import", given)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_an_unknown_game_suggests_import() -> None:
    code, _, err = run("play", "cc-my-own-variant", "--bot", "random")
    assert code == 2
    assert "no game or variant is named 'cc-my-own-variant'" in err
    assert "--import MODULE" in err


def test_the_plugins_page_quotes_the_example_package() -> None:
    """docs/how-to/plugins.md shows the example's entry points as the package has them."""
    text = (EXAMPLE / "pyproject.toml").read_text("utf-8")
    header = f'[project.entry-points."{cardcrawl.ENTRY_POINT_GROUP}"]'
    declared = text.split(header, 1)[1].strip().split("\n\n", 1)[0].splitlines()
    assert len(declared) == 2
    page = (ROOT / "docs" / "how-to" / "plugins.md").read_text("utf-8")
    for line in [header, *declared]:
        assert line in page
