# Cython's augmenting declarations for the compiled build of _random.py (hatch_build.py):
# the generator's words are unsigned 64-bit integers, whose multiplication wraps exactly
# as the Python source's ``& mask`` does; the size of the range is an index. The games'
# compiled modules cimport _below, so that their draws are C calls.
import cython

@cython.locals(
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong,
)
cpdef tuple _below(unsigned long long rng, Py_ssize_t n)
