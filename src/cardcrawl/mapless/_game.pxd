# Cython's augmenting declarations for the compiled build of _game.py (hatch_build.py).
# The game's class stays a Python class, so that a variant subclasses it as any class;
# its stock hooks call the rule functions of _rules as C.
from cardcrawl.mapless._rules cimport corridor_cells, exit_candidates, room_cells, stalker_step
