# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py):
# see haydes/_kernel.pxd. The generator's words, the counts, the stage of play and the
# cell arithmetic of the Stalkers get C types: every name here only ever holds an int.
import cython

@cython.locals(
    rng=cython.ulonglong, bot=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong,
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, small=cython.Py_ssize_t, n=cython.Py_ssize_t,
    decisions=cython.Py_ssize_t, stage=cython.int, turn=cython.Py_ssize_t, w=cython.Py_ssize_t, k=cython.Py_ssize_t,
    px=cython.Py_ssize_t, py=cython.Py_ssize_t, sx=cython.Py_ssize_t, sy=cython.Py_ssize_t,
    dx=cython.Py_ssize_t, dy=cython.Py_ssize_t, target=cython.Py_ssize_t,
    total=cython.Py_ssize_t, threshold=cython.Py_ssize_t, d=cython.Py_ssize_t,
    farthest=cython.Py_ssize_t, at_exit=cython.Py_ssize_t,
    table=dict, frontier=dict, closed=set, open_cells=set, corridor_open=set,
    narrative=list, mind=list, body=list, mind_aside=list, body_aside=list, refused=list,
    held=list, events=list, cells=list, far_cards=list, limits=tuple, corridor=tuple,
    room=tuple, value=tuple,
)
cpdef _run(game, state, seed, kind, max_decisions, build=*)
