"""``python -m cardcrawl``: the command line (see :mod:`cardcrawl._cli`)."""

from cardcrawl._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
