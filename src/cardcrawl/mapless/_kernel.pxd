# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py):
# see haydes/_kernel.pxd. The bot's generator words are unsigned 64-bit integers, whose
# multiplication wraps exactly as the Python source's ``& mask`` does; the counts and the
# bot's pick are indices.
import cython

@cython.locals(
    bot=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong, mask=cython.ulonglong,
    gamma=cython.ulonglong, mul1=cython.ulonglong, mul2=cython.ulonglong,
    small=cython.Py_ssize_t, n=cython.Py_ssize_t, index=cython.Py_ssize_t,
    decisions=cython.Py_ssize_t, at_exit=cython.Py_ssize_t, cells=list,
)
cpdef _run(game, seed, max_decisions, start, events)
