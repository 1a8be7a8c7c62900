# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py).
# The module's source is the pure-Python one; this only gives C types to names that only
# ever hold one type: the position and the rules are extension types (_position.pxd,
# _play.pxd), whose methods the loop calls as C; the count of decisions, the seat to move
# and the number of legal actions are indices (C integers); the bots' generator words are
# unsigned 64-bit words, on which SplitMix64 wraps exactly as the source's ``& mask``
# does, and the rejection test compares with the highest accepted output, which fits.
import cython

from cardcrawl.haydes._play cimport Rules
from cardcrawl.haydes._position cimport Position

@cython.locals(
    decisions=cython.Py_ssize_t, seat=cython.Py_ssize_t, n=cython.Py_ssize_t,
    b=cython.ulonglong, z=cython.ulonglong, mask=cython.ulonglong, gamma=cython.ulonglong,
    mul1=cython.ulonglong, mul2=cython.ulonglong,
    bots=list, codes=tuple, tops=tuple, at=list, up=dict, pos=Position, rules=Rules,
)
cpdef _run(game, seed, max_decisions, start, build)
