"""Comparing games and variants: the same bots on the same seeds, difference by difference."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from cardcrawl.bots._base import game_family
from cardcrawl.compare._paired import Measure, PairedDifference, measures_of, paired_difference
from cardcrawl.compare._spec import load_arm
from cardcrawl.core._registry import tools_for
from cardcrawl.errors import OptionsError
from cardcrawl.simulate._results import FORFEIT, UNFINISHED, GameResult, SimulationResult
from cardcrawl.simulate._run import BotChoice, Progress, play_game, simulate
from cardcrawl.simulate._table import format_table

__all__ = ["DEFAULT_MAX_GAMES", "Arm", "Comparison", "compare", "measure_keys"]

#: The most games :func:`compare` plays per arm when narrowing an interval, unless told.
DEFAULT_MAX_GAMES = 100_000


@attrs.frozen
class Arm:
    """One game or variant of a comparison, and the games it played.

    Attributes:
        label: how tables name it (its registry name, with the options that set it
            apart from the first arm when the name alone does not).
        simulation: its games, seeded as every other arm's (game ``i`` of each arm
            has the seed ``rng_derive(seed, i)``).

    Examples:
        >>> from cardcrawl.compare import compare
        >>> arms = ["escape-from-haydes(max_rounds=30)", "escape-from-haydes-tuybe(max_rounds=30)"]
        >>> found = compare(arms, games=5, workers=1)
        >>> [(arm.label, len(arm.simulation.results)) for arm in found.arms]
        [('escape-from-haydes(max_rounds=30)', 5), ('escape-from-haydes-tuybe(max_rounds=30)', 5)]
        >>> [r.seed for r in found.arms[0].simulation.results] == [
        ...     r.seed for r in found.arms[1].simulation.results]
        True
    """

    label: str
    simulation: SimulationResult


@attrs.frozen
class Comparison:
    """Two or more games or variants played by the same bots on the same seeds.

    Attributes:
        arms: the first arm (what the others are compared with), then the variants.
        seed: the seed of every arm's games.
        games: the games paired: those every arm finished.
        measures: what is compared (see :class:`Measure`).
        differences: for each variant (``arms[1:]``, in order), one
            :class:`PairedDifference` per measure, in the order of ``measures``.
        interrupted: the games were stopped early (Ctrl-C).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.compare import compare
        >>> import cardcrawl
        >>> stock = cardcrawl.load("escape-from-haydes", max_rounds=30)
        >>> short = cardcrawl.load("escape-from-haydes", max_rounds=3)
        >>> found = compare([stock, short], "random", games=50, seed=1, workers=1)
        >>> [arm.label for arm in found.arms]
        ['escape-from-haydes', 'escape-from-haydes(max_rounds=3)']
        >>> rounds = found.difference("rounds")
        >>> rounds.difference.estimate < 0, rounds.verdict
        (True, 'different')
    """

    arms: tuple[Arm, ...]
    seed: int
    games: int
    measures: tuple[Measure, ...]
    differences: tuple[tuple[PairedDifference, ...], ...]
    interrupted: bool = False

    @property
    def bots(self) -> str:
        """The bots, as one label (see :attr:`SimulationResult.lineup`)."""
        return self.arms[0].simulation.lineup

    def difference(self, key: str, variant: int | str = 1) -> PairedDifference:
        """The paired difference of one measure for one variant.

        Args:
            key: the measure's key (see :class:`Measure`), such as ``"rate:escaped"``.
            variant: the arm, by its number (1 for the first variant) or its label.

        Raises:
            OptionsError: no such measure or variant.
        """
        labels = [arm.label for arm in self.arms]
        index = labels.index(variant) if variant in labels else variant
        if not isinstance(index, int) or not 1 <= index < len(self.arms):
            raise OptionsError(
                f"variant is a number from 1 to {len(self.arms) - 1} or a label of "
                f"{labels[1:]}, not {variant!r}"
            )
        for found in self.differences[index - 1]:
            if found.measure.key == key:
                return found
        keys = ", ".join(m.key for m in self.measures)
        raise OptionsError(f"no measure {key!r}; the measures are {keys}")

    def verdicts(self, variant: int = 1) -> list[str]:
        """One line per measure for a variant: the difference and the verdict.

        Examples:
            >>> from cardcrawl.compare import compare
            >>> same = compare(["escape-from-haydes(max_rounds=30)"] * 2, "random",
            ...                games=10, seed=1, workers=1)
            >>> same.verdicts()[0]
            'escaped rate: +0.0 points [+0.0, +0.0]: not shown to differ at 10 games'
        """
        return [
            f"{d.measure.label}: {d.format()}: {d.verdict}" for d in self.differences[variant - 1]
        ]

    def format(self) -> str:
        """The comparison as text: per variant, a table of every measure (the first
        arm's mean A, the variant's B, the paired difference B - A with its 95%
        interval, and how many times as many games two independent runs would need for
        an interval as narrow), then a verdict line per measure.

        Examples:
            >>> from cardcrawl.compare import compare
            >>> found = compare(["escape-from-haydes(max_rounds=30)",
            ...                  "escape-from-haydes(max_rounds=3)"],
            ...                 "random", games=200, seed=1, workers=1)
            >>> print(found.format())  # doctest: +ELLIPSIS
            A: escape-from-haydes(max_rounds=30)
            B: escape-from-haydes(max_rounds=3), 200 games on the same seeds, bots random
            measure            A      B  B - A [95% CI]               indep.
            ------------  ------  -----  ---------------------------  ------
            escaped rate     6.5    1.5  -5.0 points [-8.0, -2.0]       1.6x
            ...
            Verdicts, B against A:
              escaped rate: -5.0 points [-8.0, -2.0]: different
            ...
        """
        first = self.arms[0]
        parts = []
        for k, arm in enumerate(self.arms[1:]):
            head = ["measure", "A", "B", "B - A [95% CI]", "indep."]
            rows = []
            for d in self.differences[k]:
                scale = 100.0 if d.measure.percent else 1.0
                rows.append(
                    [
                        d.measure.label,
                        _mean(d.base.estimate, scale),
                        _mean(d.variant.estimate, scale),
                        d.format(),
                        _times(d.efficiency),
                    ]
                )
            lines = [
                f"A: {first.label}",
                f"B: {arm.label}, {self.games:,} games on the same seeds, bots {self.bots}",
                format_table(head, rows, right=[1, 2, 4]),
                "Verdicts, B against A:",
                *(f"  {line}" for line in self.verdicts(k + 1)),
            ]
            parts.append("\n".join(lines))
        note = (
            "Rates in %, their differences in percentage points. indep.: how many times\n"
            "as many games two independent runs would need for as narrow an interval."
        )
        return "\n\n".join([*parts, note])

    def to_data(self) -> dict[str, Any]:
        """The comparison as JSON-compatible data (``null`` for what is not a number)."""

        def number(x: float) -> float | None:
            return None if math.isnan(x) or math.isinf(x) else x

        return {
            "seed": self.seed,
            "games": self.games,
            "bots": list(self.arms[0].simulation.bots),
            "interrupted": self.interrupted,
            "arms": [
                {
                    "label": a.label,
                    "game": a.simulation.game,
                    "options": dict(a.simulation.options),
                }
                for a in self.arms
            ],
            "differences": [
                {
                    "variant": arm.label,
                    "measures": {
                        d.measure.key: {
                            "label": d.measure.label,
                            "games": d.games,
                            "base": d.base.to_data(),
                            "variant": d.variant.to_data(),
                            "difference": d.difference.to_data(),
                            "efficiency": number(d.efficiency),
                            "differs": d.differs,
                        }
                        for d in diffs
                    },
                }
                for arm, diffs in zip(self.arms[1:], self.differences, strict=True)
            ],
        }


def _mean(value: float, scale: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{scale * value:.1f}" if scale != 1.0 else f"{value:.3f}"


def _times(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.1f}x"


def _labels(games: Sequence[Any], texts: Sequence[str | None]) -> list[str]:
    """Each arm's label: its text as given, else its name, with the options that differ
    from the first arm's where two arms share a name."""
    names = [g.name for g in games]
    first = games[0].options.to_data()
    labels = []
    for game, text in zip(games, texts, strict=True):
        if text is not None:
            labels.append(text)
            continue
        label = game.name
        if names.count(game.name) > 1:
            mine = game.options.to_data()
            changed = [f"{k}={v!r}" for k, v in mine.items() if first.get(k) != v]
            if changed:
                label += f"({', '.join(changed)})"
        labels.append(label)
    return labels


def measure_keys(game: Any) -> tuple[str, ...]:
    """The keys of every measure a comparison of ``game`` (and its variants) can give.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.compare import measure_keys
        >>> measure_keys(cardcrawl.load("mapless-house", max_turns=200))
        ... # doctest: +NORMALIZE_WHITESPACE
        ('rate:escaped', 'rate:consumed', 'rate:lost', 'rate:forfeit', 'rate:unfinished',
         'return:0', 'score:0', 'decisions', 'turns', 'house_size', 'house_at_exit',
         'refused', 'exit_distance')
    """
    # A one-decision game is enough to read the figures the tracker records.
    probe = play_game(game, ["random"] * game.num_players, 0, max_decisions=1)
    declared = (*tools_for(game).outcomes, FORFEIT, UNFINISHED)
    scored = GameResult(0, 0, FORFEIT, probe.returns, (0,) * game.num_players, (), 0, probe.figures)
    return tuple(m.key for m in measures_of([scored], declared, game.num_players))


def _arms(games: Sequence[Any]) -> tuple[list[Any], list[str | None]]:
    if isinstance(games, str) or not isinstance(games, Sequence):
        raise OptionsError(
            f"compare takes a list of two games or more (names, NAME(OPTION=VALUE) texts "
            f"or loaded games), not {games!r}"
        )
    if len(games) < 2:
        raise OptionsError(
            f"compare needs two games or more, the first to compare the others with; "
            f"{len(games)} given"
        )
    loaded: list[Any] = []
    texts: list[str | None] = []
    for item in games:
        if isinstance(item, str):
            loaded.append(load_arm(item))
            texts.append(item)
        elif hasattr(item, "initial_state") and hasattr(item, "num_players"):
            loaded.append(item)
            texts.append(None)
        else:
            raise OptionsError(f"a game to compare is a name or a loaded game, not {item!r}")
    check_arms(loaded)
    return loaded, texts


def check_arms(games: Sequence[Any]) -> None:
    """Refuse games that cannot be compared: of two families, or of unlike seats.

    Raises:
        OptionsError: the games are not all one game and its variants (their measures
            and deals would have nothing in common), or have unlike numbers of seats
            (the same bots play every one).
    """
    families = sorted({game_family(g) for g in games})
    if len(families) > 1:
        raise OptionsError(
            "the games compared are one game and its variants, whose seeds deal alike: "
            f"these are of {' and '.join(families)}"
        )
    seats = {g.num_players for g in games}
    if len(seats) > 1:
        raise OptionsError(
            "the games compared must have as many seats as one another (the same bots "
            f"play every one); these have {sorted(seats)} (give each players=N)"
        )


def _pair(arms: Sequence[SimulationResult | None]) -> list[list[GameResult]]:
    """Each arm's results of the games every arm finished, in game order."""
    runs = [s for s in arms if s is not None]
    common = set.intersection(*({r.index for r in s.results} for s in runs))
    return [[r for r in s.results if r.index in common] for s in runs]


def _differences(
    paired: Sequence[Sequence[GameResult]], outcomes: Sequence[str], seats: int
) -> tuple[tuple[Measure, ...], tuple[tuple[PairedDifference, ...], ...]]:
    everything = [r for arm in paired for r in arm]
    measures = measures_of(everything, outcomes, seats)
    base = paired[0]
    found = []
    for variant in paired[1:]:
        found.append(
            tuple(
                paired_difference(m, [m.read(r) for r in base], [m.read(r) for r in variant])
                for m in measures
            )
        )
    return measures, tuple(found)


def _merge(before: SimulationResult | None, more: SimulationResult) -> SimulationResult:
    if before is None:
        return more
    return attrs.evolve(
        before,
        requested=before.requested + more.requested,
        results=before.results + more.results,
        interrupted=more.interrupted,
        elapsed=before.elapsed + more.elapsed,
    )


def compare(
    arms: Sequence[Any],
    bots: BotChoice | Sequence[BotChoice] | Mapping[int, BotChoice] = "random",
    *,
    games: int = 1000,
    seed: int = 0,
    workers: int | None = None,
    until: tuple[str, float] | None = None,
    max_games: int = DEFAULT_MAX_GAMES,
    progress: Callable[[str, Progress], None] | None = None,
    max_decisions: int = 100_000,
    on_bot_error: str = "raise",
    **simulate_options: Any,
) -> Comparison:
    """Play the same bots on the same seeds in every game, and compare each with the first.

    Every arm plays games ``0`` to ``games - 1`` with :func:`~cardcrawl.simulate.simulate`
    and the same ``seed``, so game ``i`` of every arm has the seed ``rng_derive(seed, i)``,
    the same bots built with that seed, and so the same deal as far as the variant leaves
    it unchanged: common random numbers. Each measure (every outcome's rate, each
    seat's return, score and advantage, the length in decisions and the game's own
    figures) is compared game by game, variant minus first arm, and the mean of those
    differences gets a 95% interval. The pairing takes out the luck both games of a
    pair share, so the interval is narrower than that of two independent runs of as
    many games: :attr:`PairedDifference.efficiency` says by how much.

    With ``until=(KEY, WIDTH)``, more games are played (as many again each time, up to
    ``max_games``) until the interval of that measure's difference is narrower than
    ``WIDTH`` for every variant. The width is a target of precision: stopping on it
    does not change what the interval means, as stopping on a verdict would.

    Args:
        arms: two games or more: registered names, texts ``NAME(OPTION=VALUE, ...)``
            (see :func:`split_arm`) or loaded games, each with its limit set. The first
            is the one the others are compared with.
        bots: the bots, as :func:`~cardcrawl.simulate.simulate` takes them; the same in
            every arm.
        games: the games per arm (before any more that ``until`` asks for).
        seed: the seed of every arm.
        workers: processes (see :func:`~cardcrawl.simulate.simulate`).
        until: a measure's key and the widest interval of its difference to accept.
        max_games: the most games per arm ``until`` may play.
        progress: called as ``progress(arm_label, Progress)`` while each arm plays.
        max_decisions: the decision cap of a game.
        on_bot_error: ``"raise"`` or ``"forfeit"`` (see :func:`~cardcrawl.simulate.simulate`).
        **simulate_options: passed on to :func:`~cardcrawl.simulate.simulate`
            (``executor``, ``batch_size``, ``position``).

    Returns:
        The :class:`Comparison`. After Ctrl-C, the games every arm finished, with
        ``interrupted`` set (and no difference when fewer than two arms had begun).

    Raises:
        OptionsError: fewer than two games, games with different numbers of seats, a
            bad count, ``until`` naming no measure or no positive width, or anything
            :func:`~cardcrawl.simulate.simulate` refuses (a game without its limit).
        UnknownGameError: a name is not registered.

    Examples:
        The Mapless House with its hunt cut to 10 turns, on the same 100 deals: the
        house is built alike (the hunt's limit changes nothing before it), and games
        the hunt would have ended later are lost instead.

        >>> from cardcrawl.compare import compare
        >>> found = compare(["mapless-house(max_turns=200)", "mapless-house(max_turns=10)"],
        ...                 games=100, seed=1, workers=1)
        >>> found.difference("rate:lost").verdict
        'different'
        >>> found.difference("house_at_exit").difference.estimate
        0.0
    """
    loaded, texts = _arms(arms)
    if type(games) is not int or games < 1:
        raise OptionsError(f"games is an integer >= 1, not {games!r}")
    if type(max_games) is not int or max_games < games:
        raise OptionsError(f"max_games is an integer >= games ({games}), not {max_games!r}")
    if until is not None:
        _check_until(loaded[0], until)
    labels = _labels(loaded, texts)
    seats = loaded[0].num_players
    outcomes: dict[str, None] = {}
    for game in loaded:
        outcomes.update(dict.fromkeys(tools_for(game).outcomes))
    runs: list[SimulationResult | None] = [None] * len(loaded)
    played, batch, interrupted = 0, games, False
    while not interrupted:
        for k, game in enumerate(loaded):
            more = simulate(
                game,
                bots,
                games=batch,
                seed=seed,
                workers=workers,
                first_game=played,
                progress=_reporter(progress, labels[k]),
                max_decisions=max_decisions,
                on_bot_error=on_bot_error,
                **simulate_options,
            )
            runs[k] = _merge(runs[k], more)
            if more.interrupted:
                interrupted = True
                break
        played += batch
        if interrupted or until is None or played >= max_games:
            break
        _, so_far = _differences(_pair(runs), tuple(outcomes), seats)
        widths = [d.width for diffs in so_far for d in diffs if d.measure.key == until[0]]
        if max(widths) < until[1]:
            break
        batch = min(played, max_games - played)
    # Ctrl-C in the first round may leave the last arms without a game.
    finished = [run for run in runs if run is not None]
    paired = _pair(finished)
    measures: tuple[Measure, ...] = ()
    found: tuple[tuple[PairedDifference, ...], ...] = ()
    if len(paired) >= 2:
        measures, found = _differences(paired, tuple(outcomes), seats)
    return Comparison(
        arms=tuple(Arm(label, run) for label, run in zip(labels, finished, strict=False)),
        seed=seed,
        games=len(paired[0]),
        measures=measures,
        differences=found,
        interrupted=interrupted,
    )


def _reporter(
    progress: Callable[[str, Progress], None] | None, label: str
) -> Callable[[Progress], None] | None:
    if progress is None:
        return None
    return lambda p: progress(label, p)


def _check_until(game: Any, until: Any) -> None:
    if (
        not isinstance(until, tuple)
        or len(until) != 2
        or isinstance(until[1], bool)
        or not isinstance(until[1], (int, float))
        or not until[1] > 0
    ):
        raise OptionsError(f"until is (a measure's key, a width > 0), not {until!r}")
    known = measure_keys(game)
    if until[0] not in known:
        raise OptionsError(f"until: no measure {until[0]!r}; the measures are {', '.join(known)}")
