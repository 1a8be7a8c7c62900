"""Is my variant better, and why? Games and variants compared on the same seeds.

:func:`compare` plays the same bots on the same seeds in two games or more (a game and
its variants, or one game under other options) and compares each with the first, game
by game: every outcome's rate, each seat's return, score and advantage, the length and
the game's own figures, each difference with its 95% interval and a verdict. Game ``i``
of every arm has the same seed, so the same deal as far as the variant leaves it
unchanged (common random numbers): the luck both games of a pair share cancels out of
their difference, and a small change shows in far fewer games than two independent
runs would need. :func:`plot_comparison` draws the differences (the ``plot`` extra).
:func:`sampled_best_response_gains` pairs line-ups of bots the same way: each seat's
gain, on whole games, from playing a stronger bot against the others' bots.

Examples:
    >>> from cardcrawl.compare import compare
    >>> arms = ["escape-from-haydes(max_rounds=30)", "escape-from-haydes-tuybe(max_rounds=30)"]
    >>> found = compare(arms, "random", games=200, seed=1, workers=1)
    >>> for line in found.verdicts()[:4]:
    ...     print(line)
    escaped rate: +4.5 points [-0.9, +9.9]: not shown to differ at 200 games
    trapped rate: -14.0 points [-21.7, -6.3]: different
    time-up rate: +9.5 points [+2.6, +16.4]: different
    return: +0.045 [-0.009, +0.099]: not shown to differ at 200 games
"""

from cardcrawl.compare._gain import SampledGains, sampled_best_response_gains
from cardcrawl.compare._paired import Measure, PairedDifference, measures_of, paired_difference
from cardcrawl.compare._plot import plot_comparison
from cardcrawl.compare._run import (
    DEFAULT_MAX_GAMES,
    Arm,
    Comparison,
    compare,
    measure_keys,
)
from cardcrawl.compare._spec import load_arm, split_arm

__all__ = [
    "DEFAULT_MAX_GAMES",
    "Arm",
    "Comparison",
    "Measure",
    "PairedDifference",
    "SampledGains",
    "compare",
    "load_arm",
    "measure_keys",
    "measures_of",
    "paired_difference",
    "plot_comparison",
    "sampled_best_response_gains",
    "split_arm",
]
