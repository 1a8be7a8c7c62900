# Cython's augmenting declarations for the compiled build of _batch.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Batch an extension type whose
# buffers are bytearrays written at C indices, and its loop's counters C integers.
import cython

cdef class Numbered:
    cdef public object working
    cdef public object encoding
    cdef public dict _memo
    cdef public dict _known

    cpdef tuple numbers(self, object position)
    cpdef play(self, object position, object code)

@cython.final
cdef class Batch:
    cdef public object game
    cdef public Py_ssize_t n
    cdef public object encoding
    cdef public object working
    cdef public object numbered
    cdef public Py_ssize_t size
    cdef public Py_ssize_t num_actions
    cdef public bytearray obs
    cdef public bytearray mask
    cdef public object rewards
    cdef public bytearray terminated
    cdef public bytearray truncated
    cdef public bytearray illegal
    cdef public bytearray ended
    cdef public list writers
    cdef public list positions
    cdef public list _set
    cdef public list _codes
    cdef public dict _rows
    cdef public bint illegal_raise
    cdef public double illegal_reward
    cdef public object next_seed

    @cython.locals(i=Py_ssize_t, number=Py_ssize_t, width=Py_ssize_t, rewards='double[:]',
                   terminated=bytearray, truncated=bytearray, ended=bytearray,
                   illegal=bytearray, codes=list, positions=list, mask=bytearray)
    cpdef step(self, list actions)
    @cython.locals(
        base=Py_ssize_t, j=Py_ssize_t, width=Py_ssize_t, mask=bytearray, entry=tuple,
        hit=tuple, row=bytearray,
    )
    cpdef _write(self, Py_ssize_t i, object pos, bint over)
