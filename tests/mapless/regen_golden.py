"""Golden transcripts of The Mapless House: write them, or regenerate and compare them.

Each golden file in ``tests/mapless/golden/mapless_*.txt`` is one seeded game written out action by
action: a header, then one line per action (a decision, or in explicit-chance play a
chance outcome) followed by the events of that step indented, then the final render and the
outcome. Every action is chosen by a seeded :func:`cardcrawl.rng_below` policy over the
legal actions (or over the chance outcomes), so a transcript depends only on the rules.
``tests/mapless/test_mapless_golden.py`` regenerates each transcript and diffs it against its file:
any change of behaviour, chance, narration or rendering shows up there.

When a change is intended, rewrite the files and review the diff before committing::

    .venv/bin/python tests/mapless/regen_golden.py           # rewrite every mapless golden file
    .venv/bin/python tests/mapless/regen_golden.py --check   # only list the files that differ
    git diff tests/mapless/golden/

Only the ``mapless_*.txt`` files listed in :data:`GOLDENS` are touched.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

import cardcrawl
from cardcrawl.mapless import MaplessHouse
from strategies import play_by_policy

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


@attrs.frozen
class Golden:
    """One golden game: options, game seed, policy seed and chance mode."""

    options: dict[str, Any]
    seed: int
    policy_seed: int
    explicit_chance: bool = False


#: File stem -> the game it records. Chosen for variety: seed 1 is held, runs the decks
#: dry and is hunted by both Stalkers; seed 21 has six refusals; the third is lost in the
#: house at its turn limit; the last is played with explicit chance.
GOLDENS: dict[str, Golden] = {
    "mapless_seed1_hunted_by_both": Golden({"max_turns": 60}, seed=1, policy_seed=1),
    "mapless_seed21_refusals": Golden({"max_turns": 60}, seed=21, policy_seed=21),
    "mapless_seed2_lost": Golden({"max_turns": 8}, seed=2, policy_seed=2),
    "mapless_seed7_explicit_chance": Golden(
        {"max_turns": 60}, seed=7, policy_seed=7, explicit_chance=True
    ),
}


def transcript(golden: Golden) -> str:
    """The transcript of one golden game, as the text of its file."""
    game: MaplessHouse = cardcrawl.load("mapless-house", **golden.options)
    play = play_by_policy(
        game, golden.seed, golden.policy_seed, explicit_chance=golden.explicit_chance
    )
    chance = "explicit" if golden.explicit_chance else "sampled"
    lines = [
        "# The Mapless House, golden transcript (regenerate: python tests/mapless/regen_golden.py)",
        f"# game {game.name}, rules version {game.rules_version}, "
        f"options {json.dumps(golden.options, sort_keys=True)}",
        f"# seed {golden.seed}, {chance} chance, actions by rng_below from policy seed "
        f"{golden.policy_seed}",
        "start",
        *(f"    {event}" for event in play.initial.events),
    ]
    for step in play.steps:
        lines.append(game.format_action(step.action))
        lines.extend(f"    {event}" for event in step.next_state.events)
    final = play.final
    outcome = game.outcome(final)
    assert outcome is not None
    lines.append("== final state ==")
    lines.append(game.render(final))
    lines.append(
        f"== outcome: {outcome.label}, score {final.score}, turns {final.turn}, "
        f"{len(play.steps)} actions =="
    )
    return "\n".join(lines) + "\n"


def path_of(name: str) -> Path:
    """Where the golden file ``name`` lives."""
    return GOLDEN_DIR / f"{name}.txt"


def main(argv: list[str]) -> int:
    """Rewrite every golden file, or with ``--check`` list those that differ."""
    check = "--check" in argv
    differ = []
    for name, golden in GOLDENS.items():
        path = path_of(name)
        text = transcript(golden)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        differ.append(path.name)
        if not check:
            GOLDEN_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    verb = "differ" if check else "rewritten"
    print(f"{len(differ)} golden file(s) {verb}: {', '.join(differ) or 'none'}")
    return 1 if check and differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
