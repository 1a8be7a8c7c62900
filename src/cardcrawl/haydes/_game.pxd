# Cython's augmenting declarations for the compiled build of _game.py (hatch_build.py).
# The game's class stays a Python class, so that a variant subclasses it as any class;
# the public step's frame (advance, frozen) is the module's functions, which call the
# rules' steps, the legal entry and the position's thaw and freeze as C.
import cython

from cardcrawl.core._engine cimport keep_position, take_position
from cardcrawl.haydes._play cimport Rules
from cardcrawl.haydes._position cimport Position, cards_by_cell, freeze, rethaw, thaw

@cython.locals(pos=Position, rules=Rules)
cpdef object advance(object game, object state, object action)
cpdef object frozen(object game, Rules rules, Position pos, bint keep)
