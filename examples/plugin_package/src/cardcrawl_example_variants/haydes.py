"""Escape from Haydes, sprint: a variant registered by a function the plug-in names."""

import cardcrawl


def register() -> None:
    """Register the variant; cardcrawl calls this once, when it loads the plug-in."""
    cardcrawl.register_variant(
        "escape-from-haydes-sprint",
        base="escape-from-haydes",
        options={"max_rounds": 8},
        description="Escape from Haydes, sprint: nobody escapes after 8 rounds.",
    )
