# Cython's augmenting declarations for the compiled build of _compact.py (hatch_build.py).
# The module's source is the pure-Python one; this makes the row writer an extension type
# that keeps the layout's offsets as C ints, reads the working position's C fields
# (_position.pxd) and writes a bytearray at C indices.
import cython

from cardcrawl.encoding._compact cimport RowWriter
from cardcrawl.mapless._position cimport Position

cpdef _piece(bytearray out, Py_ssize_t at, object piece)
@cython.locals(n=Py_ssize_t, j=Py_ssize_t)
cdef bint _grew(object old, object pile) except -1

@cython.final
cdef class MaplessRowWriter(RowWriter):
    cdef Py_ssize_t _size
    cdef Py_ssize_t _where
    cdef Py_ssize_t _x
    cdef Py_ssize_t _y
    cdef Py_ssize_t _phase
    cdef Py_ssize_t _ending
    cdef Py_ssize_t _turn
    cdef Py_ssize_t _player
    cdef Py_ssize_t _flags
    cdef list _pieces
    cdef bytes _zero
    cdef object _out
    cdef Py_ssize_t _offset
    cdef object _pos
    cdef object _table
    cdef Py_ssize_t _laid
    cdef list _piles
    cdef list _small

    @cython.locals(
        where=Py_ssize_t, xs=Py_ssize_t, ys=Py_ssize_t, k=Py_ssize_t, laid=Py_ssize_t,
        at=Py_ssize_t, turn=Py_ssize_t, changed=bint, piles=list, kept=list, pieces=list,
        new=Py_ssize_t, j=Py_ssize_t, first=Py_ssize_t, small=list, c=Py_ssize_t,
        place=Py_ssize_t, x=Py_ssize_t, y=Py_ssize_t, off=Py_ssize_t, in_deck=Py_ssize_t,
        on_table=Py_ssize_t,
    )
    cpdef _write(self, Position pos, bytearray out, Py_ssize_t offset)
