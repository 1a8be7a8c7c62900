# Cython's augmenting declarations for the compiled build of _position.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Position an extension type whose
# attributes are C fields, so that the rules (_play.pxd) read and write them directly.
# A field is typed only where it only ever holds one type: the seats' lists, the cards
# face up by cell, the counters and the indices; every other field is any object, as in
# the Python source.
import cython

from cardcrawl.haydes._state cimport UnseenForm

# The parts of the pools by cell (cardcrawl.haydes._state) and a face-down cell's card,
# C constants here.
cdef Py_ssize_t POOL_SHIFT, POOL_MASK, DOWN

@cython.final
cdef class Position:
    cdef public object _beliefs
    cdef public Py_ssize_t _mask
    cdef public object _mixed
    cdef public object _held
    cdef public list _pools
    cdef public object _pools_frozen
    cdef public object _seats_in
    cdef public dict _thawed
    cdef public object _unseen
    cdef public tuple _unshown
    cdef public object _up_frozen
    cdef public bytearray _card_at
    cdef public Py_ssize_t _changed
    cdef public object aim
    cdef public Py_ssize_t aimed
    cdef public list at
    cdef public list charisma
    cdef public object chosen
    cdef public Py_ssize_t correct
    cdef public Py_ssize_t current
    cdef public object discard
    cdef public Py_ssize_t encounters
    cdef public object ending
    cdef public list endurance
    cdef public object events
    cdef public bint explicit_chance
    cdef public Py_ssize_t first
    cdef public object frozen_seats
    cdef public Py_ssize_t guesses
    cdef public tuple layout
    cdef public object mixes
    cdef public Py_ssize_t overcame
    cdef public object overcome
    cdef public object phase
    cdef public object removed
    cdef public Py_ssize_t replacement_left
    cdef public unsigned long long rng
    cdef public Py_ssize_t round
    cdef public list shown
    cdef public Py_ssize_t _stood
    cdef public Py_ssize_t _began_on
    cdef public object stacked_first
    cdef public object stacked_rolls
    cdef public Py_ssize_t turns
    cdef public object winner

    @cython.locals(pool=Py_ssize_t)
    cpdef object plain_unseen(self, Py_ssize_t index)
    @cython.locals(k=Py_ssize_t)
    cpdef bint draw(self, Py_ssize_t index, object card) except -1
    @cython.locals(pool=Py_ssize_t, unseen=list, taken=Py_ssize_t, listed=list)
    cpdef Py_ssize_t take(self, Py_ssize_t index, Py_ssize_t k) except? -1
    @cython.locals(mask=Py_ssize_t, s=Py_ssize_t, i=Py_ssize_t)
    cpdef Py_ssize_t seats_mask(self) except -1
    cpdef object single_pool(self, Py_ssize_t pool)
    @cython.locals(new=Position)
    cpdef Position copy(self)
    cpdef Py_ssize_t pool_count(self) except -1
    @cython.locals(index=Py_ssize_t, k=Py_ssize_t, card_at=bytearray)
    cpdef face_down(self, list cells, Py_ssize_t pool)
    cpdef list pile(self)

# The deck of a pool's unseen cards and a figure, made at every freeze: C calls.
@cython.locals(card_at=bytearray, up=dict, i=Py_ssize_t)
cpdef dict _face_up(Position pos)
cpdef object _deck(object cards)
@cython.locals(i=Py_ssize_t)
cpdef tuple _cards_of(list indices)
cdef dict _FIGURES
cpdef object _figure(object cell, object charisma, object endurance)

@cython.locals(card_at=bytearray, i=Py_ssize_t)
cpdef bytearray cards_by_cell(object state)

@cython.locals(form=UnseenForm)
cdef _hold_unseen(Position pos, object beliefs)

@cython.locals(pos=Position, at=list, charisma=list, endurance=list, shown=list, fields=dict, n=Py_ssize_t)
cpdef Position thaw(object state, dict index, object events=*)

@cython.locals(fields=dict)
cpdef rethaw(Position pos, object state, object events)

@cython.locals(n=Py_ssize_t, s=Py_ssize_t)
cpdef tuple figures_of(tuple codes, tuple layout)

@cython.locals(fields=dict, same=bint, i=Py_ssize_t, old=UnseenForm, made=UnseenForm, held=tuple)
cpdef object freeze(Position pos, object legal_key, object legal)
