# Cython's augmenting declarations for the compiled build of _game.py (hatch_build.py).
# The game's class stays a Python class, so that a variant subclasses it as any class;
# the public step's frame thaws and freezes its working position through the position's
# functions called as C.
from cardcrawl.haydes._position cimport cards_by_cell, freeze, rethaw, thaw
