# Cython's augmenting declarations for the compiled build of _position.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Position and WorkingDeck
# extension types whose attributes are C fields, so that the rules (_play.pxd) read and
# write them directly. A field is typed only where it only ever holds one type (the
# flags, the turn, a working deck's lists); every other field is any object, as in the
# Python source, since a hook's attrs.evolve may give it whatever a state holds.
# A deck draws through the core generator's _below, called as C (core/_random.pxd).
import cython

from cardcrawl.core._random cimport _below

@cython.locals(cache=dict, around=tuple)
cpdef put_card(dict cards, dict frontier, object cell, object card)

@cython.final
cdef class WorkingDeck:
    cdef public list _rest
    cdef public list _stacked
    cdef public object source

    cpdef _own(self)
    @cython.locals(rest=list)
    cpdef tuple draw(self, object rng)
    @cython.locals(rest=list)
    cpdef take(self, object card)
    cpdef shuffle_in(self, object card)
    cpdef object freeze(self)

@cython.final
cdef class Position:
    cdef public object body
    cdef public object body_aside
    cdef public object choices
    cdef public object closed
    cdef public object club
    cdef public object drawn
    cdef public object ending
    cdef public object exit_cell
    cdef public bint explicit_chance
    cdef public object held
    cdef public object last_room
    cdef public object mind
    cdef public object mind_aside
    cdef public object mind_card
    cdef public object narrative
    cdef public object phase
    cdef public object player
    cdef public bint ran_dry
    cdef public object refused
    cdef public object rng
    cdef public object spade
    cdef public bint spade_left_exit
    cdef public object table
    cdef public Py_ssize_t turn

    cpdef WorkingDeck drawing(self)
    cpdef object working_table(self)

@cython.locals(p=Position)
cpdef Position thaw(object state)

@cython.locals(p=Position)
cpdef Position setup(object rng, bint explicit_chance, object decks, object table)

@cython.locals(fields=dict)
cpdef object freeze(Position p, object events)
