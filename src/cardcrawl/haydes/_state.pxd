# Cython's augmenting declarations for the compiled build of _state.py (hatch_build.py).
# The state and its values stay Python (attrs) classes. UnseenForm, the rules' form of a
# single belief, which every freeze after a card drawn makes, is an extension type whose
# two fields the working position's thaw and freeze (_position.pxd) read and set as C.
import cython

@cython.final
cdef class UnseenForm:
    cdef public object mixed
    cdef public object unseen
