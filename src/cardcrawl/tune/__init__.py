"""Bots that fit a variant: a bot's declared parameters raced on a game's own deals.

A bot declares what may be tuned (a ``parameters`` attribute of
:class:`~cardcrawl.bots.Parameter`, each taken as a keyword argument); :func:`tune` races
candidate values on common seeds (successive halving), checks the winner against the
defaults on held-out games, and saves a parameter file that ``--bot NAME:FILE.json``
(or ``make_bot("NAME:FILE.json", ...)``) loads.
"""

from cardcrawl.tune._race import Candidate, Configured, TuneResult, tune

__all__ = ["Candidate", "Configured", "TuneResult", "tune"]
