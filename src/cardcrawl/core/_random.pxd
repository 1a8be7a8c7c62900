# Cython's augmenting declarations for the compiled build of _random.py (hatch_build.py):
# the generator's words are unsigned 64-bit integers, whose multiplication wraps exactly
# as the Python source's ``& mask`` does; the size of the range is an index. The games'
# compiled modules cimport _below, so that their draws are C calls.
import cython

@cython.locals(z=cython.ulonglong, top=cython.ulonglong)
cpdef tuple _below(
    unsigned long long rng, Py_ssize_t n, unsigned long long mask=*,
    unsigned long long gamma=*, unsigned long long mul1=*, unsigned long long mul2=*,
)
