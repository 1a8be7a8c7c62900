# Cython's augmenting declarations for the compiled build of _position.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Position, WorkingDeck and Board
# extension types whose attributes are C fields, so that the rules (_play.pxd) read and
# write them directly, and a board's byte arrays are read and written through C pointers
# (unsigned char*: no bound check and no object per cell, every code indexed lying in the
# board's window). A field is typed only where it only ever holds one type (the flags,
# the turn, a working deck's lists); every other field is any object, as in the Python
# source, since a hook's attrs.evolve may give it whatever a state holds.
# A deck draws through the core generator's _below, called as C (core/_random.pxd).
import cython

from cardcrawl.core._random cimport _below

# The board's window (see _position.py), as C constants.
cdef Py_ssize_t _SIDE, _OFFSET, _LOW, _HIGH
cdef tuple _CELL_OF
cdef bytearray _BLANK
cdef dict _NEIGHBOURS
cdef object _DRAW, _DRAW_MIND

@cython.final
cdef class Board:
    cdef public bytearray cards
    cdef public bytearray touching
    cdef public bytearray marks
    cdef public Py_ssize_t x_low, x_high, y_low, y_high
    cdef public object marked
    cdef public Py_ssize_t stamp
    cdef public dict grid
    cdef public dict frontier

    @cython.locals(cards=cython.p_uchar, touching=cython.p_uchar, code=Py_ssize_t, x=Py_ssize_t,
                   y=Py_ssize_t)
    cpdef bint lay(self, object cell, object card, Py_ssize_t index) except -1
    @cython.locals(marks=cython.p_uchar, code=Py_ssize_t, stamp=Py_ssize_t)
    cpdef mark(self, object cells)
    @cython.locals(marks=cython.p_uchar, code=Py_ssize_t, stamp=Py_ssize_t)
    cpdef mark_more(self, set cells, object marked)
    @cython.locals(frontier=dict, touching=cython.p_uchar)
    cpdef dict frontier_dict(self)
    cpdef clear(self)

cdef list _SPARE_BOARDS
cdef Py_ssize_t _SPARE_LIMIT

cdef Board _new_board()

@cython.locals(board=Board)
cpdef release_board(object table)

@cython.locals(cells=list, counts=cython.p_uchar, laid=cython.p_uchar, cell_of=tuple,
               x=Py_ssize_t, code=Py_ssize_t, end=Py_ssize_t)
cdef list _front(Board board)

cdef tuple _LAST_BOARD

@cython.locals(last=tuple)
cdef inline Board _board_of(object table)

cdef _set_board(object table, Board board)

@cython.locals(x=Py_ssize_t, y=Py_ssize_t)
cdef inline Py_ssize_t _code_inside(object cell, Py_ssize_t margin)

@cython.locals(on_board=Board, cards=dict)
cpdef object working_copy(object grid, bint board=*)

@cython.locals(board=Board, cards=dict, frontier=dict, cache=dict, around=tuple)
cpdef put_card(object table, object cell, object card, Py_ssize_t index=*)

@cython.locals(board=Board, grown=set)
cpdef close(Position p, set cells)

cpdef reopen(Position p, object cell)

@cython.locals(board=Board)
cpdef object frontier_cells(object table)

@cython.locals(board=Board, around=list, code=Py_ssize_t, index=Py_ssize_t, laid=cython.p_uchar, cards=dict, near=tuple)
cpdef list empty_around(object table, object cell, object kinds)

cdef list _EMPTY_ROWS

@cython.locals(empty=list, cell_of=tuple, row=list, way=Py_ssize_t)
cdef inline list _empty_at(unsigned char* laid, Py_ssize_t code)

@cython.locals(board=Board, laid=list, code=Py_ssize_t, on=cython.p_uchar, cell_of=tuple, around=tuple)
cpdef list laid_neighbours(object table, object cell)

@cython.locals(board=Board, empty=list, code=Py_ssize_t, cards=dict, around=tuple)
cpdef list empty_neighbours(object table, object cell)

@cython.locals(board=Board, cells=list, counts=cython.p_uchar, marks=cython.p_uchar, laid=cython.p_uchar,
               cell_of=tuple, code=Py_ssize_t, stamp=Py_ssize_t, frontier=dict, x=Py_ssize_t,
               end=Py_ssize_t, n=Py_ssize_t)
cpdef list open_cells(object table, Py_ssize_t touching, object closed, object among=*)

@cython.locals(board=Board, code=Py_ssize_t, index=Py_ssize_t, laid=cython.p_uchar)
cpdef Py_ssize_t laid_index(object table, object cell) except? -1

cdef class Position

@cython.final
cdef class WorkingDeck:
    cdef public bint _once
    cdef public list _rest
    cdef public list _stacked
    cdef public object source

    cpdef _own(self)
    @cython.locals(rest=list, cards=tuple, rng=cython.ulonglong, k=Py_ssize_t)
    cpdef object draw(self, Position p)
    @cython.locals(rest=list, cards=tuple, k=Py_ssize_t)
    cpdef take(self, object card)
    cpdef shuffle_in(self, object card)
    cpdef object freeze(self)

@cython.final
cdef class Position:
    cdef public object body
    cdef public object body_aside
    cdef public object choices
    cdef public object closed_set
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
    cdef public unsigned long long rng
    cdef public object spade
    cdef public bint spade_left_exit
    cdef public object table
    cdef public Py_ssize_t turn
    # A batch keeps each position's last events beside it, weakly.
    cdef object __weakref__

    cpdef WorkingDeck drawing(self)
    cpdef object working_table(self)
    cpdef board_table(self)
    cpdef own(self)

@cython.locals(working=WorkingDeck)
cdef WorkingDeck _owned(object deck)

@cython.locals(p=Position)
cpdef Position thaw(object state)

@cython.locals(p=Position)
cpdef Position setup(object rng, bint explicit_chance, object decks, object table)

@cython.locals(fields=dict, working=WorkingDeck)
cpdef object freeze(Position p, object events, object legal_key=*, object legal=*)
