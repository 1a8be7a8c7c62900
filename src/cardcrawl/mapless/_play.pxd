# Cython's augmenting declarations for the compiled build of _play.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Rules an extension type whose
# rule steps call one another, and read the position's fields (_position.pxd), as C.
# The hooks stay the game's bound methods, any object: what a variant's hook returns
# keeps no declared type, so it may return whatever the Python source accepts.
import cython

from cardcrawl.mapless._position cimport Position, WorkingDeck, close, put_card, reopen
from cardcrawl.mapless._rules cimport (
    black_suit_exhausted, club_arrival, corridor_cells, exit_candidates, encounter_threshold, encounter_total, move_cells,
    newly_closed, room_cells, stalker_target,
)

# The module's constants (phases, endings, tables by card index), as C globals.
cdef object _DRAW, _PLACE, _PLACE_EXIT, _MOVE, _DRAW_MIND, _DRAW_BODY, _OVER
cdef object _ESCAPED, _CONSUMED, _LOST, _SHUFFLED_BACK
cdef Py_ssize_t _EXIT_INDEX, _TURNS
cdef tuple _CARDS_DRAWN, _TURNS_STARTED, _IS_HEART, _IS_DIAMOND

@cython.final
cdef class Rules:
    cdef public object club_arrival
    cdef public tuple corridor
    cdef public object encounter_threshold
    cdef public object encounter_total
    cdef public object exit_cells
    cdef public object exit_may_open
    cdef public object game
    cdef public object max_turns
    cdef public object move_cells
    cdef public object placement_cells
    cdef public tuple room
    cdef public object score
    cdef public object stalker_step
    cdef public object corridor_cells
    cdef public object room_cells
    cdef public tuple values
    cdef public bint stock_placement
    cdef public bint stock_corridor
    cdef public bint stock_room
    cdef public bint stock_moves
    cdef public bint stock_threshold
    cdef public bint stock_total
    cdef public bint stock_step
    cdef public bint stock_arrival
    cdef public bint stock_may_open
    cdef public bint stock_exits

    cpdef object decision_cells(self, object view)
    cpdef object placement(self, object view, object card)
    cpdef object placement_at(self, object view, Py_ssize_t index, object table, object closed,
                              object last_room)
    cpdef act(self, Position p, object action, list ev)
    cpdef decide(self, Position p, object cell, list ev)
    @cython.locals(deck=WorkingDeck)
    cpdef resolve(self, Position p, list ev)
    cpdef tuple outcomes(self, Position p, WorkingDeck deck)
    @cython.locals(index=Py_ssize_t)
    cpdef drawn(self, Position p, object card, list ev)
    @cython.locals(index=Py_ssize_t)
    cpdef place(self, Position p, object cell, list ev)
    cpdef after_narrative(self, Position p, list ev)
    cpdef open_exit(self, Position p, object cell, object candidates, list ev)
    @cython.locals(turn=Py_ssize_t)
    cpdef begin_turn(self, Position p, list ev)
    cpdef move_step(self, Position p, list ev)
    cpdef move(self, Position p, object cell, list ev)
    cpdef enter_mind_draw(self, Position p, list ev)
    cpdef enter_body_draw(self, Position p, list ev)
    cpdef bint enter_draw(self, Position p, bint mind, list ev) except -1
    @cython.locals(index=Py_ssize_t)
    cpdef encounter(self, Position p, object body_card, list ev)
    cpdef stalkers(self, Position p, list ev)
    cpdef finish(self, Position p, object ending, list ev, object stalker)
