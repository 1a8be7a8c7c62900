# Cython's augmenting declarations for the compiled build of _game.py (hatch_build.py).
# The game's class stays a Python class, so that a variant subclasses it as any class;
# the stock hooks asked at every placement and every turn call their rule functions of
# _rules as C (exit_candidates, asked once a game, stays a Python call). The rules
# (_play.Rules) call those functions themselves for a stock hook. The public step's
# frame thaws and freezes its working position through the position's functions,
# called as C.
from cardcrawl.mapless._position cimport freeze, setup, thaw
from cardcrawl.mapless._rules cimport (
    black_suit_exhausted, club_arrival, corridor_cells, encounter_threshold, encounter_total, move_cells,
    room_cells, stalker_target,
)
