# Cython's augmenting declarations for the compiled build of _position.py (hatch_build.py):
# a deck draws through the core generator's _below, called as C (core/_random.pxd).
from cardcrawl.core._random cimport _below
