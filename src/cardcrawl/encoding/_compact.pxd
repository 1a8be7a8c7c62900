# Cython's augmenting declarations for the compiled build of _compact.py (hatch_build.py):
# RowWriter is an extension type, so that a game's writer (haydes/_compact.pxd) can be one
# too and reach its own fields as C.
cdef class RowWriter:
    cdef public object compact
    cdef public object working
    cdef public Py_ssize_t seat
