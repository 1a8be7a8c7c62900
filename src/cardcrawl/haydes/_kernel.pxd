# Cython's augmenting declarations for the compiled build of _kernel.py (hatch_build.py).
# The module's source is the pure-Python one; this only gives C types to names that
# only ever hold one type. SplitMix64 on unsigned 64-bit words wraps exactly as the
# Python source's ``& mask`` does, and every rejection test compares with the highest
# accepted output (_highest_accepted), which fits in such a word. Cells, seats, cards and
# counts are indices (C integers); the position's pieces are the lists, sets and tuples
# _run builds itself. What a variant's hook returns (a value, a verdict, the next seat)
# keeps no declared type, so a hook may return any number the Python source accepts.
# A name declared here is typed in every comprehension of _run too.
import cython

@cython.locals(
    rng=cython.ulonglong, b=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong,
    mask=cython.ulonglong, gamma=cython.ulonglong, mul1=cython.ulonglong,
    mul2=cython.ulonglong, small=cython.Py_ssize_t, n=cython.Py_ssize_t, k=cython.Py_ssize_t, m=cython.Py_ssize_t,
    nd=cython.Py_ssize_t, n_throws=cython.Py_ssize_t, decisions=cython.Py_ssize_t,
    c=cython.Py_ssize_t, j=cython.Py_ssize_t, x=cython.Py_ssize_t, i=cython.Py_ssize_t,
    p=cython.Py_ssize_t, card=cython.Py_ssize_t, cur=cython.Py_ssize_t,
    first=cython.Py_ssize_t, rnd=cython.Py_ssize_t, players=cython.Py_ssize_t,
    turns=cython.Py_ssize_t, guesses=cython.Py_ssize_t, correct_count=cython.Py_ssize_t,
    encounters=cython.Py_ssize_t, overcame=cython.Py_ssize_t, left=cython.Py_ssize_t,
    joker=cython.Py_ssize_t, room=cython.Py_ssize_t, lower=cython.Py_ssize_t, total=cython.Py_ssize_t,
    up=list, pool_of=list, shown=list, pools=list, pool=list, rows=list, mixes=list,
    seat_cell=list, cha=list, endu=list, bots=list, discard=list, removed=list, keep=list,
    targets=list, fd=list, discarded=list, gone=list, events=list, overcome=set,
    adj=tuple, throws=tuple, limits=tuple, values=tuple, creatures=tuple,
)
cpdef _run(game, seed, max_decisions, start, build)
