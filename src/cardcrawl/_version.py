"""The single source of cardcrawl's version number."""

__version__ = "0.1.0"
