# Cython's augmenting declarations for the compiled build of _game.py (hatch_build.py).
# The game's class stays a Python class, so that a variant subclasses it as any class;
# the stock hooks asked at every placement and every turn call their rule functions of
# _rules as C (exit_candidates, asked once a game, stays a Python call). The rules
# (_play.Rules) call those functions themselves for a stock hook. The public step's
# frame (advance, frozen) is the module's functions, which call the rules' steps and
# the position's thaw and freeze as C, and read the interned actions of the cells of a
# decision by their place in a window of cells (_actions).
import cython

from cardcrawl.core._engine cimport keep_position, take_position
from cardcrawl.mapless._play cimport Rules
from cardcrawl.mapless._position cimport Position, freeze, setup, thaw
from cardcrawl.mapless._rules cimport (
    black_suit_exhausted, club_arrival, corridor_cells, encounter_threshold, encounter_total, move_cells,
    room_cells, stalker_target,
)

cdef bint _COMPILED
cdef Py_ssize_t _SIDE, _OFFSET
cdef list _PLACES_AT, _MOVES_AT

@cython.locals(window=list, found=list, x=Py_ssize_t, y=Py_ssize_t, code=Py_ssize_t)
cpdef tuple _actions(object phase, object cells)
@cython.locals(position=Position, rules=Rules, events=list)
cpdef object advance(object game, object state, object action)
cpdef object frozen(object game, Position position, list events, bint keep)
