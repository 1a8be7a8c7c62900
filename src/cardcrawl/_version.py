"""The single source of cardcrawl's version number."""

__version__ = "0.1.0"
"""The version of the installed cardcrawl package."""
