# Cython's augmenting declarations for the compiled build of _engine.py (hatch_build.py).
# GameBase stays a Python class that games subclass; the kept working positions of the
# public step (keep_position, take_position) are C functions, which a game's compiled
# step frame calls as C.
cpdef keep_position(dict spare, dict memo, object position)
cpdef object take_position(dict spare, dict memo)
