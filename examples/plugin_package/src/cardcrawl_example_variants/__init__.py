"""Variants of cardcrawl's games, registered by a plug-in (see pyproject.toml).

cardcrawl imports this module the first time a game name is looked up that it does not
know yet: importing it registers The Mapless House, sprint. The Escape from Haydes
variant is registered by a function instead, ``haydes.register``, which cardcrawl calls.
"""

import cardcrawl

cardcrawl.register_variant(
    "mapless-house-sprint",
    base="mapless-house",
    options={"max_turns": 12},
    description="The Mapless House, sprint: lost after 12 turns of the hunt.",
)
