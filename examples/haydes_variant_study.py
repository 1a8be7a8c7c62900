"""What one rule of Escape from Haydes is worth: the standard game against a variant.

Shows how to measure a rule variant. The variant, *Equal counts*, overrides one rule
hook of ``EscapeFromHaydes``, ``guess_is_correct`` (ruling H-7), so that turning a card
of the same value as the one you stand on is a correct guess and you may go on, where
the standard rules end your turn. ``cardcrawl.simulate`` plays the same seeded solo games
under both rules with the same bot; the heuristic bot (the default) weighs every guess
with the game's own hook, so it plays each game by that game's rules. The script prints
each escape rate with its 95% confidence interval and the mean number of decisions, then
pairs the games seed by seed: in how many the rule changed whether the player escaped.

Run it from the repository root:

    python examples/haydes_variant_study.py                  # 1000 games under each rule
    python examples/haydes_variant_study.py --games 200 --bot random --workers 2

The numbers depend only on --games, --seed, --bot and --max-rounds, never on --workers.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import cardcrawl
from cardcrawl.haydes import EscapeFromHaydes, Guess
from cardcrawl.simulate import SimulationResult, simulate


class EqualCounts(EscapeFromHaydes):
    """Escape from Haydes, where turning an equal value is a correct guess (H-7 varied)."""

    # Its own rules version, built on the base game's: records of these games are
    # refused by the standard rules, and the reverse.
    rules_version = f"{EscapeFromHaydes.rules_version}-equal.1"

    def guess_is_correct(self, guess: Guess, from_value: int, value: int) -> bool:
        """Right when the value is equal, else as the standard rules say."""
        return value == from_value or super().guess_is_correct(guess, from_value, value)


VARIANT = "escape-from-haydes-equal"


def escaped_seeds(result: SimulationResult) -> set[int]:
    """The seeds of the games the player escaped."""
    return {r.seed for r in result.results if r.outcome == "escaped"}


def report(label: str, result: SimulationResult) -> str:
    """One line: the escape count and rate with its interval, and the mean decisions."""
    summary = result.summary()
    rate, decisions = summary.rate("escaped"), summary.decisions
    return (
        f"{label}: escaped {len(escaped_seeds(result))} of {summary.games} games = "
        f"{rate.estimate:.2%} (95% CI {rate.low:.2%} to {rate.high:.2%}); "
        f"{decisions.estimate:.2f} decisions a game"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Play both rules on the same seeds and print what the variant changes."""
    parser = argparse.ArgumentParser(description="Measure what equal-counts does to escapes.")
    parser.add_argument("--games", type=int, default=1000, help="games under each rule (1000)")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (0)")
    parser.add_argument("--bot", default="heuristic", help="the bot that plays (heuristic)")
    parser.add_argument("--max-rounds", type=int, default=30, help="the round limit, H-13 (30)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args(argv)

    cardcrawl.register_variant(
        VARIANT,
        base="escape-from-haydes",
        game_class=EqualCounts,
        description="Escape from Haydes, where an equal value is a correct guess.",
        replace=True,
    )
    games = {
        "standard": cardcrawl.load("escape-from-haydes", max_rounds=args.max_rounds),
        "equal-counts": cardcrawl.load(VARIANT, max_rounds=args.max_rounds),
    }
    print(
        f"Escape from Haydes, solo, {args.games} games under each rule, seed {args.seed}, "
        f"at most {args.max_rounds} rounds, bot {args.bot}"
    )
    results = {}
    for label, game in games.items():
        results[label] = simulate(
            game, args.bot, games=args.games, seed=args.seed, workers=args.workers
        )
        print(report(label, results[label]))
    standard, equal = (escaped_seeds(results[label]) for label in games)
    points = 100 * (len(equal) - len(standard)) / max(args.games, 1)
    print(f"difference: {points:+.2f} percentage points of escapes with equal counts")
    print(
        f"the same seed, a different fate: {len(standard ^ equal)} of {args.games} games "
        f"(escaped with equal counts only: {len(equal - standard)}, "
        f"under the standard rules only: {len(standard - equal)})"
    )


if __name__ == "__main__":
    main()
