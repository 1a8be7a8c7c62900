"""The core every game stands on: the protocol, the engine, options, saving, chance, the
registry.

- ``_protocol``: the :class:`~cardcrawl.Game` protocol, ``CHANCE``, ``TERMINAL``,
  :class:`~cardcrawl.Outcome`;
- ``_engine``: :class:`~cardcrawl.GameBase`, the protocol written once over a game's hooks
  (legality, stepping, chance sampled or explicit), with its checks, saving and notation
  mixed in from modules of their own:
- ``_validation``: ``validate``, ``state_problems``, ``census_problems``, ``check_player``;
- ``_saving``: states, actions and observations as JSON-compatible data, and their schemas
  (``_schema`` generates them);
- ``_notation``: the position notation's protocol, its shared pieces, and ``notation``,
  ``position`` and ``build``;
- ``_options``: :class:`~cardcrawl.OptionsBase`, frozen validated options;
- ``_codec``: the type-directed JSON codec that checks every field it reads;
- ``_random``: SplitMix64 as an integer carried in every state;
- ``_registry``: games and variants by name, and the plug-ins that bring more.

Nothing here names a game. The public names are re-exported by :mod:`cardcrawl`; import
them from there. (This package re-exports nothing itself, so that the kit, which draws
with the generator, and the core, which reads and writes cards, can import each other's
modules in any order.)

Examples:
    >>> import cardcrawl
    >>> cardcrawl.GameBase.__module__
    'cardcrawl.core._engine'
"""

__all__: list[str] = []
