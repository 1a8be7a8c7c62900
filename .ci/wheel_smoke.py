"""Smoke test of an installed cardcrawl wheel; run by .ci/release-check.

Usage: python wheel_smoke.py VERSION REPOSITORY

Run it with the interpreter of a virtual environment where only the wheel (and its
dependencies) is installed, from a directory outside the repository, so that nothing
can be imported from the source tree by accident.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys
from pathlib import Path


def check(condition: bool, message: str) -> None:
    if not condition:
        sys.exit(f"wheel smoke test failed: {message}")


def main() -> None:
    version, repository = sys.argv[1], Path(sys.argv[2]).resolve()

    import cardcrawl
    from cardcrawl.bots import make_bot

    where = Path(cardcrawl.__file__).resolve()
    check(repository not in where.parents, f"cardcrawl was imported from the source tree: {where}")
    check(Path(sys.prefix).resolve() in where.parents, f"cardcrawl is not installed here: {where}")
    check(cardcrawl.__version__ == version, f"__version__ {cardcrawl.__version__} != {version}")
    check(importlib.metadata.version("cardcrawl") == version, "installed metadata version differs")
    typed = importlib.resources.files("cardcrawl").joinpath("py.typed")
    check(typed.is_file(), "py.typed is not installed with the package")
    print(f"cardcrawl {version} from {where.parent}, py.typed present")

    # Both games load, and a seeded game plays to its end with the random bot.
    for name, options in (("mapless-house", {"max_turns": 200}), ("escape-from-haydes", {})):
        check(name in cardcrawl.game_names(), f"{name} is not registered")
        game = cardcrawl.load(name, **options)
        state = game.initial_state(seed=7)
        bots = [make_bot("random", game, 7, seat) for seat in range(game.num_players)]
        decisions = 0
        while not game.is_terminal(state) and decisions < 100_000:
            seat = game.current_player(state)
            action = bots[seat].choose(game, game.observe(state, seat), game.legal_actions(state))
            state = game.step(state, action)
            decisions += 1
        outcome = game.outcome(state)
        check(outcome is not None, f"{name}: the game did not end")
        record = cardcrawl.Record.from_json(
            cardcrawl.Record.of(game, 7, []).to_json()
        )  # records round-trip too
        check(record.replay() == game.initial_state(seed=7), f"{name}: record replay differs")
        print(f"{name}: seed 7, {decisions} decisions, {outcome.label}")

    # The console script is installed next to the interpreter and works.
    script = Path(sys.executable).parent / "cardcrawl"
    check(script.is_file(), f"the console script is missing: {script}")
    runs = {
        "version": [str(script), "--version"],
        "games": [str(script), "games"],
        "play": [
            str(script),
            "play",
            "mapless-house",
            "--bot",
            "random",
            "--seed",
            "7",
            "--max-turns",
            "200",
        ],
    }
    out = {}
    for label, command in runs.items():
        done = subprocess.run(
            command, capture_output=True, text=True, encoding="utf-8", timeout=300, check=False
        )
        check(
            done.returncode == 0, f"{' '.join(command[1:])} exited {done.returncode}: {done.stderr}"
        )
        out[label] = done.stdout
    check(version in out["version"], f"--version printed {out['version']!r}")
    check(
        "mapless-house" in out["games"] and "escape-from-haydes" in out["games"],
        f"games printed {out['games']!r}",
    )
    check("Result: " in out["play"], "play did not print a result line")
    print("console script: --version, games and play work;", out["play"].strip().splitlines()[-1])
    print("wheel smoke test passed")


if __name__ == "__main__":
    main()
