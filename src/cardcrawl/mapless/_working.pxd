# Cython's augmenting declarations for the compiled build of _working.py (hatch_build.py).
# The module's source is the pure-Python one; this makes the numbering of the legal
# decisions an extension type whose fields are C, and which reads the position's C
# fields (_position.pxd).
import cython

from cardcrawl.mapless._position cimport Position

@cython.final
cdef class MaplessNumbering:
    cdef object _working
    cdef object _game
    cdef Py_ssize_t _place
    cdef Py_ssize_t _exit
    cdef Py_ssize_t _move
    cdef Py_ssize_t _radius
    cdef Py_ssize_t _side
    cdef list _numbers
    cdef public tuple cells

    @cython.locals(first=Py_ssize_t, r=Py_ssize_t, side=Py_ssize_t, x=Py_ssize_t, y=Py_ssize_t,
                   numbers=list, every=list)
    cpdef tuple numbers(self, Position pos)
    cpdef play(self, Position pos, object cell)
