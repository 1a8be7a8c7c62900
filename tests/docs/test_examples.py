"""The scripts in examples/ run, and print what they claim.

Each script runs in a fresh interpreter, from a temporary directory (so none depends on
the working directory), with a small ``--games``/``--seed`` so the suite stays fast.
The tests check the printed results against the library itself, not just the exit
status. The plot of ``monte_carlo.py`` needs matplotlib (the ``plot`` extra): without
it the script must say that it drew no plot; with ``CARDCRAWL_REQUIRE_EXTRAS=1`` (as
in CI's extras step) a missing matplotlib is a failure.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import random
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardcrawl
from cardcrawl.haydes import Guess
from cardcrawl.simulate import play_game, simulate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run(
    script: str, *args: str, cwd: Path, code: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run an example script (or ``code`` standing in for the interpreter's ``-c``)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg"}
    command = [sys.executable, str(EXAMPLES / script), *args]
    if code is not None:
        command = [sys.executable, "-c", code, str(EXAMPLES / script), *args]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def load(script: str) -> dict[str, Any]:
    """The script's namespace, without running its ``__main__`` block."""
    return runpy.run_path(str(EXAMPLES / script), run_name="example")


def test_there_are_at_least_five_examples() -> None:
    names = {p.name for p in SCRIPTS}
    assert {
        "game_in_twenty_lines.py",
        "greedy_bot.py",
        "custom_variant.py",
        "stacked_deck.py",
        "monte_carlo.py",
        "haydes_variant_study.py",
    } <= names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_each_example_says_what_it_shows_and_how_to_run_it(script: Path) -> None:
    docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    assert docstring, f"{script.name} has no docstring"
    assert "Shows" in docstring, f"{script.name}'s docstring does not say what it shows"
    assert f"python examples/{script.name}" in docstring, f"{script.name}: no run command"


def test_a_game_in_twenty_lines(tmp_path: Path) -> None:
    source = (EXAMPLES / "game_in_twenty_lines.py").read_text(encoding="utf-8")
    body = source.split('"""', 2)[2]  # the code after the module docstring
    code_lines = [line for line in body.splitlines() if line.strip()]
    assert len(code_lines) <= 20, f"{len(code_lines)} lines of code"

    out = run("game_in_twenty_lines.py", "--seed", "7", "--quiet", cwd=tmp_path).stdout
    match = re.search(r"^(\d+) decisions, outcome: (Outcome\(.*\))$", out, re.MULTILINE)
    assert match, out
    # The same game, played here: the script's seeded choices must give the same ending.
    game = cardcrawl.load("mapless-house", max_turns=200)
    state = game.initial_state(seed=7)
    choose = random.Random(7).choice
    decisions = 0
    while not game.is_terminal(state):
        state = game.step(state, choose(game.legal_actions(state)))
        decisions += 1
    assert int(match.group(1)) == decisions
    assert match.group(2) == repr(game.outcome(state))
    assert game.render(state) in out


RATE_LINE = re.compile(
    r"^(?P<bot>\w+): escaped (?P<escaped>\d+) of (?P<games>\d+) games = "
    r"(?P<rate>[\d.]+)% \(95% CI (?P<low>[\d.]+)% to (?P<high>[\d.]+)%\)$",
    re.MULTILINE,
)


def test_greedy_bot_measures_its_escape_rate(tmp_path: Path) -> None:
    out = run("greedy_bot.py", "--games", "40", "--seed", "3", cwd=tmp_path).stdout
    lines = {m["bot"]: m for m in RATE_LINE.finditer(out)}
    assert set(lines) == {"greedy", "random"}, out
    for m in lines.values():
        games, escaped = int(m["games"]), int(m["escaped"])
        assert games == 40
        assert float(m["low"]) <= float(m["rate"]) <= float(m["high"])
        assert float(m["rate"]) == pytest.approx(100 * escaped / games, abs=0.05)
    # Count the greedy bot's escapes here, game by game, with the script's own bot.
    greedy = load("greedy_bot.py")["GreedyBot"]
    game = cardcrawl.load("mapless-house", max_turns=200)
    seeds = [cardcrawl.rng_derive(3, i) for i in range(40)]
    escaped = sum(play_game(game, [greedy], s).outcome == "escaped" for s in seeds)
    assert int(lines["greedy"]["escaped"]) == escaped


def test_greedy_bot_numbers_do_not_depend_on_workers(tmp_path: Path) -> None:
    one = run("greedy_bot.py", "--games", "24", "--seed", "5", cwd=tmp_path).stdout
    two = run("greedy_bot.py", "--games", "24", "--seed", "5", "--workers", "2", cwd=tmp_path)
    assert RATE_LINE.findall(one) == RATE_LINE.findall(two.stdout) != []


def test_custom_variant_passes_the_checker_and_the_broken_one_does_not(tmp_path: Path) -> None:
    out = run("custom_variant.py", "--games", "2", cwd=tmp_path).stdout
    passed = re.search(
        r"^mapless-house-survival: check_game passed: (\d+) games, (\d+) steps, "
        r"(\d+) chance events, outcomes (\{.*\})$",
        out,
        re.MULTILINE,
    )
    assert passed, out
    assert int(passed.group(1)) == 4  # two games in each chance mode
    assert int(passed.group(2)) > 0
    assert int(passed.group(3)) > 0  # explicit-chance games met chance events
    outcomes = ast.literal_eval(passed.group(4))
    assert sum(outcomes.values()) == 4
    assert set(outcomes) <= {"survived", "consumed", "escaped"}
    assert re.search(
        r"^mapless-house-unsorted: check_game failed as it should: .*"
        r"legal actions are not distinct and sorted$",
        out,
        re.MULTILINE,
    ), out


def test_the_variant_really_changes_the_outcome() -> None:
    survival = load("custom_variant.py")["Survival"]
    # Built directly, not registered: registering here would change this process's registry.
    game = survival(survival.options_type.from_data({"max_turns": 1}))
    state = game.initial_state(seed=0)
    while not game.is_terminal(state):
        state = game.step(state, game.legal_actions(state)[0])
    base = cardcrawl.load("mapless-house", max_turns=1)
    assert base.outcome(state).label == "lost"
    assert game.outcome(state).label == "survived"
    assert game.returns(state) == (1.0,)


def test_stacked_deck_tutorial(tmp_path: Path) -> None:
    outputs = [run("stacked_deck.py", "--seed", s, cwd=tmp_path).stdout for s in ("1", "5")]
    for out in outputs:
        assert "stacked, the same for every seed: 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♥" in out
        assert "Encounter: Q♥ + K♦ = 25" in out
        assert "Encounter: 2♥ + 2♦ = 4" in out
        assert "the next draw is open: 23 outcomes, each with probability 1/23" in out
        assert "the record replays to the same state: True" in out
    # Up to the end of phase one everything was stacked, so both seeds agree there...
    first = [out.split("== 2.")[0] for out in outputs]
    assert first[0] == first[1]
    assert "K♠   EXTS" in first[0]  # the Exit opened at the end of the corridor
    # ...and the cards drawn after the stack are the seed's.
    after = re.findall(r"^shuffled by seed \d+: (.+)$", "".join(outputs), re.MULTILINE)
    assert len(after) == 2
    assert after[0] != after[1]


def test_monte_carlo_study(tmp_path: Path) -> None:
    out_file = tmp_path / "study.png"
    result = run(
        "monte_carlo.py", "--games", "20", "--seed", "2", "--out", str(out_file), cwd=tmp_path
    )
    rates = dict(re.findall(r"^  ([\w-]+) +([\d.]+)% \[", result.stdout, re.MULTILINE))
    assert set(rates) == {"random", "shortest-path", "heuristic"}, result.stdout
    game = cardcrawl.load("mapless-house", max_turns=200)
    expected = simulate(game, "heuristic", games=20, seed=2, workers=1).summary()
    assert float(rates["heuristic"]) == pytest.approx(100 * expected.rate("escaped").estimate)
    has_matplotlib = importlib.util.find_spec("matplotlib") is not None
    if not has_matplotlib and os.environ.get("CARDCRAWL_REQUIRE_EXTRAS") == "1":
        pytest.fail("CARDCRAWL_REQUIRE_EXTRAS=1 but matplotlib is not installed")
    if has_matplotlib:
        assert f"plot written to {out_file}" in result.stdout
        assert out_file.read_bytes()[:8] == PNG_MAGIC
    else:
        assert "no plot drawn: matplotlib is not installed" in result.stderr
        assert not out_file.exists()


def test_monte_carlo_without_matplotlib_says_so(tmp_path: Path) -> None:
    # A None entry in sys.modules makes "import matplotlib" fail, as if not installed.
    hide = (
        "import runpy, sys; sys.modules['matplotlib'] = None; "
        "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    out_file = tmp_path / "study.png"
    result = run("monte_carlo.py", "--games", "5", "--out", str(out_file), cwd=tmp_path, code=hide)
    assert "escape rates over 5 games per bot" in result.stdout
    assert "no plot drawn: matplotlib is not installed" in result.stderr
    assert not out_file.exists()


STUDY_LINE = re.compile(
    r"^(?P<rules>[\w-]+): escaped (?P<escaped>\d+) of (?P<games>\d+) games = "
    r"(?P<rate>[\d.]+)% \(95% CI (?P<low>[\d.]+)% to (?P<high>[\d.]+)%\); "
    r"(?P<decisions>[\d.]+) decisions a game$",
    re.MULTILINE,
)


def test_haydes_variant_study_compares_both_rules_on_the_same_seeds(tmp_path: Path) -> None:
    out = run("haydes_variant_study.py", "--games", "40", "--seed", "6", cwd=tmp_path).stdout
    lines = {m["rules"]: m for m in STUDY_LINE.finditer(out)}
    assert set(lines) == {"standard", "equal-counts"}, out
    # The script's variant is the rule it claims: an equal value is a correct guess (H-7).
    equal_counts = load("haydes_variant_study.py")["EqualCounts"]
    assert equal_counts().guess_is_correct(Guess.LOWER, 5, 5)
    assert not cardcrawl.load("escape-from-haydes").guess_is_correct(Guess.LOWER, 5, 5)
    games = {
        "standard": cardcrawl.load("escape-from-haydes", max_rounds=30),
        # Built directly, not registered: registering would change this process's registry.
        "equal-counts": equal_counts(equal_counts.options_type(max_rounds=30)),
    }
    escaped = {}
    for label, game in games.items():
        result = simulate(game, "heuristic", games=40, seed=6, workers=1)
        summary = result.summary()
        escaped[label] = {r.seed for r in result.results if r.outcome == "escaped"}
        m, rate = lines[label], summary.rate("escaped")
        assert (int(m["escaped"]), int(m["games"])) == (len(escaped[label]), 40)
        for printed, value in (("rate", rate.estimate), ("low", rate.low), ("high", rate.high)):
            assert float(m[printed]) == pytest.approx(100 * value, abs=0.005)
        assert float(m["decisions"]) == pytest.approx(summary.decisions.estimate, abs=0.005)
    standard, equal = escaped["standard"], escaped["equal-counts"]
    points = re.search(r"^difference: ([+-][\d.]+) percentage points", out, re.MULTILINE)
    assert points, out
    assert float(points[1]) == pytest.approx(100 * (len(equal) - len(standard)) / 40, abs=0.005)
    fate = re.search(
        r"^the same seed, a different fate: (\d+) of 40 games \(escaped with equal counts "
        r"only: (\d+), under the standard rules only: (\d+)\)$",
        out,
        re.MULTILINE,
    )
    assert fate, out
    assert tuple(map(int, fate.groups())) == (
        len(standard ^ equal),
        len(equal - standard),
        len(standard - equal),
    )
    assert len(standard ^ equal) > 0  # on these seeds the rule changes some games


def test_haydes_variant_study_numbers_do_not_depend_on_workers(tmp_path: Path) -> None:
    args = ("--games", "12", "--seed", "3", "--bot", "random")
    one = run("haydes_variant_study.py", *args, cwd=tmp_path).stdout
    two = run("haydes_variant_study.py", *args, "--workers", "2", cwd=tmp_path).stdout
    assert one == two
    assert "bot random" in one
