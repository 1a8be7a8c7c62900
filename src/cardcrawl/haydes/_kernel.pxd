# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py).
# The module's source is the pure-Python one; this only gives C types to names that only
# ever hold one type: the position and the rules are extension types (_position.pxd,
# _play.pxd), whose methods the loop calls as C; the count of decisions, the seat to move
# the number of legal actions and the bot's pick are indices (C integers); the bots draw through the core generator's
# _below, called as C (core/_random.pxd).
import cython

from cardcrawl.core._random cimport _below
from cardcrawl.haydes._play cimport Rules
from cardcrawl.haydes._position cimport Position

# The core draw's limit, a C constant here.
cdef Py_ssize_t _SMALL
cdef object _TURN, _ENCOUNTER, _OVER

@cython.locals(
    decisions=cython.Py_ssize_t, seat=cython.Py_ssize_t, n=cython.Py_ssize_t, k=cython.Py_ssize_t,
    bots=cython.ulonglong[:], codes=tuple, at=list, card_at=bytearray, pos=Position, rules=Rules,
)
cpdef _run(game, seed, max_decisions, start, build)
