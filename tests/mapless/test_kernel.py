"""The rollout kernel of The Mapless House plays the public path's games, seed by seed,
for the stock game and for variants overriding any hook."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl.bots import RandomBot
from cardcrawl.core import _registry
from cardcrawl.errors import ConformanceError
from cardcrawl.mapless import ENTRANCE_CELL, MaplessHouse, _kernel, corridor_cells
from cardcrawl.mapless._figures import MaplessFigures
from cardcrawl.simulate import simulate
from cardcrawl.testing import check_kernel


@pytest.mark.parametrize(("max_turns", "seeds"), [(200, 1200), (1, 300), (6, 300), (40, 300)])
def test_the_kernel_plays_the_public_games(max_turns: int, seeds: int, boards: bool) -> None:
    game = cardcrawl.load("mapless-house", max_turns=max_turns)
    assert check_kernel(game, seeds=range(seeds)) == seeds


def test_the_kernel_plays_the_public_games_without_a_turn_limit() -> None:
    game = cardcrawl.load("mapless-house")
    assert check_kernel(game, seeds=range(10_000, 10_300)) == 300


def test_games_cut_off_by_max_decisions_are_left_to_the_public_path(boards: bool) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    # Random games take about 35 decisions: with 30, many are cut off, some end.
    assert check_kernel(game, seeds=range(200), max_decisions=30) == 200
    kernel = _kernel.MaplessKernel(game)
    outcomes = {kernel.play(seed, 30) is None for seed in range(200)}
    assert outcomes == {True, False}


def test_dread_lines_of_its_own_word_the_last_events_as_the_public_path_does(
    boards: bool,
) -> None:
    from cardcrawl.mapless._dread import STANDARD_DREAD_LINES

    lines = {code: f"{code} creaks." for code in STANDARD_DREAD_LINES}
    game = cardcrawl.load("mapless-house", max_turns=30, dread_lines=lines)
    assert check_kernel(game, seeds=range(200)) == 200


# One variant per hook, each answering otherwise than the stock rules.
class Heavy(MaplessHouse):
    def card_value(self, card: Any) -> int:
        return super().card_value(card) + 1


class TensAreNoCorridors(MaplessHouse):
    def is_corridor(self, card: Any) -> bool:
        return super().is_corridor(card) and card.rank != 10


class OnlyKingsPull(MaplessHouse):
    def is_room(self, card: Any) -> bool:
        return card.rank == 13


class AnywhereGoes(MaplessHouse):
    def placement_cells(self, state: Any, card: Any) -> list[Any]:
        return self.room_cells(state)


class NoPull(MaplessHouse):
    def corridor_cells(self, state: Any) -> list[Any]:
        return corridor_cells(state.table, state.closed, None)


class NorthernRooms(MaplessHouse):
    def room_cells(self, state: Any) -> list[Any]:
        return [c for c in super().room_cells(state) if c[1] >= 0]


class EarlyExit(MaplessHouse):
    def exit_may_open(self, state: Any) -> bool:
        return len(state.narrative) <= 18


class ExitByTheDoor(MaplessHouse):
    def exit_cells(self, state: Any) -> list[Any]:
        cells = sorted(c for c in cardcrawl.neighbours(ENTRANCE_CELL) if c not in state.table)
        return cells or super().exit_cells(state)


class NeverBack(MaplessHouse):
    def move_cells(self, state: Any) -> list[Any]:
        cells = super().move_cells(state)
        return [c for c in cells if c != ENTRANCE_CELL] or cells


class Brave(MaplessHouse):
    def encounter_threshold(self, state: Any) -> int:
        return super().encounter_threshold(state) // 2


class Shaky(MaplessHouse):
    def encounter_total(self, state: Any, cards: Any) -> int:
        return super().encounter_total(state, cards) - 3


class Patient(MaplessHouse):
    """The Stalkers never move (M-18 overridden)."""

    def stalker_step(self, state: Any, stalker: Any, cell: Any) -> Any:
        return cell


class ClubAtTheExit(MaplessHouse):
    def club_arrival(self, state: Any) -> Any:
        return state.exit_cell if state.ran_dry else None


class Doubled(MaplessHouse):
    def score(self, state: Any) -> int:
        return 2 * super().score(state)


class FarApart(MaplessHouse):
    """Each card goes three cells east of the last, and the player may walk to any card:
    the house soon leaves the board a rollout keeps its cells on (and goes on by dicts)."""

    def placement_cells(self, state: Any, card: Any) -> list[Any]:
        return [(3 * len(state.table), 1)]

    def move_cells(self, state: Any) -> list[Any]:
        return sorted(c for c in state.table if c != state.player)


VARIANTS = [
    Heavy, TensAreNoCorridors, OnlyKingsPull, AnywhereGoes, NoPull, NorthernRooms, EarlyExit,
    ExitByTheDoor, NeverBack, Brave, Shaky, Patient, ClubAtTheExit, Doubled, FarApart,
]  # fmt: skip


@pytest.fixture(params=[False, True], ids=["dicts", "board"])
def boards(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Rollouts on the grid's dicts, and on a board, whichever the build would choose."""
    monkeypatch.setattr(_kernel, "_BOARDS", request.param)
    return bool(request.param)


def _public(game: Any, seed: int) -> tuple[str, int, int, int]:
    """One random game through legal_actions and step: outcome, decisions, turns, score."""
    state, bot, decisions = game.initial_state(seed), RandomBot(game, seed, 0), 0
    while not game.is_terminal(state):
        state = game.step(state, bot.choose(game, None, game.legal_actions(state)))
        decisions += 1
    outcome = game.outcome(state)
    return outcome.label, decisions, state.turn, outcome.scores[0]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.__name__)
def test_every_variant_is_played_by_the_kernel_as_by_the_public_path(
    variant: type[MaplessHouse], boards: bool
) -> None:
    game = variant(cardcrawl.load("mapless-house", max_turns=25).options)
    assert _kernel.rollout_kernel(game) is not None
    assert check_kernel(game, seeds=range(60)) == 60
    run = simulate(game, "random", games=30, seed=3, workers=1)
    assert [(r.outcome, r.decisions, r.figure("turns"), r.scores[0]) for r in run.results] == [
        _public(game, r.seed) for r in run.results
    ]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.__name__)
def test_every_variant_plays_games_of_its_own(variant: type[MaplessHouse]) -> None:
    stock = cardcrawl.load("mapless-house", max_turns=25)
    game = variant(stock.options)
    ours = [_public(game, seed) for seed in range(40)]
    theirs = [_public(stock, seed) for seed in range(40)]
    assert ours != theirs


def test_the_kernel_asks_the_hooks_it_is_given() -> None:
    calls: dict[str, int] = {}

    class Counted(MaplessHouse):
        def stalker_step(self, state: Any, stalker: Any, cell: Any) -> Any:
            calls["stalker_step"] = calls.get("stalker_step", 0) + 1
            return super().stalker_step(state, stalker, cell)

    game = Counted(cardcrawl.load("mapless-house", max_turns=25).options)
    _kernel.MaplessKernel(game).summary(5, 10_000, MaplessFigures)
    assert calls["stalker_step"] > 0


# The hooks whose stock answer the rules ask of its rule function directly (Rules.stock_*).
DIRECT_HOOKS = [
    "placement_cells", "corridor_cells", "room_cells", "exit_may_open", "exit_cells",
    "move_cells", "encounter_threshold", "encounter_total", "stalker_step", "club_arrival",
]  # fmt: skip


@pytest.mark.parametrize("hook", DIRECT_HOOKS)
def test_a_hook_overridden_alone_is_asked_and_the_stock_ones_stay_direct(hook: str) -> None:
    """A subclass that overrides one hook, asking super() for the stock answer, has that
    hook called by the kernel (and every other stock hook still asked directly), and
    plays the stock game's games."""
    calls = []

    def same_answer(self: Any, *args: Any) -> Any:
        calls.append(hook)
        return getattr(super(variant, self), hook)(*args)

    variant = type(f"Same_{hook}", (MaplessHouse,), {hook: same_answer})
    stock = cardcrawl.load("mapless-house", max_turns=60)
    game = variant(stock.options)
    assert game._stock_hooks() == stock._stock_hooks() - {hook}
    stock_kernel, kernel = _kernel.MaplessKernel(stock), _kernel.MaplessKernel(game)
    for seed in range(40):
        assert kernel.summary(seed, 10_000, MaplessFigures) == stock_kernel.summary(
            seed, 10_000, MaplessFigures
        )
    assert calls
    assert check_kernel(game, seeds=range(20)) == 20


def test_a_game_with_an_outcome_of_its_own_has_simulate_ask_it() -> None:
    class Labelled(MaplessHouse):
        def outcome(self, state: Any) -> Any:
            made = super().outcome(state)
            return None if made is None else attrs.evolve(made, label=f"{made.label}!")

    game = Labelled(cardcrawl.load("mapless-house", max_turns=25).options)
    played = _kernel.MaplessKernel(game).summary(1, 10_000, MaplessFigures)
    assert played is not None
    assert played[0].label.endswith("!")
    assert check_kernel(game, seeds=range(10)) == 10


def test_an_instance_that_shadows_a_hook_is_played_with_it_on_every_path() -> None:
    game = cardcrawl.load("mapless-house", max_turns=25)
    game.stalker_step = lambda state, stalker, cell: cell  # type: ignore[method-assign]
    patient = Patient(game.options)
    assert check_kernel(game, seeds=range(30)) == 30
    assert [_public(game, s) for s in range(30)] == [_public(patient, s) for s in range(30)]


class Renamed(MaplessHouse):
    """The stock rules under another name."""

    game_name = "mapless-house-renamed"
    title = "The Mapless House, renamed"


@pytest.fixture
def registry_kept() -> Any:
    """The registry as it was, once the test is over."""
    before = dict(_registry._REGISTRY)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(before)


def test_a_class_registered_with_the_games_tools_has_the_kernel(registry_kept: Any) -> None:
    game = Renamed(cardcrawl.load("mapless-house", max_turns=25).options)
    # Unregistered, it has no tools, so no kernel; registered with the game's, it has.
    assert check_kernel(game, seeds=range(5)) == 0
    cardcrawl.register_game(Renamed.game_name, Renamed, tools=cardcrawl.tools_for("mapless-house"))
    assert check_kernel(game, seeds=range(50)) == 50


# Where the kernel is compiled, its own calls to _run never look the name up again, so a
# patched _run would go unseen: this fault is planted in the pure-Python kernel only.
@pytest.mark.skipif(
    "mapless-house" in cardcrawl.compiled_kernels(), reason="the kernel is compiled"
)
def test_a_kernel_that_chooses_otherwise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    original = _kernel._run

    def shifted(game: Any, seed: int, *args: Any) -> Any:
        return original(game, (seed + 1) % (1 << 64), *args)

    monkeypatch.setattr(_kernel, "_run", shifted)
    with pytest.raises(ConformanceError, match="seed 0"):
        check_kernel(game, seeds=range(5))


def test_a_kernel_whose_last_events_differ_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    original = _kernel.freeze
    monkeypatch.setattr(_kernel, "freeze", lambda position, events: original(position, events[1:]))
    with pytest.raises(ConformanceError, match="events differ"):
        check_kernel(game, seeds=range(50))


def test_a_kernel_that_tells_simulate_other_figures_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=200)
    original = _kernel.figures_of

    def miscounted(game: Any, state: Any, house_at_exit: int) -> Any:
        # summary's final position (or state) has no events: there it miscounts.
        return original(game, state, house_at_exit + (getattr(state, "events", ()) == ()))

    monkeypatch.setattr(_kernel, "figures_of", miscounted)
    with pytest.raises(ConformanceError, match="gives simulate"):
        check_kernel(game, seeds=range(5))


@pytest.mark.parametrize("max_turns", [3, 200])
def test_simulate_gives_the_public_paths_results(
    monkeypatch: pytest.MonkeyPatch, max_turns: int
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=max_turns)
    used = []
    summary = _kernel.MaplessKernel.summary

    def spy(self: Any, *args: Any) -> Any:
        played = summary(self, *args)
        used.append(played is not None)
        return played

    monkeypatch.setattr(_kernel.MaplessKernel, "summary", spy)
    fast = simulate(game, "random", games=150, seed=9, workers=1).results
    assert used
    assert all(used)  # the kernel played every game
    monkeypatch.setattr(_kernel.MaplessKernel, "summary", lambda self, *args: None)
    assert simulate(game, "random", games=150, seed=9, workers=1).results == fast


def test_simulate_with_another_bot_or_a_position_plays_the_public_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = cardcrawl.load("mapless-house", max_turns=50)
    monkeypatch.setattr(_kernel.MaplessKernel, "summary", _refuse)
    simulate(game, "heuristic", games=3, seed=1, workers=1)
    position = game.notation(game.initial_state(4))
    simulate(game, "random", games=3, seed=1, workers=1, position=position)


def _refuse(*args: Any) -> Any:
    raise AssertionError("the kernel was asked to play")


def test_a_class_patched_before_its_first_game_is_played_with_the_patch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(MaplessHouse, "stalker_step", Patient.stalker_step)

    class Later(MaplessHouse):
        """Made after the patch: it inherits the patched hook."""

    game = Later(cardcrawl.load("mapless-house", max_turns=25).options)
    assert "stalker_step" not in game._stock_hooks()
    assert check_kernel(game, seeds=range(20)) == 20
    patient = Patient(game.options)
    kernel, patients = _kernel.MaplessKernel(game), _kernel.MaplessKernel(patient)
    for seed in range(20):
        assert kernel.summary(seed, 10_000, None) == patients.summary(seed, 10_000, None)
