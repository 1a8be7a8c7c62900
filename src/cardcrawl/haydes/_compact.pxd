# Cython's augmenting declarations for the compiled build of _compact.py (hatch_build.py).
# The module's source is the pure-Python one; this types the part of a row that every
# step writes (the header, the round, the seats, the aim): a bytearray written at C
# indices, read from the working position's C fields (_position.pxd).
import cython

from cardcrawl.haydes._position cimport Position

@cython.locals(
    h=Py_ssize_t, s=Py_ssize_t, slot=Py_ssize_t, seat=Py_ssize_t, aimed=Py_ssize_t,
    current=Py_ssize_t, first=Py_ssize_t, at=list, charisma=list, endurance=list,
    r=Py_ssize_t,
)
cpdef _write_small(
    bytearray row, Position pos, Py_ssize_t player, Py_ssize_t p, Py_ssize_t header,
    Py_ssize_t round_, Py_ssize_t seats, Py_ssize_t aim,
)

from cardcrawl.encoding._compact cimport RowWriter

# The writer of one row: what it wrote last is kept in C fields, and the bytes that
# change at a step are written at C indices.
@cython.final
cdef class HaydesRowWriter(RowWriter):
    cdef object _c
    cdef Py_ssize_t _size
    cdef Py_ssize_t _header
    cdef Py_ssize_t _round
    cdef Py_ssize_t _seats
    cdef Py_ssize_t _aim
    cdef Py_ssize_t _card
    cdef Py_ssize_t _source
    cdef Py_ssize_t _counts_at
    cdef Py_ssize_t _unseen_at
    cdef Py_ssize_t _n
    cdef Py_ssize_t _p
    cdef Py_ssize_t _shown_at
    cdef Py_ssize_t _overcome_at
    cdef Py_ssize_t _piles_at
    cdef bytearray _zero
    cdef bytearray _row
    cdef object _out
    cdef Py_ssize_t _offset
    cdef object _pos
    cdef list _up_cells
    cdef bytearray _faces
    cdef list _shown
    cdef object _pools
    cdef object _mixes
    cdef object _overcome
    cdef object _discard
    cdef Py_ssize_t _discard_len
    cdef Py_ssize_t _piled
    cdef list _taken
    cdef object _removed
    cdef object _unseen
    cdef list _pool_cards
    cdef list _pool_lens
    cdef object _mixed

    @cython.locals(start=Py_ssize_t, overcome=object)
    cpdef _write(self, Position pos, bytearray out, Py_ssize_t o)
    cpdef _forget(self)
    @cython.locals(piled=Py_ssize_t)
    cpdef _bounds(self, Position pos)
    @cython.locals(
        card=Py_ssize_t, source=Py_ssize_t, i=Py_ssize_t, n=Py_ssize_t, piled=Py_ssize_t,
        card_at=bytearray, unshown=tuple, up=object, taken=list, gone=Py_ssize_t,
        shown=list, rank=Py_ssize_t, at=Py_ssize_t, k=Py_ssize_t, cells=list,
        pool=Py_ssize_t, shift=Py_ssize_t, mask=Py_ssize_t, faces=bytearray,
    )
    cpdef _write_cells(self, Position pos, bytearray out, Py_ssize_t o)
    cpdef _write_mixes(self, Position pos, bytearray out, Py_ssize_t o)
    @cython.locals(
        at=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t, size=Py_ssize_t, start=Py_ssize_t,
        room=Py_ssize_t,
    )
    cpdef _write_piles(self, Position pos, bytearray out, Py_ssize_t o)
    @cython.locals(
        base=Py_ssize_t, start=Py_ssize_t, q=Py_ssize_t, size=Py_ssize_t,
        counts=Py_ssize_t, kept=list, lens=list, taken=list, j=Py_ssize_t,
    )
    cpdef _write_unseen(self, Position pos, bytearray out, Py_ssize_t o)
    cpdef _clear_unseen(self, bytearray out, Py_ssize_t o)
    @cython.locals(k=Py_ssize_t, start=Py_ssize_t, base=Py_ssize_t, at=Py_ssize_t)
    cpdef _write_belief(
        self, bytearray out, Py_ssize_t o, Py_ssize_t b, object weight, list pools,
        object mixed,
    )
    cpdef _write_mixed(self, bytearray out, Py_ssize_t o, Py_ssize_t b, object mixed)

cdef Py_ssize_t _source_of(Py_ssize_t pool)
@cython.locals(k=Py_ssize_t)
cdef Py_ssize_t _number_of(tuple members, object member) except -1

# A pool's counts by card index: a first row counts every unseen card.
@cython.locals(counts=bytearray, k=Py_ssize_t, tally='unsigned char[:]')
cpdef bytes _counts(object cards)
