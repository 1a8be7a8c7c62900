"""Adapters for the game-AI ecosystem: each wraps a cardcrawl game for one library.

* :mod:`cardcrawl.adapters.gymnasium`: single-agent environments (The Mapless House, solo
  Escape from Haydes), installed with ``pip install "cardcrawl[gymnasium]"``;
* :mod:`cardcrawl.adapters.pettingzoo`: AEC environments for every built-in game,
  1 to 4 agents, installed with ``pip install "cardcrawl[pettingzoo]"``;
* :mod:`cardcrawl.adapters.openspiel`: OpenSpiel games, installed with
  ``pip install "cardcrawl[openspiel]"``.

Import the submodule you need: this package imports none of them, and the core of
cardcrawl never imports an adapter, so the extras stay optional. All adapters number
actions and lay out observations with :mod:`cardcrawl.encoding`.
"""
