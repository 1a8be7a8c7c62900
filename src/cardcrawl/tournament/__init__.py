"""Tournaments: bots against each other on duplicate deals, seats rotated, rated.

:func:`tournament` plays a round robin (every pair of bots) or a gauntlet (the first
bot against each other) on the executors of :func:`cardcrawl.simulate.simulate`.
Every lineup plays the same deals (deal ``i`` is seeded ``rng_derive(seed, i)``), so
no bot is luckier than another and the results never depend on the workers.

What a "win" is depends on the seats, written once against the game protocol:

- a **one-seat** game (The Mapless House, Escape from Haydes solo) plays each bot alone
  on every deal; on each deal, the bot with the better return (then the better score)
  beats the other, equal results tie (a paired comparison);
- a game of **several seats** seats each pair in every arrangement of :func:`schedule`
  (one bot alone against the other in every other seat, each way round), and compares
  the two at the table by the mean return of their seats; the result also gives each
  bot's win share by seat.

The head-to-head counts give Bradley-Terry ratings on the Elo scale with 95%
intervals (:func:`bradley_terry`); :class:`TournamentResult` prints the standings,
a cross-table and the outcomes or seat shares, and writes CSV or JSON;
:func:`plot_tournament` draws them (with the ``cardcrawl[plot]`` extra: matplotlib is
imported only then).

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.tournament import tournament
    >>> game = cardcrawl.load("mapless-house", max_turns=200)
    >>> result = tournament(game, ["heuristic", "random"], games=20, seed=1, workers=1)
    >>> best = result.standings()[0]
    >>> best.bot, best.rating > 1500, result.head_to_head()[0].games
    ('heuristic', True, 20)
"""

from typing import TYPE_CHECKING

from cardcrawl.core._deprecation import moved_names
from cardcrawl.tournament._plot import plot_tournament
from cardcrawl.tournament._ratings import HeadToHead, Rating, bradley_terry
from cardcrawl.tournament._results import TournamentResult, compare_games
from cardcrawl.tournament._run import tournament
from cardcrawl.tournament._schedule import schedule

__all__ = [
    "HeadToHead",
    "Rating",
    "TournamentResult",
    "bradley_terry",
    "compare_games",
    "plot_tournament",
    "schedule",
    "tournament",
]

# The names this package no longer promises, each with where it lives now: they still
# answer, with a DeprecationWarning, for one release. Type checkers are not shown this
# __getattr__: with it, they would accept any name of the package.
if not TYPE_CHECKING:
    __getattr__ = moved_names(
        __name__,
        {
            "ELO_BASE": "cardcrawl.tournament._ratings",
            "ELO_SCALE": "cardcrawl.tournament._ratings",
            "KINDS": "cardcrawl.tournament._schedule",
            "pairings": "cardcrawl.tournament._schedule",
        },
    )
