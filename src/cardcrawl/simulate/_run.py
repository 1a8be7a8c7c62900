"""Playing many games: reproducible, in batches, on any executor, stoppable with Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from typing import Any, Protocol

import attrs

from cardcrawl.bots._base import (
    BotFactory,
    game_family,
    get_bot_spec,
    make_bot,
    notify_game_over,
)
from cardcrawl.bots._random_bot import RandomBot
from cardcrawl.core._engine import GameBase
from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._registry import _set_slot_deprecated, tools_for
from cardcrawl.core._seeds import derived_seed
from cardcrawl.errors import CardcrawlError, OptionsError, short_repr
from cardcrawl.simulate._results import (
    FORFEIT,
    UNFINISHED,
    Figure,
    GameResult,
    SimulationResult,
)

__all__ = [
    "FigureTracker",
    "Progress",
    "play_game",
    "register_figures",
    "simulate",
    "start_from_position",
]

#: What plays a seat: a registered bot name or a factory ``factory(game, seed, seat)``.
BotChoice = str | BotFactory

#: What a bot's failure does to its game: raise the error, or forfeit the game.
BOT_ERROR_CHOICES = ("raise", "forfeit")


def _check_on_bot_error(on_bot_error: Any) -> str:
    if on_bot_error not in BOT_ERROR_CHOICES:
        raise OptionsError(f"on_bot_error is 'raise' or 'forfeit', not {on_bot_error!r}")
    return str(on_bot_error)


# ------------------------------------------------------------------ figures
class FigureTracker(Protocol):
    """Collects a game's own figures while one game is played (one tracker per game).

    A game declares a factory of trackers where it registers, as the ``figures`` slot
    of its :class:`~cardcrawl.GameTools`; :func:`play_game` then makes one tracker per
    game, calls :meth:`step` with every state and records :meth:`figures` at the end,
    as here by hand.

    Examples:
        >>> import cardcrawl
        >>> class Steps:
        ...     def __init__(self, game):
        ...         self.states = 0
        ...     def step(self, state):
        ...         self.states += 1
        ...     def figures(self, state):
        ...         return (("states", self.states),)
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=10)
        >>> tracker = Steps(game)
        >>> state = game.initial_state(seed=1)
        >>> tracker.step(state)
        >>> while not game.is_terminal(state):
        ...     state = game.step(state, game.legal_actions(state)[0])
        ...     tracker.step(state)
        >>> tracker.figures(state)[0][0], tracker.states > 1
        ('states', True)
    """

    def step(self, state: Any) -> None:
        """Called with every state the game passes through, the initial one included."""

    def figures(self, state: Any) -> tuple[tuple[str, Figure], ...]:
        """The figures of the game that ended in ``state``, in a fixed order."""


# Trackers given to register_figures for games not registered, kept for one release
# while it is deprecated.
_FIGURES: dict[str, Callable[[Any], FigureTracker]] = {}


def register_figures(family: str, tracker: Callable[[Any], FigureTracker]) -> None:
    """Deprecated: declare the figures where the game registers, as the ``figures`` slot
    of its :class:`~cardcrawl.GameTools` (``register_game(..., tools=GameTools(
    figures=...))``).

    Records figures for every game of ``family``: the tracker is set in the tools of the
    registered game ``family`` and its variants, in place of their own.

    Args:
        family: the base game's registry name (variants share it).
        tracker: builds a ``FigureTracker`` for one game, ``tracker(game)``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import play_game
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> [name for name, _ in play_game(game, ["random"], seed=1).figures]
        ['turns', 'house_size', 'house_at_exit', 'refused', 'exit_distance']

        See ``FigureTracker`` for a tracker of your own.
    """
    _set_slot_deprecated(
        "cardcrawl.simulate.register_figures", "figures", family, "figures", tracker, _FIGURES
    )


# ------------------------------------------------------------ a position
def start_from_position(game: Any, position: Any) -> Any:
    """The state many games can start from: ``position`` read and checked for it.

    Each game played from it is ``game.reseed(state, seed)`` with the game's own seed
    (see :meth:`~cardcrawl.GameBase.reseed`): the position's generator is replaced,
    its stacked tops are kept. A position with explicit chance is refused, since
    nobody would choose its chance outcomes, and so is a game that cannot re-seed a
    state (one that is not a :class:`~cardcrawl.GameBase` and has no ``reseed``).

    Args:
        game: the game.
        position: the position, as its notation (``game.notation``) or as a state.

    Returns:
        The state, checked (a notation by ``game.position``, a state by
        ``game.validate`` when the game has it).

    Raises:
        NotationError: the notation does not read, or writes no legal position.
        OptionsError: the game has no notation (for a text) or cannot re-seed a state,
            or the position plays with explicit chance.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate._run import start_from_position
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> start_from_position(game, "AD phase=place:KS player=0,0 rng=0000000000000001")
        <MaplessState 'AD phase=place:KS player=0,0 rng=0000000000000001'>
        >>> explicit = game.initial_state(1, explicit_chance=True)
        >>> start_from_position(game, explicit)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cardcrawl.errors.OptionsError: explicit_chance: games played by bots resolve chance ...
    """
    title = getattr(game, "title", "") or game.name
    if isinstance(position, str):
        read = getattr(game, "position", None)
        if read is None:
            raise OptionsError(f"{title} has no position notation: give the position as a state")
        state = read(position)
    else:
        state = position
        check = getattr(game, "validate", None)
        if check is not None:
            check(state)
    if getattr(game, "reseed", None) is None:
        raise OptionsError(
            f"{title} cannot re-seed a state (it has no reseed method, which GameBase "
            "gives), so many games cannot start from one position"
        )
    if getattr(state, "explicit_chance", False) or game.current_player(state) == CHANCE:
        raise OptionsError(
            "explicit_chance: games played by bots resolve chance with the generator "
            "(sampled play); start from the position without the explicit_chance flag"
        )
    return state


# -------------------------------------------------------------- one game
def play_game(
    game: Any,
    bots: Sequence[BotChoice],
    seed: int,
    *,
    index: int = 0,
    max_decisions: int = 100_000,
    on_bot_error: str = "raise",
    start: Any = None,
) -> GameResult:
    """Play one game to its end with bots and return its result.

    The game is ``game.initial_state(seed)``, or with ``start`` the position
    ``game.reseed(start, seed)``; the bot for seat ``s`` is
    ``make_bot(bots[s], game, seed, s)``, shown only its observation. When the game
    stops, every bot that has the optional ``game_over`` hook is told the outcome (see
    :class:`~cardcrawl.bots.Bot`): an engine hears it in its ``end`` message.

    A bot that fails its seat raises a :class:`~cardcrawl.CardcrawlError` from its
    ``choose`` (an engine's :class:`~cardcrawl.bots.EngineError`, a language model's
    :class:`~cardcrawl.bots.ModelReplyError`...), before any action is taken, so the
    game is never changed by it. With ``on_bot_error="raise"`` the error propagates;
    with ``"forfeit"`` the game ends there, recorded with the outcome ``"forfeit"``: the
    seat in ``forfeited`` and the error in ``error``, every return 0.0, no score and no
    winner (the game has no outcome of its own; a tournament counts the game as a loss
    for the bot that forfeited). Any other exception is a bug, and always propagates.

    Args:
        game: the game.
        bots: the bot for each seat.
        seed: the game's seed.
        index: the game's number, recorded in the result.
        max_decisions: a safety cap; a game still going after this many decisions is
            recorded as ``"unfinished"``.
        on_bot_error: ``"raise"`` (the default) or ``"forfeit"``.
        start: a position to start from instead of the seed's setup, as a state or
            its notation, checked by ``start_from_position``; ``seed`` re-seeds its
            generator. The figures made of events count from the position on.

    Returns:
        The game's result, with the figures of its game family (the ``figures`` slot
        of its :class:`~cardcrawl.GameTools`).

    Raises:
        CardcrawlError: a bot failed its seat, with ``on_bot_error="raise"``.
        OptionsError: ``on_bot_error`` is neither choice, or ``start`` is refused
            (see ``start_from_position``).
        NotationError: ``start`` is a notation that does not read.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import play_game
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> result = play_game(game, ["heuristic"], seed=1)
        >>> result.outcome, result.figure("house_size") == result.scores[0]
        ('escaped', True)

        A bot that gives up at its third decision forfeits the game:

        >>> from cardcrawl.errors import CardcrawlError
        >>> class Quitter:
        ...     def __init__(self, game, seed, seat):
        ...         self.asked = 0
        ...     def choose(self, game, observation, legal_actions):
        ...         self.asked += 1
        ...         if self.asked == 3:
        ...             raise CardcrawlError("no more ideas")
        ...         return legal_actions[0]
        >>> result = play_game(game, [Quitter], seed=1, on_bot_error="forfeit")
        >>> result.outcome, result.forfeited, result.error, result.decisions
        ('forfeit', 0, 'CardcrawlError: no more ideas', 2)

        From a position, the seed re-seeds its generator:

        >>> puzzle = "AD phase=place:KS player=0,0 rng=0000000000000001"
        >>> result = play_game(game, ["heuristic"], seed=1, start=puzzle)
        >>> result.outcome, result.figure("turns")
        ('escaped', 5)
    """
    forfeits = _check_on_bot_error(on_bot_error) == "forfeit"
    if start is None:
        state = game.initial_state(seed)
    else:
        state = game.reseed(start_from_position(game, start), seed)
    return _play(game, bots, seed, state, index, max_decisions, forfeits)


def _play(
    game: Any,
    bots: Sequence[BotChoice],
    seed: int,
    state: Any,
    index: int,
    max_decisions: int,
    forfeits: bool,
) -> GameResult:
    """:func:`play_game` from ``state``, its arguments checked."""
    players = [make_bot(bots[seat], game, seed, seat) for seat in range(game.num_players)]
    # A tracker registered by the program wins over the one the game declared.
    tracker_factory = _figures_of(game)
    tracker = tracker_factory(game) if tracker_factory is not None else None
    if tracker is not None:
        tracker.step(state)
    decisions = 0
    observe, legal_actions, step = game.observe, game.legal_actions, game.step
    # A bot that declares it never reads its observation (the random bot) is spared
    # one: building it costs a third of a random game's time.
    reads = [getattr(bot, "reads_observation", True) for bot in players]
    forfeit: tuple[int, str] | None = None
    try:
        while decisions < max_decisions:
            seat = game.current_player(state)
            if seat == TERMINAL:
                break
            legal = legal_actions(state)
            observation = observe(state, seat) if reads[seat] else None
            try:
                action = players[seat].choose(game, observation, legal)
            except CardcrawlError as error:
                if not forfeits:
                    raise
                forfeit = (seat, f"{type(error).__name__}: {error}")
                break
            state = step(state, action)
            decisions += 1
            if tracker is not None:
                tracker.step(state)
    except BaseException:
        # The bots are told (an engine is stopped now, not when it is collected); what
        # they say about it must not hide the error.
        with contextlib.suppress(Exception):
            _game_over(game, players, reads, state, None)
        raise
    outcome = None if forfeit is not None else game.outcome(state)
    _game_over(game, players, reads, state, outcome)
    figures = tracker.figures(state) if tracker is not None else ()
    if outcome is None:
        zeros = (0.0,) * game.num_players
        if forfeit is not None:
            seat, message = forfeit
            return GameResult(
                index, seed, FORFEIT, zeros, None, (), decisions, figures, seat, message
            )
        return GameResult(index, seed, UNFINISHED, zeros, None, (), decisions, figures)
    return _finished(index, seed, outcome, decisions, figures)


def _finished(index: int, seed: int, outcome: Any, decisions: int, figures: Any) -> GameResult:
    """The result of a game that reached ``outcome``, however it was played."""
    return GameResult(
        index,
        seed,
        outcome.label,
        tuple(outcome.returns),
        None if outcome.scores is None else tuple(outcome.scores),
        tuple(outcome.winners),
        decisions,
        figures,
    )


def _game_over(
    game: Any, players: Sequence[Any], reads: Sequence[bool], state: Any, outcome: Any
) -> None:
    """Tell every bot with a ``game_over`` hook that the game in ``state`` is over."""
    for seat, bot in enumerate(players):
        if getattr(bot, "game_over", None) is not None:
            observation = game.observe(state, seat) if reads[seat] else None
            notify_game_over(bot, game, observation, outcome)


# ---------------------------------------------------------------- batches
@attrs.frozen(eq=False)
class _Job:
    """Everything a worker needs, as picklable data: the game is rebuilt from its class
    and options (game objects hold closures, which do not pickle)."""

    game_class: Any
    options: str
    name: str
    game: Any
    bots: tuple[BotChoice, ...]
    seed: int
    max_decisions: int
    on_bot_error: str = "raise"
    #: The position every game starts from, checked by start_from_position; ``None``:
    #: each game's seed deals it.
    start: Any = None

    @classmethod
    def of(
        cls,
        game: Any,
        bots: tuple[BotChoice, ...],
        seed: int,
        max_decisions: int,
        on_bot_error: str = "raise",
        start: Any = None,
    ) -> _Job:
        if isinstance(game, GameBase):
            options = json.dumps(game.options.to_data(), sort_keys=True)
            return cls(
                type(game),
                options,
                game.name,
                None,
                bots,
                seed,
                max_decisions,
                on_bot_error,
                start,
            )
        return cls(None, "", game.name, game, bots, seed, max_decisions, on_bot_error, start)

    def player(self, game: Any) -> Callable[[int], GameResult]:
        """What plays game ``index`` of the run on ``game`` (this job's game, loaded):
        one function for the whole run, so that the question of which path plays its
        games is settled once, not at every game."""
        # A game whose rollout kernel plays the very games of this loop (proven seed by
        # seed by cardcrawl.testing.check_kernel) is played there, since the kernel plays
        # them several times as fast. The game and the bots are fixed for the run, so one
        # answer holds for all its games.
        kernel = None if self.start is not None else _rollout_kernel(game, self.bots)
        master, max_decisions = self.seed, self.max_decisions
        forfeits = self.on_bot_error == "forfeit"
        kernel_figures = None if kernel is None else _figures_of(game)

        def play(index: int) -> GameResult:
            seed = derived_seed(master, index)  # rng_derive's, for a checked seed
            if kernel is not None:
                played = kernel.summary(seed, max_decisions, kernel_figures)
                if played is not None:
                    outcome, decisions, figures = played
                    return _finished(index, seed, outcome, decisions, figures or ())
            start = self.start
            # The position was checked once, before the first game.
            state = game.initial_state(seed) if start is None else game.reseed(start, seed)
            return _play(game, self.bots, seed, state, index, max_decisions, forfeits)

        return play

    def load(self) -> Any:
        """The game, rebuilt once per worker process and simulation."""
        if self.game is not None:
            return self.game
        key = (self.game_class, self.options, self.name)
        game = _LOADED.get(key)
        if game is None:
            _LOADED.clear()
            cls = self.game_class
            options = cls.options_type.from_data(json.loads(self.options))
            game = _LOADED[key] = cls(options, name=self.name)
        return game


_LOADED: dict[tuple[Any, str, str], Any] = {}


def _figures_of(game: Any) -> Callable[[Any], FigureTracker] | None:
    """The figure tracker of ``game``'s games: the ``figures`` slot of its tools."""
    return tools_for(game).figures or _FIGURES.get(game_family(game))


def _rollout_kernel(game: Any, bots: Sequence[BotChoice]) -> Any:
    """The rollout kernel (``GameTools.rollout``) that plays whole games of ``game`` with
    these bots, or ``None``: no kernel plays them, and _play must.

    Only where nothing but the kernel's own choices could differ: every seat the stock
    random bot (it reads no observation and has no game_over hook), and a kernel the
    game's tools give for this game (none for a variant whose rules it does not play).
    The kernel may still decline a game (its ``summary`` answers ``None``): figures it
    does not count, a position it does not read.
    """
    make_kernel = tools_for(game).rollout
    if make_kernel is None:
        return None
    for bot in bots:
        if (get_bot_spec(bot, game).factory if isinstance(bot, str) else bot) is not RandomBot:
            return None
    return make_kernel(game)


def _run_batch(job: _Job, start: int, stop: int) -> list[GameResult]:
    """Play games ``start`` to ``stop - 1`` of a simulation (in a worker)."""
    play = job.player(job.load())
    return [play(i) for i in range(start, stop)]


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle, so workers ignore it and are
    stopped cleanly instead of dying mid-batch."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@attrs.frozen
class Progress:
    """How far a simulation has got, as passed to a progress callback.

    Attributes:
        done: games finished.
        total: games asked for.
        elapsed: wall-clock seconds so far.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> seen = []
        >>> _ = simulate(game, "random", games=6, workers=1, batch_size=3, progress=seen.append)
        >>> [(p.done, p.total) for p in seen]
        [(0, 6), (3, 6), (6, 6)]
    """

    done: int
    total: int
    elapsed: float

    @property
    def games_per_second(self) -> float:
        """The rate so far (0 before the first game ends)."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0


def _bot_label(bot: BotChoice) -> str:
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "__name__", type(bot).__name__))


def _lineup(
    game: Any, bots: BotChoice | Sequence[BotChoice] | Mapping[int, BotChoice]
) -> tuple[BotChoice, ...]:
    seats = game.num_players
    if isinstance(bots, Mapping):
        missing = sorted(set(range(seats)) - set(bots))
        if missing:
            raise OptionsError(f"no bot for seat(s) {missing} of {game.name}")
        lineup = tuple(bots[s] for s in range(seats))
    elif isinstance(bots, str) or callable(bots):
        lineup = (bots,) * seats
    else:
        lineup = tuple(bots)
        if len(lineup) != seats:
            raise OptionsError(f"{game.name} has {seats} seat(s); {len(lineup)} bot(s) given")
    for bot in lineup:
        if isinstance(bot, str):
            get_bot_spec(bot, game)  # fail now, not in a worker
    return lineup


def _check_limit(game: Any) -> None:
    """Bots and simulations always run with a limit (M-22, H-13)."""
    options = game.options
    declared = tools_for(game).limit
    if declared is None:
        return
    limit, default = declared
    if getattr(options, limit, None) is None:
        raise OptionsError(
            f"simulations always run with a limit: load {game.name} with {limit}=N "
            f"(for example cardcrawl.load({game.name!r}, {limit}={default}))"
        )


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulate(
    game: Any,
    bots: BotChoice | Sequence[BotChoice] | Mapping[int, BotChoice] = "random",
    *,
    games: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    executor: Executor | None = None,
    batch_size: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    max_decisions: int = 100_000,
    on_bot_error: str = "raise",
    position: str | None = None,
    first_game: int = 0,
) -> SimulationResult:
    """Play many games with bots, in parallel, reproducibly, and return every result.

    Game ``i`` is played from ``game.initial_state(rng_derive(seed, i))`` by bots built
    with that same seed, so the results are the same whatever the number of workers,
    the executor or the batch size, and any game can be replayed on its own from the
    seed in its result (:func:`play_game`).

    With a ``position``, every game starts there instead: game ``i`` from
    ``game.reseed(start, rng_derive(seed, i))``, the position with its generator
    re-seeded (:meth:`~cardcrawl.GameBase.reseed`), its stacked tops kept, so the games
    sample what can happen from that position on. The result keeps the position, and
    ``play_game(game, bots, result.seed, start=position)`` replays any one game.

    Games are sent to the executor in batches of ``batch_size``, not one task per game,
    two batches per worker in flight at a time.
    Without an ``executor``, ``workers`` processes are started (a
    :class:`~concurrent.futures.ProcessPoolExecutor`, shut down at the end);
    ``workers=1`` plays in this process. Any :class:`concurrent.futures.Executor` can be
    given instead, such as a Dask cluster's (``dask.distributed.Client(...).get_executor()``,
    the ``cardcrawl[dask]`` extra); it is left running.

    Ctrl-C (a :class:`KeyboardInterrupt`, also one raised by ``progress``) stops the
    simulation cleanly: batches not started are cancelled, batches running finish, and
    the result holds every game finished, with ``interrupted`` set.

    Args:
        game: the game, with its limit set (``max_turns`` or ``max_rounds``).
        bots: a bot for every seat (a registered name or a factory
            ``factory(game, seed, seat)``), or one per seat as a sequence or a mapping.
        games: how many games.
        seed: the simulation's seed.
        workers: processes to use (default: the CPUs available). With ``executor``, the
            workers it has: batches are sized by it, and two per worker are kept in
            flight.
        executor: where to run the batches.
        batch_size: games per task (default: about four batches per worker, at most 250
            games each).
        progress: called with a :class:`Progress` at the start and after every batch.
        max_decisions: a safety cap on decisions per game (see :func:`play_game`).
        on_bot_error: what a bot that fails its seat (raises a
            :class:`~cardcrawl.CardcrawlError`, such as an engine's
            :class:`~cardcrawl.bots.EngineError`) does: ``"raise"`` (the default) stops the
            simulation with the error; ``"forfeit"`` ends that game only, recorded with
            the outcome ``"forfeit"`` and the seat and the error kept (see
            :func:`play_game`), and the simulation goes on.
        position: a position every game starts from, in the game's notation
            (``game.notation``); ``None`` (the default): each game's seed deals it.
        first_game: the number of the first game: games ``first_game`` to
            ``first_game + games - 1`` are played, each seeded as always from its
            number, so a run of 100 games from 100 carries on a run of 100 from 0 (what
            :func:`cardcrawl.compare.compare` does to narrow an interval).

    Returns:
        The simulation, every game's result sorted by game number.

    Raises:
        OptionsError: the game has no limit set, the bots do not fit its seats,
            ``on_bot_error`` is neither choice, or the position is refused (explicit
            chance, or a game that cannot re-seed it: see ``start_from_position``).
        NotationError: the position does not read, or is not a legal position.
        UnknownBotError: a bot name is not registered for this game.
        CardcrawlError: a bot failed its seat, with ``on_bot_error="raise"``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.simulate import simulate
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> result = simulate(game, "heuristic", games=20, seed=1, workers=1)
        >>> summary = result.summary()
        >>> summary.games, summary.rate("escaped").estimate > 0.5
        (20, True)
        >>> [r.seed for r in result.results][:2] == [cardcrawl.rng_derive(1, i) for i in (0, 1)]
        True

        From a position, the K♠ drawn and waiting to be placed:

        >>> puzzle = "AD phase=place:KS player=0,0 rng=0000000000000001"
        >>> result = simulate(game, "heuristic", games=20, seed=1, workers=1, position=puzzle)
        >>> result.position == puzzle, result.summary().games
        (True, 20)
    """
    rng_from_seed(seed)
    if not isinstance(games, int) or games < 0:
        raise OptionsError(f"games is an integer >= 0, not {games!r}")
    if type(first_game) is not int or first_game < 0:
        raise OptionsError(f"first_game is an integer >= 0, not {first_game!r}")
    _check_limit(game)
    lineup = _lineup(game, bots)
    if workers is None:
        workers = _default_workers()
    if workers < 1:
        raise OptionsError(f"workers is an integer >= 1, not {workers!r}")
    if batch_size is None:
        batch_size = max(1, min(250, math.ceil(games / (4 * workers))))
    if batch_size < 1:
        raise OptionsError(f"batch_size is an integer >= 1, not {batch_size!r}")
    start = None if position is None else start_from_position(game, _text(position))
    job = _Job.of(game, lineup, seed, max_decisions, _check_on_bot_error(on_bot_error), start)
    started = time.perf_counter()
    results: list[GameResult] = []

    def report() -> None:
        if progress is not None:
            progress(Progress(len(results), games, time.perf_counter() - started))

    interrupted = False
    try:
        report()
        tasks = (
            (0, start, min(start + batch_size, first_game + games))
            for start in range(first_game, first_game + games, batch_size)
        )
        if executor is None and workers == 1:
            _run_serial(game, job, first_game, games, batch_size, results, report)
        elif executor is None:
            with ProcessPoolExecutor(workers, initializer=_ignore_sigint) as pool:
                interrupted = _run_parallel(
                    pool, [job], tasks, [results], report, True, 2 * workers
                )
        else:
            interrupted = _run_parallel(
                executor, [job], tasks, [results], report, False, 2 * workers
            )
    except KeyboardInterrupt:
        interrupted = True
    # One result per game, in game order (an interruption may have kept a batch twice).
    results = sorted({r.index: r for r in results}.values(), key=lambda r: r.index)
    return SimulationResult(
        game=game.name,
        options=tuple(game.options.to_data().items()),
        bots=tuple(_bot_label(b) for b in lineup),
        seed=seed,
        requested=games,
        results=tuple(results),
        interrupted=interrupted,
        elapsed=time.perf_counter() - started,
        outcomes=tuple(tools_for(game).outcomes),
        position=position,
    )


def _text(position: Any) -> str:
    """``position``, checked to be a notation: results keep it as text."""
    if not isinstance(position, str):
        raise OptionsError(
            f"position is a position's notation as text (game.notation(state) writes it), "
            f"not {short_repr(position)}"
        )
    return position


def _run_serial(
    game: Any,
    job: _Job,
    first: int,
    games: int,
    batch_size: int,
    results: list[GameResult],
    report: Callable[[], None],
) -> None:
    # Game by game, so that an interruption keeps every game already finished.
    play = job.player(game)
    for i in range(games):
        results.append(play(first + i))
        if (i + 1) % batch_size == 0 or i + 1 == games:
            report()


def _run_parallel(
    executor: Executor,
    jobs: Sequence[_Job],
    tasks: Iterable[tuple[int, int, int]],
    results: Sequence[list[GameResult]],
    report: Callable[[], None],
    own: bool,
    window: int,
) -> bool:
    """Run every task ``(n, start, stop)``, the games ``start`` to ``stop`` of
    ``jobs[n]`` kept in ``results[n]``, on ``executor``, ``window`` tasks in flight at a
    time; True if interrupted. ``simulate`` runs one job, ``tournament`` one per lineup.

    Batches are submitted as others finish rather than all at once, so that a Ctrl-C
    finds only a few batches to cancel or wait for, and a huge simulation holds only a
    few futures at a time.
    """
    todo = iter(tasks)
    pending: dict[Future[list[GameResult]], int] = {}
    try:
        while True:
            while len(pending) < window:
                task = next(todo, None)
                if task is None:
                    break
                n, start, stop = task
                pending[executor.submit(_run_batch, jobs[n], start, stop)] = n
            if not pending:
                return False
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                # Kept before it is forgotten: an interruption here may count a batch
                # twice, which the caller undoes, but never loses one.
                results[pending.pop(future)].extend(future.result())
            report()
    except BaseException as exc:
        for future in pending:
            future.cancel()
        if not isinstance(exc, KeyboardInterrupt):
            raise
        if own:
            # Batches already running finish (workers ignore Ctrl-C); keep them too.
            with contextlib.suppress(KeyboardInterrupt):
                wait(pending)
        for future, n in pending.items():
            if future.done() and not future.cancelled():
                with contextlib.suppress(CancelledError, Exception):
                    results[n].extend(future.result(timeout=0))
        return True
