# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py):
# see haydes/_kernel.pxd. Only the generator's words and the counts get C types.
import cython

@cython.locals(
    rng=cython.ulonglong, bot=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong,
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, n=cython.Py_ssize_t, decisions=cython.Py_ssize_t,
)
cpdef _run(game, state, seed, kind, max_decisions, build=*)
