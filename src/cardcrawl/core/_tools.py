"""What a game brings to the generic tools, declared once where the game registers.

The generic tools (simulation, pictures, the search bot, the adapters, the encodings,
the command line) never name a game: each asks the registry for the :class:`GameTools`
of the game it is given. A game's plug-ins are the slots of its one ``GameTools``, so a
new game touches its own package and one ``register_game`` call, and nothing registers
when a module is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from types import MappingProxyType
from typing import Any, Protocol

import attrs

from cardcrawl.core._terminal import TerminalPlay
from cardcrawl.errors import OptionsError

__all__ = ["Figures", "GameTools", "OpenSpielSettings", "Panel", "RolloutKernel"]

#: A game's figures, as its figure tracker reports them: ``(name, value)`` pairs.
Figures = tuple[tuple[str, Any], ...]


class RolloutKernel(Protocol):
    """A game's fast path for whole games of uniform-random play (see
    ``GameTools.rollout``).

    A kernel plays whole games on a private, mutable form of the game, without building
    a public state at every step: it may be used only where it plays exactly the games
    the public path plays (``initial_state(seed)``, ``legal_actions``,
    :class:`~cardcrawl.bots.RandomBot` with ``seed`` in every seat, ``step``), and
    :func:`cardcrawl.testing.check_kernel` proves that, seed by seed. Its factory gives
    no kernel for a game whose rules it does not play (a variant that overrides a rule
    step, or a hook the kernel does not call), which is then played the public way.

    Examples:
        >>> import cardcrawl
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> kernel = cardcrawl.tools_for(game).rollout(game)
        >>> state, decisions, figures = kernel.play(1, 100_000)
        >>> game.is_terminal(state), decisions > 0
        (True, True)
    """

    def play(
        self, seed: int, max_decisions: int, start: Any = None
    ) -> tuple[Any, int, Figures | None] | None:
        """The game of ``seed`` played to its end, from the seed's setup or from
        ``start``: ``(final state, decisions, figures)`` (the figures of the game's own
        tracker, ``None`` without one), or ``None``: a start it does not play from, or a
        game still going after ``max_decisions`` decisions."""
        ...

    def summary(
        self, seed: int, max_decisions: int, figures: Callable[[Any], Any] | None
    ) -> tuple[Any, int, Figures | None] | None:
        """What a simulation keeps of the game of ``seed``: ``(outcome, decisions,
        figures)``, the final state left unbuilt; or ``None`` where :meth:`play` gives
        none, or when ``figures`` is a tracker the kernel does not count for."""
        ...


def _frozen(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


def _oracles(_: Any, __: Any, oracles: Mapping[str, Any]) -> None:
    for name, factory in oracles.items():
        if not isinstance(name, str) or not name or " " in name:
            raise OptionsError(
                f"an oracle's name is a non-empty string without spaces, not {name!r}"
            )
        if getattr(factory, "sees_state", False) is not True:
            raise OptionsError(
                f"oracle {name!r} must declare sees_state = True, so that whoever plays it "
                "knows to pass it the state rather than an observation"
            )


@attrs.frozen
class OpenSpielSettings:
    """How a game shows itself to OpenSpiel: plain data, so the core never imports it.

    Attributes:
        short_name: the OpenSpiel name (``"cardcrawl_mapless_house"``).
        long_name: the OpenSpiel long name.
        max_players: the most players the game takes (OpenSpiel's ``max_num_players``).
        parameters: the OpenSpiel parameters besides ``variant`` and the limit option,
            with their defaults (OpenSpiel infers each parameter's type from its
            default).
        options: turns those parameters' values into cardcrawl options (a parameter
            left at its default may be left out); ``None``: the parameters are options
            of the same names.
        max_game_length: an upper bound on the decisions of one game, from the game's
            options (OpenSpiel's ``max_game_length``).
        max_chance_nodes: an upper bound on the chance events of one game, from its
            options (OpenSpiel's ``max_chance_nodes_in_history``); ``None``: at most one
            chance event per decision, so ``max_game_length`` bounds them too.

    Examples:
        >>> import cardcrawl
        >>> settings = cardcrawl.tools_for("mapless-house").openspiel
        >>> settings.short_name, settings.max_players
        ('cardcrawl_mapless_house', 1)
        >>> settings.max_game_length(cardcrawl.load("mapless-house", max_turns=30).options)
        56
    """

    short_name: str
    long_name: str
    max_players: int
    max_game_length: Callable[[Any], int]
    parameters: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen)
    options: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    max_chance_nodes: Callable[[Any], int] | None = None


#: The kinds of :class:`Panel`.
PANEL_KINDS = ("outcomes", "rate", "histogram")


def _panel_kind(_: Any, __: Any, kind: Any) -> None:
    if kind not in PANEL_KINDS:
        raise OptionsError(f"a panel's kind is one of {', '.join(PANEL_KINDS)}, not {kind!r}")


@attrs.frozen
class Panel:
    """One panel of a simulation's report plot: plain data, so the core never imports
    matplotlib.

    Attributes:
        kind: ``"outcomes"`` (every outcome's rate for each bot lineup, in the game's
            outcome order), ``"rate"`` (one outcome's rate against the values of a
            figure) or ``"histogram"`` (a figure's distribution, one bin per integer).
        figure: the figure on the x axis (``"decisions"`` is always there); ``None``
            for ``"outcomes"``.
        title: the panel's title (default: made from the others).
        xlabel: the x axis' label (default: the figure's name).
        outcome: the outcome a ``"rate"`` panel counts (default: the game's first).

    Examples:
        >>> import cardcrawl
        >>> [panel.kind for panel in cardcrawl.tools_for("mapless-house").panels]
        ['rate', 'histogram', 'outcomes']
    """

    kind: str = attrs.field(validator=_panel_kind)
    figure: str | None = None
    title: str = ""
    xlabel: str = ""
    outcome: str | None = None


@attrs.frozen
class GameTools:
    """Everything the generic tools need to know of a game, found through the registry.

    A variant uses the tools of the game it varies.

    Attributes:
        limit: the option that bounds a game's length and the value that bots,
            simulations and the adapters use by default (``("max_turns", 200)``);
            ``None`` for a game that always ends on its own.
        shortcuts: options the command line offers as flags of their own, such as
            ``{"max_turns": "--max-turns"}``.
        encoding: builds the game's :class:`~cardcrawl.encoding.Encoding` from a loaded
            game; ``None``: no encoding, so no adapters.
        figures: builds a simulation's per-game figure tracker from a loaded game (see
            :func:`cardcrawl.simulate.simulate`); ``None``: no figures beyond the
            outcome.
        outcomes: every label the game's outcomes can have, in the fixed order that
            tables, files and plots show them; the first is the one a report's rates are
            about (a win, in a game that can be won). Labels not declared come after,
            alphabetically.
        panels: the panels of a simulation's report plot (:class:`Panel`); none
            declared: the outcomes by lineup and the distribution of decisions.
        openspiel: how the OpenSpiel adapter registers the game; ``None``: it does not.
        gymnasium: Gymnasium environment ids, each with the game or variant name it
            plays (``"game"``) and its options.
        terminal: how ``cardcrawl play`` shows and explains the game at the keyboard
            (:class:`~cardcrawl.TerminalPlay`: its map view, what each
            action means, its rules in short, its hint bot); ``None``: ``render`` and
            ``describe`` alone.
        rollout: builds the game's :class:`~cardcrawl.RolloutKernel` from a loaded game, or gives
            ``None`` for a game whose rules the kernel does not play; ``simulate`` plays
            a game whose every seat is the random bot on it. ``None``: no kernel.
        working: builds the game's :class:`~cardcrawl.Working` from a loaded game and
            ``events`` (whether frozen states carry their events), or gives ``None``;
            the native vector environment steps its games through it. ``None``: the
            :class:`~cardcrawl.StateWorking` over the public API.
        players_out: the seats out of a game for good before it ends,
            ``players_out(game, state)``; a multi-player adapter ends their episodes at
            once. ``None``: every player plays until the game ends.
        svg: draws a state as SVG text, ``svg(game, state)`` (see
            :func:`cardcrawl.svg`); ``None``: the game's ``render_svg`` method, if any.
        search_model: the game's :class:`~cardcrawl.bots.SearchModel`, which lets
            :class:`~cardcrawl.bots.SearchBot` play it; ``None``: the search bot does not.
        oracles: players that cheat (shown the true state, their class says
            ``sees_state = True``), by name: factories ``factory(game, seed, seat)``
            kept apart from the bots, to bound from above what a bot could do.

    Examples:
        >>> import cardcrawl
        >>> tools = cardcrawl.tools_for("escape-from-haydes-tuybe")
        >>> tools.limit, dict(tools.shortcuts)
        (('max_rounds', 100), {'max_rounds': '--max-rounds', 'players': '--players'})
        >>> house = cardcrawl.tools_for("mapless-house")
        >>> house.svg is not None, type(house.search_model).__name__, list(house.oracles)
        (True, 'MaplessSearchModel', ['oracle'])
    """

    limit: tuple[str, int] | None = None
    shortcuts: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    encoding: Callable[[Any], Any] | None = None
    figures: Callable[[Any], Any] | None = None
    outcomes: tuple[str, ...] = ()
    panels: tuple[Panel, ...] = ()
    openspiel: OpenSpielSettings | None = None
    gymnasium: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict, converter=_frozen)
    terminal: TerminalPlay | None = None
    rollout: Callable[[Any], RolloutKernel | None] | None = None
    working: Callable[[Any, bool], Any] | None = None
    players_out: Callable[[Any, Any], Collection[int]] | None = None
    svg: Callable[[Any, Any], str] | None = None
    search_model: Any = None
    oracles: Mapping[str, Callable[..., Any]] = attrs.field(
        factory=dict, converter=_frozen, validator=_oracles
    )
