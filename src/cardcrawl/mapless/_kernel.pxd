# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py):
# see haydes/_kernel.pxd. The counts and the bot's pick are indices, the cells a list;
# the rules (_play.pxd) and the position (_position.pxd) are extension types, so the
# loop calls the rule steps as C.
import cython

from cardcrawl.core._random cimport _below
from cardcrawl.mapless._play cimport Rules
from cardcrawl.mapless._position cimport Position, release_board

# The core draw's limit and the cap on decisions, C constants here.
cdef Py_ssize_t _SMALL, _UNLIMITED
cdef object _OVER

@cython.locals(
    limit=cython.Py_ssize_t, n=cython.Py_ssize_t, index=cython.Py_ssize_t, decisions=cython.Py_ssize_t,
    at_exit=cython.Py_ssize_t, bot=cython.ulonglong, cells=list, rules=Rules, position=Position,
)
cpdef _run(game, seed, max_decisions, start, events)
