"""The rollout kernel of Escape from Haydes: whole games of uniform-random play, in place.

It states no rule. It takes one working position (the one ``initial_state`` freezes,
or a thawed start) and drives the game's own rules
(:class:`~cardcrawl.haydes._play.Rules`, the hooks of the game or variant bound in
them) through it, decision after decision, as ``step`` does for one decision: the same
legal actions, the same chance drawn with the same generator, so the same games, for
every game and variant. What it saves is the immutable state the public path builds at
every decision, and the events, which a simulation does not keep (the rules count what
it reports as they go). :func:`cardcrawl.testing.check_kernel` proves, seed by seed,
that it plays the games of the public path.

Each seat's random bot draws ``rng_below(len(legal))`` on its own generator,
``rng_derive(seed, seat)``, at every decision, as ``simulate`` builds one
:class:`~cardcrawl.bots.RandomBot` per seat.

Examples:
    >>> import cardcrawl
    >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=30)
    >>> kernel = rollout_kernel(game)
    >>> state, decisions, figures = kernel.play(1, 100_000)
    >>> game.is_terminal(state), dict(figures)["rounds"] == state.round
    (True, True)
"""

from __future__ import annotations

from array import array
from typing import Any

import attrs

from cardcrawl.core._protocol import Outcome
from cardcrawl.core._random import _SMALL, _below, rng_below, rng_from_seed
from cardcrawl.core._seeds import derived_seeds
from cardcrawl.core._tools import Figures
from cardcrawl.haydes._figures import HaydesFigures
from cardcrawl.haydes._game import EscapeFromHaydes
from cardcrawl.haydes._position import Position, thaw
from cardcrawl.haydes._state import HaydesState, Phase

__all__ = ["HaydesKernel", "rollout_kernel"]

_TURN, _ENCOUNTER, _OVER = Phase.TURN, Phase.ENCOUNTER, Phase.OVER


def rollout_kernel(game: Any) -> HaydesKernel:
    """``GameTools.rollout`` of Escape from Haydes: the kernel of ``game``, any variant."""
    return HaydesKernel(game)


@attrs.frozen
class HaydesKernel:
    """The :class:`~cardcrawl.RolloutKernel` of Escape from Haydes and its variants.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=50)
        >>> kernel = rollout_kernel(game)
        >>> state, decisions, figures = kernel.play(3, 100_000)
        >>> kernel.summary(3, 100_000, HaydesFigures) == (
        ...     game.outcome(state), decisions, figures)
        True
    """

    game: EscapeFromHaydes

    def play(
        self, seed: int, max_decisions: int, start: Any = None
    ) -> tuple[HaydesState, int, Figures] | None:
        """The game of ``seed`` to its end: final state, decisions, figures; ``None``
        from a start at a chance event, or one waiting for explicit chance."""
        played = _run(self.game, seed, max_decisions, start, True)
        if played is None:
            return None
        pos, decisions, figures = played
        return self.game._frozen(pos), decisions, figures

    def summary(
        self, seed: int, max_decisions: int, figures: Any
    ) -> tuple[Outcome, int, Figures] | None:
        """What a simulation keeps of the game of ``seed``: outcome, decisions, figures;
        ``None`` for another figure tracker than HaydesFigures."""
        if figures is not HaydesFigures:
            return None
        played = _run(self.game, seed, max_decisions, None, False)
        if played is None:
            return None
        pos, decisions, kept = played
        outcome = self.game.outcome(pos)  # type: ignore[arg-type]
        assert outcome is not None
        return outcome, decisions, kept


def _run(
    game: EscapeFromHaydes, seed: int, max_decisions: int, start: Any, build: bool
) -> tuple[Position, int, Figures] | None:
    """The game of ``seed`` (from ``start``, or ``initial_state(seed)``) played to its
    end on one position: ``(position, decisions, figures)``, or ``None``."""
    if start is None:
        # The position initial_state(seed) freezes, played on unfrozen: the rules have
        # counted what its step reports (see HaydesFigures).
        pos = game._started(rng_from_seed(seed), False, {}, [] if build else None, True)
    else:
        if not isinstance(start, HaydesState):
            return None
        phase = start.phase
        if start.explicit_chance or not (phase is _TURN or phase is _ENCOUNTER or phase is _OVER):
            return None
        pos = thaw(start, game._index, list(start.events) if build else None)
        # What the step that made ``start`` counted (see HaydesFigures), counted on from.
        tracker = HaydesFigures(game)
        tracker.step(start)
        counted = dict(tracker.figures(start))
        pos.turns, pos.guesses = counted["turns"], counted["guesses"]
        pos.correct, pos.encounters = counted["correct"], counted["encounters"]
        pos.overcame = counted["overcome"]
    pos.listed()  # many draws follow
    rules = game._rules
    # rng_derive(seed, seat), seat by seat: 64-bit words, C integers in the compiled build.
    bots = array("Q", derived_seeds(seed, game.num_players))
    at, card_at = pos.at, pos._card_at
    decisions = 0
    while pos.phase is not _OVER:
        if decisions >= max_decisions:
            return None
        if build:
            pos.events = []  # the final state keeps the last step's events
        seat = pos.current
        codes = rules.legal_entry(at[seat], pos.phase, card_at)[1]
        # RandomBot.choose: rng_below(bot, n) on the seat's own generator.
        n = len(codes)
        if n < _SMALL:
            bots[seat], k = _below(bots[seat], n)
        else:
            bots[seat], k = rng_below(bots[seat], n)
        rules.play(pos, codes[k])
        decisions += 1
    figures = (
        ("rounds", pos.round),
        ("turns", pos.turns),
        ("guesses", pos.guesses),
        ("correct", pos.correct),
        ("encounters", pos.encounters),
        ("overcome", pos.overcame),
        ("out", sum([i < 0 for i in pos.at])),
    )
    return pos, decisions, figures
