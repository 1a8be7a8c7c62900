# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py).
# The module's source is the pure-Python one; this only gives the generator's words and
# the counts C types. SplitMix64 on unsigned 64-bit words wraps exactly as the Python
# source's ``& mask`` does, and every rejection test compares with the highest accepted
# output (_highest_accepted), which fits in such a word.
import cython

@cython.locals(
    rng=cython.ulonglong, b=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong,
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, n=cython.Py_ssize_t, k=cython.Py_ssize_t, m=cython.Py_ssize_t,
    nd=cython.Py_ssize_t, n_throws=cython.Py_ssize_t, decisions=cython.Py_ssize_t,
)
cpdef _run(game, seed, max_decisions, start, build)
