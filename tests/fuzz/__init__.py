"""Fuzz tests: untrusted input (saved states, records, action texts) never crashes, hangs
or corrupts a game. The shared machinery is in ``_fuzz.py``; the inputs the fuzzers
found are pinned in ``test_fuzz_found.py``."""
