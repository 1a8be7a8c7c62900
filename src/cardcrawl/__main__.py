"""``python -m cardcrawl``: the command line (see :mod:`cardcrawl.cli`)."""

from cardcrawl.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
