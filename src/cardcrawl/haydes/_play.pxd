# Cython's augmenting declarations for the compiled build of _play.py (hatch_build.py).
# The module's source is the pure-Python one; this makes Rules an extension type whose
# rule steps call one another, and read the position's fields (_position.pxd), as C.
# Seats, cells, cards and counts are indices (C integers). What a hook returns (a verdict,
# a value, the next seat) keeps no declared type, so a variant's hook may return any
# number the Python source accepts.
import cython

from cardcrawl.core._random cimport _below
from cardcrawl.haydes._position cimport Position

# The kinds of a decision's code (see Rules.code_of), C constants.
cdef Py_ssize_t _K_HIGHER, _K_LOWER, _K_TUYBE_HIGHER, _K_TUYBE_LOWER, _K_STEP, _K_END, _K_CHOOSE
cdef Py_ssize_t _MAX_PROBES
# Card indices and the core draw's limit, C constants here.
cdef Py_ssize_t _RJ, _BJ, _SMALL, DOWN, _NCARDS
# The parts of the pools by cell (cardcrawl.haydes._state), C constants here.
cdef Py_ssize_t POOL_SHIFT, POOL_MASK
cdef bint _COMPILED
# The module's shared values, read as C references rather than looked up by name.
cdef object _TURN, _ENCOUNTER, _REVEAL, _ROLL, _FIRST, _OVER, _RED_JOKER, _END, _ASK
cdef object _LOWER, _CHARISMA
cdef tuple _CARDS, _REVEALS, _CHARACTERISTICS, _GUESSES
# The stays_face_up table's entry for "asked in play" (see Rules._tabulate).
cdef int _ASK_STAYS

@cython.final
cdef class Rules:
    cdef public tuple cells
    cdef public dict index
    cdef public tuple adj
    cdef public tuple jumps
    cdef public bint tuybe
    cdef public tuple _probes
    cdef public tuple _moves
    cdef public tuple _steps
    cdef public tuple _tuybes
    cdef public tuple _aims
    cdef public bint solo
    cdef public str legal_key
    cdef public dict spare
    cdef public object max_rounds
    cdef public tuple values
    cdef public tuple creatures
    cdef public tuple _choices
    cdef public dict rolls
    cdef public tuple roll_chances
    cdef public tuple _throws
    cdef public object guess_is_correct
    cdef public object is_escape
    cdef public object overcomes
    cdef public object characteristic_after
    cdef public object next_seat
    cdef public object stays_face_up
    cdef public tuple first_chances
    cdef public tuple _first_drawn
    cdef public tuple _turn_ended
    cdef public tuple _began
    cdef public tuple _turn_legal
    cdef public bytes _ranks
    cdef public Py_ssize_t _nv
    cdef public tuple _correct
    cdef public tuple _verdicts
    cdef public tuple _escapes
    cdef public tuple _fights
    cdef public tuple _nexts
    cdef public bytearray _stays

    @cython.locals(probes=tuple, down=cython.ulonglong, j=Py_ssize_t, known=dict)
    cpdef tuple legal_entry(self, Py_ssize_t i, object phase, bytearray card_at)
    cpdef Py_ssize_t code_of(self, object action) except? -1
    cpdef object sample(self, Position pos)
    cpdef settle(self, Position pos)
    cpdef apply(self, Position pos, object action)
    @cython.locals(kind=Py_ssize_t, seat=Py_ssize_t, card=Py_ssize_t)
    cpdef play(self, Position pos, Py_ssize_t code, bint resolve=*)
    @cython.locals(
        index=Py_ssize_t, k=Py_ssize_t, n=Py_ssize_t, pool=Py_ssize_t, unseen=list, listed=list,
        card=Py_ssize_t,
    )
    cpdef Py_ssize_t _drawn(self, Position pos, bint take) except? -2
    @cython.locals(n=Py_ssize_t, k=Py_ssize_t, throws=tuple)
    cpdef object _thrown(self, Position pos)
    @cython.locals(seat=Py_ssize_t, round_=Py_ssize_t, i=Py_ssize_t, c=Py_ssize_t)
    cpdef _begin_turn(self, Position pos)
    @cython.locals(
        aimed=Py_ssize_t, index=Py_ssize_t, seat=Py_ssize_t, from_card=Py_ssize_t,
        lower=Py_ssize_t, at=list, here=Py_ssize_t, values=tuple,
    )
    cpdef _revealed(self, Position pos, Py_ssize_t c, bint drawn)
    @cython.locals(seat=Py_ssize_t, c=Py_ssize_t)
    cpdef _step(self, Position pos, Py_ssize_t index)
    cpdef _meet(self, Position pos, Py_ssize_t seat, Py_ssize_t index, Py_ssize_t c)
    @cython.locals(seat=Py_ssize_t, i=Py_ssize_t, c=Py_ssize_t, at=list, on_charisma=bint)
    cpdef _rolled(self, Position pos, object total)
    @cython.locals(seat=Py_ssize_t, players=Py_ssize_t, mask=Py_ssize_t)
    cpdef _end_turn(self, Position pos)
    @cython.locals(
        i=Py_ssize_t, shown=list, asked=list, stood=Py_ssize_t, began=Py_ssize_t, k=Py_ssize_t,
        targets=list, cells=tuple, card_at=bytearray,
        left=Py_ssize_t, at=list, table=bytearray, occupied=bint, stays=int, c=Py_ssize_t,
        joker=Py_ssize_t, pile=list, start=Py_ssize_t, removed_at=dict, gone=tuple, j=Py_ssize_t,
    )
    cpdef _replace_cards(self, Position pos)
