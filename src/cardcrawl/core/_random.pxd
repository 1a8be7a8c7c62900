# Cython's augmenting declarations for the compiled build of _random.py (hatch_build.py):
# the generator's words are unsigned 64-bit integers, whose multiplication wraps exactly
# as the Python source's ``& mask`` does; the size of the range is an index. The games'
# compiled modules cimport _below, so that their draws are C calls, and it returns a C
# pair (a tuple to Python callers): a caller that unpacks it into C integers allocates
# nothing, where a Python tuple and two Python integers were made at every draw.
import cython

@cython.locals(z=cython.ulonglong, top=cython.ulonglong)
cpdef (unsigned long long, Py_ssize_t) _below(
    unsigned long long rng, Py_ssize_t n, unsigned long long mask=*,
    unsigned long long gamma=*, unsigned long long mul1=*, unsigned long long mul2=*,
)
