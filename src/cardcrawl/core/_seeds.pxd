# Cython's augmenting declarations for the compiled build of _seeds.py (hatch_build.py):
# the generator's words are unsigned 64-bit integers, whose multiplication wraps exactly
# as the Python source's ``& mask`` does.
import cython

@cython.locals(
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, z=cython.ulonglong, scrambled=cython.ulonglong,
    key=cython.Py_ssize_t,
)
cpdef list derived_seeds(seed, count)

# The key is any integer, masked before it becomes a word.
@cython.locals(
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, z=cython.ulonglong, k=cython.ulonglong,
    scrambled_key=cython.ulonglong,
)
cpdef unsigned long long derived_seed(unsigned long long seed, object key) except? 0

cdef inline unsigned long long _output(
    unsigned long long z, unsigned long long mask, unsigned long long gamma,
    unsigned long long mul1, unsigned long long mul2,
)
