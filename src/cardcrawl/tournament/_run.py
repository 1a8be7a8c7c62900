"""Playing a tournament: every lineup on the same deals, in batches, on any executor."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import (
    Executor,
    ProcessPoolExecutor,
)
from typing import Any

from cardcrawl.bots._base import get_bot_spec
from cardcrawl.core._random import rng_from_seed
from cardcrawl.core._registry import tools_for
from cardcrawl.errors import OptionsError
from cardcrawl.simulate import GameResult, Progress, SimulationResult
from cardcrawl.simulate._run import (
    BotChoice,
    _bot_label,
    _check_limit,
    _check_on_bot_error,
    _default_workers,
    _ignore_sigint,
    _Job,
    _run_parallel,
    _text,
    start_from_position,
)
from cardcrawl.tournament._results import TournamentResult
from cardcrawl.tournament._schedule import schedule

__all__ = ["tournament"]

#: A batch of games: the lineup's number, the first game and the one after the last.
_Task = tuple[int, int, int]


def _entrants(
    game: Any, bots: Sequence[BotChoice]
) -> tuple[tuple[BotChoice, ...], tuple[str, ...]]:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise OptionsError(f"a tournament's bots are a list of two or more, not {bots!r}")
    entrants = tuple(bots)
    if len(entrants) < 2:
        raise OptionsError(
            f"a tournament needs two bots or more, not {len(entrants)}: give the others "
            "to compare it with"
        )
    for bot in entrants:
        if isinstance(bot, str):
            get_bot_spec(bot, game)  # fail now, not in a worker
        elif not callable(bot):
            raise OptionsError(f"a bot is a registered name or a factory, not {bot!r}")
    labels = tuple(_bot_label(b) for b in entrants)
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise OptionsError(f"each bot plays once in a tournament; given twice: {', '.join(twice)}")
    return entrants, labels


def tournament(
    game: Any,
    bots: Sequence[BotChoice],
    *,
    games: int = 100,
    seed: int = 0,
    kind: str = "round-robin",
    workers: int | None = None,
    executor: Executor | None = None,
    batch_size: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    max_decisions: int = 100_000,
    on_bot_error: str = "raise",
    position: str | None = None,
) -> TournamentResult:
    """Play bots against each other on duplicate deals, seats rotated, and rate them.

    Every lineup of :func:`schedule` plays the same ``games`` deals: deal ``i`` is
    ``game.initial_state(rng_derive(seed, i))``, its bots built with that same seed, so
    luck is shared out evenly and the results are the same whatever the number of
    workers, the executor or the batch size. In a one-seat game each bot plays every
    deal alone, and two bots are compared deal by deal (the better return, then the
    better score, wins: see :func:`compare_games`); in a game of several seats, each pair
    plays every seat arrangement of :func:`schedule` and is compared at the table.
    The head-to-head counts give the Bradley-Terry ratings (:func:`bradley_terry`).

    With a ``position``, every deal starts there: deal ``i`` is the position with its
    generator re-seeded from ``rng_derive(seed, i)`` (see
    :func:`cardcrawl.simulate.simulate`), its stacked tops kept, so the bots are
    compared on what they make of that one position.

    Batches of games run on ``executor`` (any :class:`concurrent.futures.Executor`, such
    as a Dask client's ``get_executor()``, left running), or on a pool of ``workers``
    processes started and shut down here; ``workers=1`` plays in this process. Ctrl-C
    stops the tournament cleanly, as it does :func:`cardcrawl.simulate.simulate`: the
    result is marked ``interrupted`` and compares only the deals every lineup finished.

    Args:
        game: the game, with its limit set (``max_turns`` or ``max_rounds``).
        bots: two or more bots, each a registered name or a factory
            ``factory(game, seed, seat)``, each once.
        games: deals per lineup, at least 1.
        seed: the tournament's seed.
        kind: ``"round-robin"`` (every pair meets) or ``"gauntlet"`` (the first bot
            meets each other).
        workers: processes to use (default: the CPUs available); with ``executor``, the
            workers it has.
        executor: where to run the batches.
        batch_size: games per task (default: about four tasks per worker, at most 250
            games each).
        progress: called with a :class:`~cardcrawl.simulate.Progress` (games of every
            lineup together) at the start and after every batch.
        max_decisions: a safety cap on decisions per game.
        on_bot_error: ``"raise"`` (the default): a bot that fails its seat (raises a
            :class:`~cardcrawl.CardcrawlError`, such as an engine's
            :class:`~cardcrawl.bots.EngineError`) stops the tournament with the error;
            ``"forfeit"``: that game ends as a ``"forfeit"`` (see
            :func:`~cardcrawl.simulate.play_game`), counted as a loss for the bot that
            forfeited (see :func:`compare_games`), and the tournament goes on.
        position: a position every deal starts from, in the game's notation; ``None``
            (the default): each deal is dealt from its seed.

    Returns:
        The tournament.

    Raises:
        OptionsError: fewer than two bots, a bot given twice, ``games`` below 1, an
            unknown kind, bad ``workers``, ``batch_size`` or ``on_bot_error``, no
            limit set, or a position refused (explicit chance, or a game that cannot
            re-seed it: as :func:`~cardcrawl.simulate.simulate` says).
        NotationError: the position does not read, or is not a legal position.
        UnknownBotError: a bot name is not registered, or not for this game.
        CardcrawlError: a bot failed its seat, with ``on_bot_error="raise"``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.tournament import tournament
        >>> game = cardcrawl.load("mapless-house", max_turns=200)
        >>> result = tournament(game, ["heuristic", "random"], games=10, seed=1, workers=1)
        >>> [r.bot for r in result.standings()]
        ['heuristic', 'random']
        >>> pair = result.head_to_head()[0]
        >>> pair.wins + pair.ties + pair.losses
        10

        From a position, every deal re-seeded:

        >>> puzzle = "AD phase=place:KS player=0,0 rng=0000000000000001"
        >>> result = tournament(game, ["heuristic", "random"], games=10, workers=1, position=puzzle)
        >>> result.position == puzzle, result.head_to_head()[0].games
        (True, 10)
    """
    rng_from_seed(seed)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise OptionsError(f"games is an integer >= 1 (deals per lineup), not {games!r}")
    _check_limit(game)
    entrants, labels = _entrants(game, bots)
    lineups = schedule(len(entrants), game.num_players, kind)
    if workers is None:
        workers = _default_workers()
    if not isinstance(workers, int) or workers < 1:
        raise OptionsError(f"workers is an integer >= 1, not {workers!r}")
    total = games * len(lineups)
    if batch_size is None:
        batch_size = max(1, min(250, games, math.ceil(total / (4 * workers))))
    if not isinstance(batch_size, int) or batch_size < 1:
        raise OptionsError(f"batch_size is an integer >= 1, not {batch_size!r}")
    on_bot_error = _check_on_bot_error(on_bot_error)
    start = None if position is None else start_from_position(game, _text(position))
    jobs = [
        _Job.of(game, tuple(entrants[b] for b in lineup), seed, max_decisions, on_bot_error, start)
        for lineup in lineups
    ]
    # Deal by deal across the lineups, so that an interruption leaves the lineups with
    # about the same deals finished, and the comparisons lose little.
    tasks = [
        (n, start, min(start + batch_size, games))
        for start in range(0, games, batch_size)
        for n in range(len(jobs))
    ]
    results: list[list[GameResult]] = [[] for _ in jobs]
    started = time.perf_counter()

    def report() -> None:
        if progress is not None:
            done = sum(len(r) for r in results)
            progress(Progress(done, total, time.perf_counter() - started))

    interrupted = False
    try:
        report()
        if executor is None and workers == 1:
            _run_serial(game, jobs, tasks, results, report)
        elif executor is None:
            with ProcessPoolExecutor(workers, initializer=_ignore_sigint) as pool:
                interrupted = _run_parallel(pool, jobs, tasks, results, report, True, 2 * workers)
        else:
            interrupted = _run_parallel(executor, jobs, tasks, results, report, False, 2 * workers)
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - started
    outcomes = tuple(tools_for(game).outcomes)
    options = tuple(game.options.to_data().items())
    simulations = tuple(
        SimulationResult(
            game=game.name,
            options=options,
            bots=tuple(labels[b] for b in lineup),
            seed=seed,
            requested=games,
            results=tuple(sorted({r.index: r for r in found}.values(), key=lambda r: r.index)),
            interrupted=interrupted,
            # The lineups were played together, not timed one by one.
            elapsed=0.0,
            outcomes=outcomes,
            position=position,
        )
        for lineup, found in zip(lineups, results, strict=True)
    )
    return TournamentResult(
        game=game.name,
        options=options,
        bots=labels,
        kind=kind,
        seed=seed,
        games=games,
        lineups=lineups,
        simulations=simulations,
        interrupted=interrupted,
        elapsed=elapsed,
        outcomes=outcomes,
        position=position,
    )


def _run_serial(
    game: Any,
    jobs: Sequence[_Job],
    tasks: Sequence[_Task],
    results: list[list[GameResult]],
    report: Callable[[], None],
) -> None:
    # Game by game, so that an interruption keeps every game already finished.
    for n, start, stop in tasks:
        play = jobs[n].player(game)
        for i in range(start, stop):
            results[n].append(play(i))
        report()
