# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py).
# The module's source is the pure-Python one; this only gives C types to names that only
# ever hold one type: the count of decisions, the seat to move and the bot's pick are
# indices (C integers), the bots' generators a list, the legal actions a tuple.
import cython

@cython.locals(
    decisions=cython.Py_ssize_t, seat=cython.Py_ssize_t, k=cython.Py_ssize_t,
    bots=list, actions=tuple,
)
cpdef _run(game, seed, max_decisions, start, build)
