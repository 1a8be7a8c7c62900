"""A custom variant of The Mapless House, checked by ``cardcrawl.testing``.

Shows the two halves of writing a variant: registering it under a name (preset
options plus, here, a game class that overrides one public method), and checking it
with ``cardcrawl.testing.check_game``, the conformance checker every game and variant
should pass. The variant, *Survival*, ends the hunt after a few turns and counts
outlasting it as a win. A deliberately broken variant is checked too, to show what a
failure looks like.

Run it from the repository root:

    python examples/custom_variant.py               # 20 games per chance mode
    python examples/custom_variant.py --games 3

Put the same ``check_game`` call in your own test suite for every variant you write.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import cardcrawl
from cardcrawl.mapless import MaplessHouse, MaplessState
from cardcrawl.testing import ConformanceError, check_game


class Survival(MaplessHouse):
    """The Mapless House where outlasting the turn limit is a win, labelled "survived"."""

    # A class that changes behaviour gets a rules version of its own, so a record of a
    # Survival game never replays under the standard rules, or the reverse.
    rules_version = "1-survival.1"

    def outcome(self, state: MaplessState) -> cardcrawl.Outcome | None:
        """As the base game, except that being lost in the house at the limit wins."""
        outcome = super().outcome(state)
        if outcome is not None and outcome.label == "lost":
            return cardcrawl.Outcome("survived", (1.0,), outcome.scores, winners=(0,))
        return outcome


class Unsorted(MaplessHouse):
    """A broken variant: it lists the legal actions in reverse, breaking the protocol."""

    rules_version = "1-unsorted.1"

    def legal_actions(self, state: MaplessState) -> tuple[object, ...]:
        """The legal actions, wrongly in reverse order."""
        return tuple(reversed(super().legal_actions(state)))


def main(argv: Sequence[str] | None = None) -> int:
    """Register both variants, check them and print what the checker found."""
    parser = argparse.ArgumentParser(description="Register and check a custom variant.")
    parser.add_argument("--games", type=int, default=20, help="games per chance mode (20)")
    args = parser.parse_args(argv)

    cardcrawl.register_variant(
        "mapless-house-survival",
        base="mapless-house",
        game_class=Survival,
        options={"max_turns": 8},
        description="The Mapless House: outlast an 8-turn hunt to win.",
        replace=True,
    )
    cardcrawl.register_variant(
        "mapless-house-unsorted", base="mapless-house", game_class=Unsorted, replace=True
    )

    game = cardcrawl.load("mapless-house-survival")
    report = check_game(game, games=args.games)
    print(
        f"{game.name}: check_game passed: {report.games} games, {report.steps} steps, "
        f"{report.chance_events} chance events, outcomes {dict(sorted(report.outcomes.items()))}"
    )

    broken = cardcrawl.load("mapless-house-unsorted", max_turns=50)
    try:
        check_game(broken, games=1)
    except ConformanceError as error:
        print(f"{broken.name}: check_game failed as it should: {error}")
    else:
        print(f"{broken.name}: check_game passed, but the variant is broken")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
