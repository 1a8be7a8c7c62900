# Cython's augmenting declarations for the compiled build of _rules.py (hatch_build.py).
# The functions' arguments keep no declared type, so they take whatever the Python source
# takes; the locals that only ever hold a grid's dict of cards, a list or a set are typed,
# and the questions the placement rules ask of the grid (_position's open_cells,
# empty_around and empty_neighbours, which read a rollout's board as C) are called as C.
import cython

from cardcrawl.mapless._position cimport (
    empty_around, empty_neighbours, frontier_cells, laid_index, laid_neighbours, open_cells,
)


@cython.locals(closed=set, empty=list)
cpdef set newly_closed(object table, object placed, object corridors=*)

@cython.locals(empty=list)
cpdef list corridor_cells(object table, object closed, object last_room)

cpdef list room_cells(object table, object closed)

@cython.locals(cells=list, ex=Py_ssize_t, ey=Py_ssize_t, farthest=Py_ssize_t, x=Py_ssize_t,
               y=Py_ssize_t, dx=Py_ssize_t, dy=Py_ssize_t, d=Py_ssize_t)
cpdef list exit_candidates(object table)

@cython.locals(x=Py_ssize_t, y=Py_ssize_t, px=Py_ssize_t, py=Py_ssize_t, dx=Py_ssize_t,
               dy=Py_ssize_t, sx=Py_ssize_t, sy=Py_ssize_t)
cpdef object stalker_step(object stalker, object player, object forbidden=*)

cdef Py_ssize_t _SPADE_STALKER_INDEX

cpdef object stalker_target(object stalker, object cell, object player, bint spade_left_exit,
                            object exit_cell)

cpdef list move_cells(object table, object player)

cpdef object encounter_threshold(object values, object table, object player)

cpdef object encounter_total(object values, object cards)

cpdef object club_arrival(bint ran_dry)

cdef tuple _IS_SPADE, _IS_CLUB

cpdef bint black_suit_exhausted(object narrative) except -1
