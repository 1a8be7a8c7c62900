# Cython's augmenting declarations for the compiled build of _working.py (hatch_build.py).
# The module's source is the pure-Python one; this makes HaydesWorking an extension type
# that calls the rules (_play.pxd) and reads the position (_position.pxd) as C.
import cython

from cardcrawl.haydes._play cimport Rules
from cardcrawl.haydes._position cimport Position

@cython.final
cdef class HaydesWorking:
    cdef public object game
    cdef public bint events
    cdef public Rules _rules
    cdef public dict _index

    cpdef tuple legal(self, Position pos)
    @cython.locals(k=Py_ssize_t, actions=tuple, codes=tuple)
    cpdef advance(self, Position pos, object action)
    cpdef bint is_over(self, Position pos)

@cython.final
cdef class HaydesNumbering:
    cdef Rules _rules
    cdef bint _events
    cdef object _encode
    cdef dict _memo

    cpdef tuple numbers(self, Position pos)
    cpdef play(self, Position pos, Py_ssize_t code)
