# Cython's augmenting declarations for the compiled build of _seeds.py (hatch_build.py):
# the generator's words are unsigned 64-bit integers, whose multiplication wraps exactly
# as the Python source's ``& mask`` does.
import cython

@cython.locals(
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, z=cython.ulonglong, scrambled=cython.ulonglong,
    scrambled_key=cython.ulonglong,
    key=cython.Py_ssize_t,
)
cpdef list derived_seeds(seed, count)
