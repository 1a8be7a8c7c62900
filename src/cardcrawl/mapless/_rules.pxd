# Cython's augmenting declarations for the compiled build of _rules.py (hatch_build.py).
# The functions' arguments keep no declared type, so they take whatever the Python source
# takes; the locals that only ever hold a grid's dicts (a Grid's ``cards`` and
# ``frontier`` are its own dicts), a list or a set are typed, so the placement rules that
# run at every draw loop over them as C.
import cython

@cython.locals(closed=set, cards=dict, around=dict, touching=tuple, four=tuple, empty=list)
cpdef set newly_closed(object table, object placed, object corridors=*)

@cython.locals(frontier=dict, cards=dict, cells=list)
cpdef list corridor_cells(object table, object closed, object last_room)

@cython.locals(cells=list, frontier=dict)
cpdef list room_cells(object table, object closed)
