"""A public conformance checker for any game that implements the protocol.

Every built-in game runs it in its own tests, and so should every variant and every
third-party game: it plays seeded random games, in sampled and in explicit-chance
play, and checks at each step the promises of :class:`cardcrawl.Game`.

Examples:
    >>> import cardcrawl
    >>> from cardcrawl.testing import check_game
    >>> report = check_game(cardcrawl.load("mapless-house", max_turns=60), games=2)
    >>> report.games, report.terminal, report.terminates
    (4, 4, True)
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import attrs

from cardcrawl.bots._base import get_bot_spec
from cardcrawl.bots._random_bot import RandomBot
from cardcrawl.core._engine import GameBase
from cardcrawl.core._protocol import CHANCE, TERMINAL
from cardcrawl.core._random import rng_below, rng_derive
from cardcrawl.core._registry import tools_for
from cardcrawl.core._working import working_for
from cardcrawl.errors import CardcrawlError, ConformanceError, IllegalActionError, NotationError

__all__ = [
    "BotHooksReport",
    "ConformanceError",
    "ConformanceReport",
    "check_bot_hooks",
    "check_game",
    "check_hooks",
    "check_kernel",
    "check_state",
]


@attrs.frozen
class ConformanceReport:
    """What :func:`check_game` played.

    Attributes:
        games: games played (sampled and explicit together).
        steps: actions and chance outcomes applied.
        chance_events: chance events met in explicit-chance play.
        terminal: games that reached their end within ``max_steps``.
        outcomes: how many games ended with each outcome label.
        terminates: whether the game promises that every game ends. ``False`` for a
            game whose limit option (the one its :class:`~cardcrawl.GameTools` names in
            ``limit``) is off, as in the standard Escape from Haydes and The Mapless
            House: their rules allow a game without end (H-13, M-22), so a random game
            still going at ``max_steps`` is cut off there, and ``terminal`` may be less
            than ``games`` without any promise being broken. ``True`` for a game with
            that option set, and for a game that declares no limit option (one that
            always ends on its own).

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_game
        >>> report = check_game(cardcrawl.load("mapless-house", max_turns=60), games=2, seed=3)
        >>> report.games, report.steps, report.chance_events, report.terminal, report.outcomes
        (4, 212, 76, 4, {'consumed': 4})
        >>> check_game(cardcrawl.load("escape-from-haydes"), games=1).terminates
        False
    """

    games: int
    steps: int
    chance_events: int
    terminal: int
    outcomes: dict[str, int]
    terminates: bool = True


def _fail(where: str, what: str) -> ConformanceError:
    return ConformanceError(f"{where}: {what}")


@contextlib.contextmanager
def _game_calls(where: str) -> Iterator[None]:
    """Report an exception that the game raises, where the checker did not ask for one,
    as the broken promise it is, with the original as ``__cause__``."""
    try:
        yield
    except ConformanceError:
        raise
    except Exception as exc:
        raise _fail(
            where,
            f"the game raised {type(exc).__name__} ({exc}); a game raises only on bad "
            "input, never on its own states and legal actions",
        ) from exc


def _promised_length(game: Any) -> tuple[bool, int | None]:
    """Whether every game of ``game`` ends (see :attr:`ConformanceReport.terminates`),
    and the bound on its decisions that its OpenSpiel settings declare, if it must end."""
    tools = tools_for(game)
    if tools.limit is None:
        return True, None
    if getattr(game.options, tools.limit[0], None) is None:
        return False, None
    if tools.openspiel is None:
        return True, None
    return True, int(tools.openspiel.max_game_length(game.options))


def check_state(game: Any, state: Any, where: str = "state") -> None:
    """Check every promise that concerns a single state (not the step from it).

    Args:
        game: any object implementing :class:`cardcrawl.Game`.
        state: a state of that game.
        where: a label for messages.

    Raises:
        ConformanceError: naming the broken promise; an exception that the game raises
            on ``state`` (a ``KeyError`` in ``render``, say) is reported as one, and
            chained as its ``__cause__``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_state
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, explicit_chance=True)
        >>> check_state(game, state)  # a chance event: checks its probabilities too
        >>> check_state(game, game.step(state, game.chance_outcomes(state)[0][0]))
    """
    with _game_calls(where):
        _check_state(game, state, where)


def _check_state(game: Any, state: Any, where: str) -> None:
    to_move = game.current_player(state)
    legal = game.legal_actions(state)
    _check_turn(game, state, to_move, legal, where)
    _check_ending(game, state, to_move, where)
    _check_saving(game, state, legal, where)
    validate = getattr(game, "validate", None)
    if validate is not None:
        try:
            validate(state)
        except CardcrawlError as exc:
            raise _fail(where, f"validate refuses a state of play: {exc}") from None
    notation = _has_notation(game)
    if notation:
        _check_notation(game, state, where)
    for player in range(game.num_players):
        # Only the view of the seat to move is read back in each state, which keeps the
        # check cheap in games for many; over a whole game every seat's views are.
        _check_observation(game, state, player, notation and player == max(to_move, 0), where)


def _check_turn(game: Any, state: Any, to_move: int, legal: Sequence[Any], where: str) -> None:
    """Who acts agrees with what may be done: actions for a player, chance outcomes
    (positive fractions summing to 1, each listed once) at a chance event."""
    chances = game.chance_outcomes(state)
    if to_move >= 0:
        if not legal:
            raise _fail(where, f"player {to_move} must decide but no action is legal")
        if list(legal) != sorted(legal) or len(set(legal)) != len(legal):
            raise _fail(where, "legal actions are not distinct and sorted")
        if chances:
            raise _fail(where, "a decision point lists chance outcomes")
    elif legal:
        raise _fail(where, f"actions are legal although current_player is {to_move}")
    if to_move == CHANCE:
        probs = [p for _, p in chances]
        if not chances or any(not isinstance(p, Fraction) or p <= 0 for p in probs):
            raise _fail(where, "chance outcomes need positive Fraction probabilities")
        if sum(probs) != 1:
            raise _fail(where, f"chance probabilities sum to {sum(probs)}, not 1")
        if len({a for a, _ in chances}) != len(chances):
            raise _fail(where, "a chance outcome is listed twice")


def _check_ending(game: Any, state: Any, to_move: int, where: str) -> None:
    """The game is over exactly when it says so everywhere, with one return a player."""
    if (to_move == TERMINAL) != game.is_terminal(state):
        raise _fail(where, "is_terminal disagrees with current_player")
    outcome = game.outcome(state)
    if (outcome is not None) != (to_move == TERMINAL):
        raise _fail(where, "an outcome must exist exactly when the game is over")
    if len(game.returns(state)) != game.num_players:
        raise _fail(where, "returns must have one entry per player")


def _check_saving(game: Any, state: Any, legal: Sequence[Any], where: str) -> None:
    """Actions survive their text forms, and the state its JSON round trip."""
    for action in legal:
        text = game.format_action(action)
        if game.parse_action(text) != action:
            raise _fail(where, f"action {action!r} does not survive its text form {text!r}")
    saved = game.state_to_data(state)
    try:
        text = json.dumps(saved)
    except ValueError as exc:  # such as an integer of more digits than Python writes
        raise _fail(where, f"the saved state cannot be written as JSON text: {exc}") from exc
    loaded = game.state_from_data(json.loads(text))
    if loaded != state:
        raise _fail(where, "the state does not survive a JSON round trip")
    # The loaded copy carries nothing derived: its legal actions are found afresh, so
    # legal actions that a rule step filled in ahead must be exactly those.
    if tuple(game.legal_actions(loaded)) != tuple(legal):
        raise _fail(where, "legal actions filled in by a rule step differ from those found afresh")


def _check_observation(game: Any, state: Any, player: int, read_back: bool, where: str) -> None:
    """What ``player`` observes hides what they cannot know: not the cards they have
    not seen (determinized), not the generator; and it reads back from its notation
    when ``read_back``."""
    seen = game.observe(state, player)
    for k in (1, 2):
        if game.observe(game.determinize(state, player, k), player) != seen:
            raise _fail(where, f"determinize({k}) changes what player {player} observes")
    if attrs.has(type(state)) and hasattr(state, "rng"):
        other = attrs.evolve(state, rng=(state.rng + 1) % (1 << 64))
        if game.observe(other, player) != seen:
            raise _fail(where, "the observation depends on the generator")
    if hasattr(seen, "rng"):
        raise _fail(where, "the observation carries the generator")
    if read_back:
        _check_observation_notation(game, seen, player, where)


def _has_notation(game: Any) -> bool:
    """Whether ``game`` has a position notation: a GameBase with a ``notation_format``,
    or another game with ``notation`` and ``position`` methods of its own."""
    if isinstance(game, GameBase):
        return game.notation_format is not None
    return callable(getattr(game, "notation", None)) and callable(getattr(game, "position", None))


def _without_events(value: Any) -> Any:
    """``value`` with no events: what a notation reads back (it leaves them out)."""
    if attrs.has(type(value)) and hasattr(value, "events"):
        return attrs.evolve(value, events=())
    return value


def _check_notation(game: Any, state: Any, where: str) -> None:
    """The state survives its position notation, events aside."""
    text = game.notation(state)
    if not isinstance(text, str):
        raise _fail(where, f"the notation is {type(text).__name__}, not text")
    try:
        read = game.position(text)
    except NotationError as exc:
        raise _fail(
            where, f"position refuses the notation of a state of play {text!r}: {exc}"
        ) from exc
    if read != _without_events(state):
        raise _fail(
            where,
            f"the state does not survive its position notation: {text!r} reads back as "
            "another state (events aside)",
        )


def _check_observation_notation(game: Any, seen: Any, player: int, where: str) -> None:
    """Player ``player``'s observation survives its notation, events aside."""
    text = game.observation_notation(seen)
    try:
        read = game.observation_position(text)
    except NotationError as exc:
        raise _fail(
            where,
            f"observation_position refuses player {player}'s observation's notation "
            f"{text!r}: {exc}",
        ) from exc
    if read != _without_events(seen):
        raise _fail(
            where,
            f"player {player}'s observation does not survive its notation: {text!r} reads "
            "back as another observation (events aside)",
        )


def _census(game: Any, state: Any) -> Counter[Any]:
    return Counter(c for cards in game.card_census(state).values() for c in cards)


def _reference_step(game: Any) -> Any:
    """``GameBase.step``, when ``game`` is a GameBase that overrides ``step``; else None."""
    if isinstance(game, GameBase) and type(game).step is not GameBase.step:
        return GameBase.step
    return None


def _same_but_events(game: Any, state: Any, after: Any) -> bool:
    """Whether ``after`` is ``state`` again, apart from the events that led there."""
    if not attrs.has(type(state)) or not hasattr(state, "events"):
        return False
    return bool(attrs.evolve(after, events=state.events) == state)


def _play(game: Any, seed: int, explicit: bool, max_steps: int, report: dict[str, Any]) -> None:
    mode = "explicit" if explicit else "sampled"
    _, max_length = _promised_length(game)
    reference_step = _reference_step(game)
    with _game_calls(f"{game.name} seed {seed} ({mode} chance), at setup"):
        state = game.initial_state(seed, explicit_chance=explicit)
        cards = _census(game, state)
    choice_rng = rng_derive(seed, 0xC4EC)
    states = [state]
    actions = []
    decisions = 0
    for step in range(max_steps):
        where = f"{game.name} seed {seed} ({mode} chance), step {step}"
        with _game_calls(where):
            if _step(game, state, explicit, where, cards, report):
                break
            to_move = game.current_player(state)
            if to_move == CHANCE:
                report["chance"] += 1
                options = [a for a, _ in game.chance_outcomes(state)]
            else:
                decisions += 1
                if max_length is not None and decisions > max_length:
                    raise _fail(
                        where,
                        f"decision {decisions} of a game whose max_game_length is {max_length}",
                    )
                options = list(game.legal_actions(state))
            choice_rng, i = rng_below(choice_rng, len(options))
            before = json.dumps(game.state_to_data(state), sort_keys=True)
            try:
                game.step(state, object())
            except IllegalActionError:
                pass
            else:
                raise _fail(where, "step accepted an object that is no action")
            nxt = game.step(state, options[i])
            if json.dumps(game.state_to_data(state), sort_keys=True) != before:
                raise _fail(where, "step changed its input state")
            if reference_step is not None and reference_step(game, state, options[i]) != nxt:
                raise _fail(where, f"{type(game).__name__}.step differs from GameBase.step")
            if explicit and to_move == CHANCE and _same_but_events(game, state, nxt):
                raise _fail(where, "a chance outcome leads back to the same state (a loop)")
        actions.append(options[i])
        states.append(nxt)
        state = nxt
        report["steps"] += 1
    report["games"] += 1

    # The same seed and actions must give the same game, state for state.
    where = f"{game.name} seed {seed} ({mode})"
    with _game_calls(f"{where}, replaying"):
        again = game.initial_state(seed, explicit_chance=explicit)
        for i, action in enumerate(actions):
            if again != states[i]:
                raise _fail(where, f"replay differs at step {i}")
            again = game.step(again, action)
        if again != states[-1]:
            raise _fail(where, "replay differs at the end")


def _step(
    game: Any, state: Any, explicit: bool, where: str, cards: Counter[Any], report: dict[str, Any]
) -> bool:
    """Check ``state``; count it and return True if the game is over there."""
    check_state(game, state, where)
    if _census(game, state) != cards:
        raise _fail(where, "cards are not conserved")
    to_move = game.current_player(state)
    if to_move == TERMINAL:
        report["terminal"] += 1
        label = game.outcome(state).label
        report["outcomes"][label] = report["outcomes"].get(label, 0) + 1
        return True
    if to_move == CHANCE and not explicit:
        raise _fail(where, "sampled play stopped at a chance event")
    return False


def check_game(
    game: Any,
    *,
    games: int = 10,
    seed: int = 0,
    max_steps: int = 5_000,
    explicit_chance: tuple[bool, ...] = (False, True),
) -> ConformanceReport:
    """Play seeded random games and check every promise of the game protocol.

    At every state: legal actions exist exactly when a player must decide, sorted and
    distinct; chance probabilities are exact Fractions summing to 1; the outcome exists
    exactly at the end; actions and states survive their text and JSON round trips;
    observations are unchanged by :meth:`~cardcrawl.Game.determinize` and by the
    generator; legal actions a rule step filled in ahead are those found afresh;
    ``validate`` accepts the state; and, for a game with a position notation, the state
    and the observation of the player to move survive it (``game.position(game.notation(state))``
    is the state without its events, which a notation leaves out). A game without a
    notation skips that check. At every step: the input state never changes, a
    non-action is refused with :class:`~cardcrawl.IllegalActionError`, cards are
    conserved, a game that overrides ``step`` (to go faster) gives exactly what
    :meth:`cardcrawl.GameBase.step` gives, and in explicit-chance play no chance outcome
    leads back to the state it came from (which would make the chance tree infinite).
    After every game: the same seed and actions replay the same states. Throughout: the
    game raises nothing it was not asked to (an exception from the game's own code on
    its own states and legal actions is a broken promise too), and a game with its
    limit option set makes no more decisions than its OpenSpiel settings'
    ``max_game_length`` allows.

    Termination is checked only where it is promised. A game whose limit option is off
    (the standard Escape from Haydes, and The Mapless House without ``max_turns``) may
    never end by the rules (H-13, M-22): its random games are cut off at ``max_steps``,
    no error, and the report says so (:attr:`ConformanceReport.terminates` is
    ``False``).

    Args:
        game: any object implementing :class:`cardcrawl.Game`; give it its turn or
            round limit, since without one a game need not end (H-13, M-22).
        games: games per chance mode.
        seed: the first game's seed; the others follow it.
        max_steps: steps after which a game is abandoned (not an error, even for a
            game that promises to end: ``max_steps`` may be less than its bound).
        explicit_chance: which chance modes to play.

    Returns:
        A :class:`ConformanceReport` of what was played.

    Raises:
        ConformanceError: naming the game, the seed, the step and the broken promise.
            When the game itself raised (a ``SerializationError`` while saving a state
            of play, say), the error says so and chains the game's exception as its
            ``__cause__``.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_game
        >>> game = cardcrawl.load("escape-from-haydes", players=2, max_rounds=20)
        >>> report = check_game(game, games=1)
        >>> report.games, report.terminal == report.games, report.chance_events > 0
        (2, True, True)
    """
    report: dict[str, Any] = {"games": 0, "steps": 0, "chance": 0, "terminal": 0, "outcomes": {}}
    terminates, _ = _promised_length(game)
    for explicit in explicit_chance:
        for k in range(games):
            _play(game, seed + k, explicit, max_steps, report)
    return ConformanceReport(
        games=report["games"],
        steps=report["steps"],
        chance_events=report["chance"],
        terminal=report["terminal"],
        outcomes=report["outcomes"],
        terminates=terminates,
    )


def check_kernel(
    game: Any, seeds: Iterable[int] = range(1000), *, max_decisions: int = 100_000
) -> int:
    """Prove, seed by seed, that a game's rollout kernel plays the games of the public path.

    A rollout kernel (each built-in game has one) plays a whole game of uniform-random
    play on the game's own rules, over a mutable working position, and ``simulate`` lets it
    play every seat that is the random bot. It may only do so where it plays exactly
    the games that ``initial_state(seed)``, ``legal_actions``,
    :class:`~cardcrawl.bots.RandomBot` (seed ``seed``, one per seat) and ``step`` play: for each
    seed this plays both and compares the outcome (label, returns, scores, winners), the
    number of decisions, the final state (every field, the last step's events included)
    and the figures a simulation reports. The kernel also plays each seed from the
    public path's first state, as a bot's playout would start from a position, and
    once more as ``simulate`` has it play, keeping only the outcome, the decisions and
    the figures. A game still going after ``max_decisions`` must be left unfinished by
    the kernel too.

    Args:
        game: the game, a variant included: one whose rules the kernel does not play
            (for Escape from Haydes, a variant overriding a rule step, or a hook its
            kernel does not honour) has no kernel, and nothing is checked. Run it on
            your own variants: The Mapless House's kernel plays every variant, with
            its hooks.
        seeds: the seeds to play.
        max_decisions: the decisions after which a game is cut off, as in
            :func:`cardcrawl.simulate.play_game`.

    Returns:
        How many games were compared: 0 when the game has no kernel (``simulate`` then
        plays it the public way).

    Raises:
        ConformanceError: at the first seed that differs, saying how.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.mapless import MaplessHouse
        >>> from cardcrawl.testing import check_kernel
        >>> check_kernel(cardcrawl.load("mapless-house", max_turns=50), seeds=range(20))
        20
        >>> class Patient(MaplessHouse):  # a variant: the Stalkers never move
        ...     def stalker_step(self, state, stalker, cell):
        ...         return cell
        >>> check_kernel(Patient({"max_turns": 50}), seeds=range(20))
        20
    """
    make_kernel = tools_for(game).rollout
    kernel = make_kernel(game) if make_kernel is not None else None
    if kernel is None:
        return 0
    factory = tools_for(game).figures
    compared = 0
    for seed in seeds:
        where = f"{game!r}, seed {seed}"
        start = game.initial_state(seed)
        # One bot per seat, each with its own generator, as simulate builds them.
        bots = [RandomBot(game, seed, seat) for seat in range(game.num_players)]
        state, decisions = start, 0
        tracker = factory(game) if factory is not None else None
        if tracker is not None:
            tracker.step(state)
        while decisions < max_decisions and not game.is_terminal(state):
            bot = bots[game.current_player(state)]
            state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
            decisions += 1
            if tracker is not None:
                tracker.step(state)
        finished = game.is_terminal(state)
        # A game with no figure tracker (an unregistered class) reports no figures.
        figures = tuple(tracker.figures(state)) if tracker is not None else None
        for how, played in (
            ("from the seed", kernel.play(seed, max_decisions)),
            ("from the first state", kernel.play(seed, max_decisions, start)),
        ):
            if played is None:
                if finished:
                    raise _fail(
                        where,
                        f"the rollout kernel, {how}, left unfinished a game "
                        f"the public path ends in {decisions} decisions",
                    )
                continue
            if not finished:
                raise _fail(
                    where,
                    f"the rollout kernel, {how}, ends a game the public "
                    f"path leaves unfinished after {max_decisions} decisions",
                )
            _compare_kernel(game, where, how, state, decisions, figures, played)
        # What simulate keeps, made without building the final state: with the game's
        # own tracker, the kernel must give it for every game the public path ends.
        kept = kernel.summary(seed, max_decisions, factory)
        public = (game.outcome(state), decisions, figures) if finished else None
        if kept != public:
            raise _fail(
                where,
                f"the rollout kernel gives simulate {kept}, the public path {public}",
            )
        compared += 1
    return compared


def _compare_kernel(
    game: Any,
    where: str,
    how: str,
    state: Any,
    decisions: int,
    figures: Any,
    played: tuple[Any, int, Any],
) -> None:
    """Raise at the first way the kernel's game differs from the public path's."""
    final, kernel_decisions, kernel_figures = played
    said = f"the rollout kernel, {how},"
    expected, found = game.outcome(state), game.outcome(final)
    if expected != found:
        raise _fail(where, f"{said} ends {found}, the public path {expected}")
    if kernel_decisions != decisions:
        raise _fail(
            where, f"{said} makes {kernel_decisions} decisions, the public path {decisions}"
        )
    if final != state:
        fields = [
            a.name
            for a in attrs.fields(type(state))
            if getattr(final, a.name) != getattr(state, a.name)
        ]
        raise _fail(
            where,
            f"{said} ends in another state: {', '.join(fields)} differ "
            f"(the kernel's {[getattr(final, f) for f in fields]!r}, "
            f"the public path's {[getattr(state, f) for f in fields]!r})",
        )
    if kernel_figures != figures:
        raise _fail(
            where, f"{said} reports the figures {kernel_figures}, the public path {figures}"
        )


def counting_variant(game: Any, counts: Counter[tuple[str, str]], path: list[str]) -> Any:
    """A variant of ``game`` whose every rule hook (``rule_hooks``) asks ``super()`` and
    returns its answer unchanged, counting the call in ``counts`` under
    ``(path[0], hook)``: the same games, with a record of which path asked what."""
    base = type(game)

    def counted(hook: str) -> Any:
        def ask(self: Any, *args: Any, **kwargs: Any) -> Any:
            counts[path[0], hook] += 1
            return getattr(super(variant, self), hook)(*args, **kwargs)

        ask.__name__ = hook
        return ask

    variant = type(
        f"Counting{base.__name__}", (base,), {hook: counted(hook) for hook in base.rule_hooks}
    )
    return variant(game.options, name=game.name)


def check_hooks(
    game: Any, seeds: Iterable[int] = range(20), *, max_decisions: int = 100_000
) -> Counter[tuple[str, str]]:
    """Prove that every path that plays ``game`` asks its rule hooks.

    A rule is decided in one place, its hook (``type(game).rule_hooks`` lists them), so
    every way of playing the game must ask that hook wherever the public ``step`` asks
    it; a path that decides the rule itself would play a variant's games wrong. This
    plays ``seeds`` with a variant whose every hook is wrapped to count its calls
    (:func:`counting_variant`: the very same games), along each path:

    - ``step``: ``initial_state``, ``legal_actions``, :class:`~cardcrawl.bots.RandomBot`
      and ``step``, as :func:`check_kernel` plays it;
    - ``rollout``: the game's rollout kernel from the seed, as ``simulate`` uses it
      (``GameTools.rollout``), when the game has one;
    - ``playout``: the kernel from the seed's first state, as the bots' playouts start
      from a position;
    - ``summary``: the kernel as ``simulate`` keeps a game, when the game has one;
    - ``working``: the game's own working interface (``GameTools.working``, see
      :func:`cardcrawl.working_for`), the random bot choosing, as the native vector
      environment steps it, when the game declares one.

    A hook asked by ``step`` during play must be asked by every other path too. (Hooks
    asked once when the game is built, such as a card's value, are counted under
    ``build`` and shared by every path; Escape from Haydes asks all of its hooks then.)
    A game with no kernel for the variant is played
    the public way everywhere, and only ``step`` is counted. Pair it with
    :func:`check_kernel` on a variant whose answers differ from the stock ones, which
    proves the paths play its games; the pictures and bots, which read the hooks'
    answers, are checked that way too (each game's tests do).

    Args:
        game: the game or variant.
        seeds: the seeds to play.
        max_decisions: the decisions after which a game is cut off.

    Returns:
        The calls counted, by ``(path, hook)``.

    Raises:
        ConformanceError: a path that never asks a hook the public ``step`` asks.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_hooks
        >>> counts = check_hooks(cardcrawl.load("mapless-house", max_turns=60), seeds=range(3))
        >>> paths = ("step", "rollout", "working")
        >>> [counts[path, "stalker_step"] > 0 for path in paths]
        [True, True, True]
    """
    counts: Counter[tuple[str, str]] = Counter()
    path = ["build"]
    variant = counting_variant(game, counts, path)
    seeds = list(seeds)
    make_kernel = tools_for(variant).rollout
    kernel = make_kernel(variant) if make_kernel is not None else None
    factory = tools_for(variant).figures
    working = working_for(variant) if tools_for(variant).working is not None else None
    for seed in seeds:
        path[0] = "step"
        bots = [RandomBot(variant, seed, seat) for seat in range(variant.num_players)]
        state, decisions = variant.initial_state(seed), 0
        while decisions < max_decisions and not variant.is_terminal(state):
            bot = bots[variant.current_player(state)]
            state = variant.step(state, bot.choose(variant, None, variant.legal_actions(state)))
            decisions += 1
        if kernel is not None:
            path[0] = "rollout"
            kernel.play(seed, max_decisions)
            path[0] = "playout"
            kernel.play(seed, max_decisions, variant.initial_state(seed))
            path[0] = "summary"
            kernel.summary(seed, max_decisions, factory)
        if working is not None:
            path[0] = "working"
            bots = [RandomBot(variant, seed, seat) for seat in range(variant.num_players)]
            position, decisions = working.begin(seed), 0
            while decisions < max_decisions and not working.is_over(position):
                legal = working.legal(position)
                seat = variant.current_player(working.freeze(position)) if len(bots) > 1 else 0
                working.advance(position, bots[seat].choose(variant, None, legal))
                decisions += 1
            working.outcome(position)  # as the vector environment's reward asks it
    asked = sorted({hook for (where, hook), n in counts.items() if where == "step" and n})
    paths: tuple[str, ...] = ("rollout", "playout", "summary") if kernel is not None else ()
    paths += ("working",) if working is not None else ()
    for where in paths:
        ignored = [hook for hook in asked if not counts[where, hook]]
        if ignored:
            raise ConformanceError(
                f"{game!r}: the {where} path never asks {', '.join(ignored)}, which the "
                f"public step asks over seeds {seeds[0]}..{seeds[-1]}: it decides those "
                "rules itself, so a variant that changes them is played wrong there"
            )
    return counts


@attrs.frozen
class BotHooksReport:
    """What :func:`check_bot_hooks` found.

    Attributes:
        bot: the bot's label.
        claimed: the hooks it claims to weigh (its ``weighs_hooks``).
        asked: how often each claimed hook was asked while the bot chose.
        changed: for each variant (by class name), the decisions at which the bot chose
            otherwise than for the stock game, and the decisions compared.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.testing import check_bot_hooks
        >>> game = cardcrawl.load("mapless-house", max_turns=60)
        >>> report = check_bot_hooks(game, "heuristic", seeds=range(1))
        >>> report.bot, "stalker_step" in report.claimed, report.asked["stalker_step"] > 0
        ('heuristic', True, True)
    """

    bot: str
    claimed: tuple[str, ...]
    asked: dict[str, int]
    changed: dict[str, tuple[int, int]]


def _hooks_changed(game: Any, variant: Any) -> list[str]:
    """The rule hooks of ``game`` that ``variant``'s class answers with its own method."""
    base = type(game)
    return [h for h in base.rule_hooks if getattr(type(variant), h) is not getattr(base, h)]


def check_bot_hooks(
    game: Any,
    bot: Any,
    variants: Iterable[Any] = (),
    *,
    seeds: Iterable[int] = range(5),
    max_decisions: int = 300,
) -> BotHooksReport:
    """Prove that a bot that claims to weigh the game's hooks does.

    A bot claims it in a ``weighs_hooks`` attribute of its factory (its class,
    usually): the names of the rule hooks (``type(game).rule_hooks``) it asks, directly
    or through the game's own ``step`` and ``chance_outcomes``, when it decides. Such a
    bot plays a variant by the variant's rules, not by the stock ones it was written
    for. This checks both halves of the claim, on games the bot plays itself from
    ``seeds``:

    - **asked**: in games of ``game`` with every hook wrapped to count its calls
      (:func:`counting_variant`), each hook it claims is asked while it chooses;
    - **weighed**: for each of ``variants`` (games whose hooks answer otherwise, each
      changing at least one hook the bot claims), the bot built for the variant and the
      bot built for ``game``, shown the same observation of a game of the variant,
      choose differently at some decision. A bot that chooses as it would in the stock
      game at every decision plays the variant by the stock rules.

    Args:
        game: the stock game (or the variant whose hooks the variants change).
        bot: a registered bot name or a factory ``factory(game, seed, seat)``.
        variants: games of ``type(game)``'s subclasses with the same options, each
            overriding hooks so that their answers differ.
        seeds: the seeds of the games played.
        max_decisions: the decisions after which a game is cut off.

    Returns:
        The :class:`BotHooksReport`.

    Raises:
        ConformanceError: the bot claims no hooks or one the game does not have, never
            asks a hook it claims, or chooses as in the stock game in every decision
            of a variant; or a variant changes no hook the bot claims.

    Examples:
        Escape from Haydes' heuristic, with a variant in which *higher* is right when
        the card is lower and *lower* when it is higher (H-7):

        >>> import cardcrawl
        >>> from cardcrawl.haydes import EscapeFromHaydes, Guess
        >>> from cardcrawl.testing import check_bot_hooks
        >>> class Contrary(EscapeFromHaydes):
        ...     def guess_is_correct(self, guess, from_value, value):
        ...         other = Guess.LOWER if guess is Guess.HIGHER else Guess.HIGHER
        ...         return super().guess_is_correct(other, from_value, value)
        >>> game = cardcrawl.load("escape-from-haydes", max_rounds=20)
        >>> report = check_bot_hooks(game, "heuristic", [Contrary(game.options)],
        ...                          seeds=range(2))
        >>> report.asked["guess_is_correct"] > 0, report.changed["Contrary"][0] > 0
        (True, True)
    """
    factory = get_bot_spec(bot, game).factory if isinstance(bot, str) else bot
    label = bot if isinstance(bot, str) else getattr(bot, "__name__", repr(bot))
    claimed = tuple(getattr(factory, "weighs_hooks", ()) or ())
    hooks = tuple(type(game).rule_hooks)
    if not claimed:
        raise ConformanceError(
            f"bot {label} claims to weigh no hooks: its factory has no `weighs_hooks`, "
            "the names of the rule hooks it asks when it decides"
        )
    unknown = [h for h in claimed if h not in hooks]
    if unknown:
        raise ConformanceError(
            f"bot {label} claims to weigh {', '.join(unknown)}, which {game.name} has not; "
            f"its rule hooks: {', '.join(hooks)}"
        )
    seeds = list(seeds)
    counts: Counter[tuple[str, str]] = Counter()
    path = ["rules"]
    counting = counting_variant(game, counts, path)
    for seed in seeds:
        players = [factory(counting, seed, seat) for seat in range(counting.num_players)]
        state, decisions = counting.initial_state(seed), 0
        while decisions < max_decisions and not counting.is_terminal(state):
            seat = counting.current_player(state)
            legal = counting.legal_actions(state)
            seen = counting.observe(state, seat)
            path[0] = "bot"
            action = players[seat].choose(counting, seen, legal)
            path[0] = "rules"
            state = counting.step(state, action)
            decisions += 1
    asked = {h: counts["bot", h] for h in claimed}
    never = [h for h, n in asked.items() if not n]
    if never:
        raise ConformanceError(
            f"bot {label} claims to weigh {', '.join(never)} but never asked it while "
            f"choosing in the games of seeds {seeds[0]}..{seeds[-1]}"
        )
    changed: dict[str, tuple[int, int]] = {}
    for variant in variants:
        name = type(variant).__name__
        ours = [h for h in _hooks_changed(game, variant) if h in claimed]
        if not ours:
            raise ConformanceError(
                f"the variant {name} changes none of the hooks bot {label} claims "
                f"({', '.join(claimed)}): it proves nothing about them"
            )
        compared = differ = 0
        for seed in seeds:
            state, decisions = variant.initial_state(seed), 0
            while decisions < max_decisions and not variant.is_terminal(state):
                seat = variant.current_player(state)
                legal = variant.legal_actions(state)
                action = legal[0]
                if len(legal) > 1:
                    seen = variant.observe(state, seat)
                    action = factory(variant, seed, seat).choose(variant, seen, legal)
                    stock = factory(game, seed, seat).choose(game, seen, legal)
                    compared += 1
                    differ += action != stock
                state = variant.step(state, action)
                decisions += 1
        changed[name] = (differ, compared)
        if not differ:
            raise ConformanceError(
                f"bot {label} chose in {name} ({', '.join(ours)} changed) as in the stock "
                f"game at all {compared} decisions: it plays the variant by the stock rules"
            )
    return BotHooksReport(label, claimed, asked, changed)
