"""No bare built-in raises: each error the library raises on purpose is a library error.

Each case below once raised a bare ``ValueError``, ``KeyError``, ``TypeError``,
``ImportError`` or ``CardcrawlError``, or an error class defined in a private module.
It now raises a class of :mod:`cardcrawl.errors` that still derives from the built-in
it raised before (so callers catching that keep working), with a message that says
what was wrong and what would be right.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

import cardcrawl
from cardcrawl import errors
from cardcrawl.bots import RandomBot, SearchBot, register_bot
from cardcrawl.core._codec import decode, encode
from cardcrawl.kit._svg import register_svg
from cardcrawl.simulate import GameResult, simulate, wilson_interval
from cardcrawl.simulate._plot import plot_report
from cardcrawl.simulate._results import write_results

GAME = cardcrawl.load("mapless-house", max_turns=40)


def a_match() -> cardcrawl.Match:
    match = cardcrawl.Match.start(GAME, seed=1)
    match.play("place 1,0")
    return match


def a_result(figures: tuple[tuple[str, int], ...]) -> GameResult:
    return GameResult(
        index=0,
        seed=1,
        outcome="escaped",
        returns=(1.0,),
        scores=None,
        winners=(0,),
        decisions=3,
        figures=figures,
    )


def register_twice() -> None:
    register_bot("test-typed-twice", RandomBot, games=["mapless-house"], replace=True)
    register_bot("test-typed-twice", RandomBot, games=["mapless-house"])


def register_svg_twice() -> None:
    class Drawn(cardcrawl.mapless.MaplessHouse):
        pass

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        register_svg(Drawn, lambda game, state: "<svg/>")
        register_svg(Drawn, lambda game, state: "<svg/>")


def save_an_object() -> None:
    GAME.state_to_data(attrs.evolve(GAME.initial_state(seed=1), turn=object()))


# (what, the call, the library error, the built-in it still is, the message)
CASES: list[tuple[str, Callable[[], Any], type[Exception], type[Exception], str]] = [
    (
        "rng_below of an empty range",
        lambda: cardcrawl.rng_below(cardcrawl.rng_from_seed(1), 0),
        errors.OptionsError,
        ValueError,
        r"^rng_below\(state, n\) draws from range\(n\) and needs an integer n >= 1, not 0$",
    ),
    (
        "a replay opened past its last step",
        lambda: cardcrawl.replay_html(a_match(), step=2),
        errors.OptionsError,
        ValueError,
        r"^step 2 is not a step of this match: it has steps 0 to 1$",
    ),
    (
        "a rate with more successes than trials",
        lambda: wilson_interval(5, 3),
        errors.OptionsError,
        ValueError,
        r"^successes is between 0 and n=3, not 5$",
    ),
    (
        "results written to a .txt file",
        lambda: write_results(Path("games.txt"), []),
        errors.OptionsError,
        ValueError,
        r"^results go to a file ending in \.csv or \.json, not 'games\.txt'$",
    ),
    (
        "a plot of nothing",
        lambda: plot_report([], "report.png"),
        errors.OptionsError,
        ValueError,
        r"^there is nothing to plot: none of the simulations given has a finished game$",
    ),
    (
        "a bot name with a space",
        lambda: register_bot("two words", RandomBot),
        errors.OptionsError,
        ValueError,
        r"^a bot name is a non-empty string without spaces, not 'two words'$",
    ),
    (
        "a bot name taken",
        register_twice,
        errors.OptionsError,
        ValueError,
        r"already registered for these games; pass replace=True to override it$",
    ),
    (
        "a search bot with no rollouts",
        lambda: SearchBot(GAME, seed=0, rollouts=0),
        errors.OptionsError,
        ValueError,
        r"^rollouts and rollout_limit are integers >= 1 and exact_limit an integer >= 0, "
        r"not 0, 400 and 32$",
    ),
    (
        "a second SVG renderer for one class",
        register_svg_twice,
        errors.OptionsError,
        ValueError,
        r"^an SVG renderer is already registered for Drawn; pass replace=True to override it$",
    ),
    (
        "a figure the game does not record",
        lambda: a_result((("turns", 5), ("house_size", 9))).figure("height"),
        errors.UnknownFigureError,
        KeyError,
        r"^this game records no figure 'height'; its figures are turns, house_size$",
    ),
    (
        "a figure of a game that records none",
        lambda: a_result(()).figure("turns"),
        errors.UnknownFigureError,
        KeyError,
        r"^this game records no figure 'turns'; it records none$",
    ),
    (
        "saving a value of a type the codec has no rule for",
        lambda: encode({"cell": object()}),
        errors.UnsupportedTypeError,
        TypeError,
        r"^cannot save a value of type object: the codec saves None, booleans, ",
    ),
    (
        "saving a state edited to hold an object",
        save_an_object,
        errors.UnsupportedTypeError,
        TypeError,
        r"^cannot save a value of type object",
    ),
    (
        "reading a field declared as a type the codec has no rule for",
        lambda: decode(list[int], [1, 2], "state.path"),
        errors.UnsupportedTypeError,
        TypeError,
        r"^state\.path: cannot read a field declared as list\[int\]; the codec reads fields "
        r"of int, bool, str",
    ),
    (
        "redo with nothing undone",
        lambda: a_match().redo(),
        errors.UndoError,
        RuntimeError,
        r"^nothing to redo: no action has been undone since the last play$",
    ),
    (
        "undo at the initial state",
        lambda: cardcrawl.Match.start(GAME, seed=1).undo(),
        errors.UndoError,
        RuntimeError,
        r"^nothing to undo: the match is at its initial state$",
    ),
    (
        "fair undo across a card drawn",
        lambda: a_match().undo(),
        errors.UndoError,
        RuntimeError,
        r"^cannot undo 'place 1,0': that step revealed the outcome of a chance event",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "builtin", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_the_library_error_is_raised_and_is_still_the_builtin(
    call: Callable[[], Any], error: type[Exception], builtin: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as caught:
        call()
    assert type(caught.value) is error
    assert isinstance(caught.value, builtin)
    assert isinstance(caught.value, cardcrawl.CardcrawlError)
    line = traceback.format_exception_only(type(caught.value), caught.value)[-1]
    assert line.startswith(f"cardcrawl.errors.{error.__name__}: ")


def test_a_missing_plot_extra_is_a_missing_extra_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # None in sys.modules makes the import fail as if matplotlib were not installed.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = simulate(GAME, "random", games=1, workers=1)
    with pytest.raises(errors.MissingExtraError, match=r"pip install 'cardcrawl\[plot\]'") as got:
        plot_report([result], tmp_path / "report.png")
    assert isinstance(got.value, ImportError)
    assert got.value.name == "matplotlib"
    assert not (tmp_path / "report.png").exists()


def test_an_unknown_figure_reads_as_a_sentence_not_a_key() -> None:
    # A bare KeyError would print its argument's repr, quotes and all.
    error = errors.UnknownFigureError("this game records no figure 'x'; it records none")
    assert str(error) == "this game records no figure 'x'; it records none"
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    assert str(errors.UnknownFigureError("a", "b")) == "('a', 'b')"


def test_a_declared_type_the_codec_cannot_read_is_not_called_bad_data() -> None:
    # It is a bug in the class that declares the field: SerializationError would send
    # the reader looking for a fault in the data.
    with pytest.raises(errors.UnsupportedTypeError) as caught:
        decode(set[int], [1])
    assert not isinstance(caught.value, errors.SerializationError)


def test_callers_that_wrap_codec_errors_still_do() -> None:
    state = attrs.evolve(GAME.initial_state(seed=1), turn=object())
    with pytest.raises(errors.InvalidStateError, match="cannot save a value of type object"):
        GAME.validate(state)
    with pytest.raises(errors.OptionsError, match=r"^option cannot save a value of type object"):
        type(GAME.options).from_data({"max_turns": object()})


@pytest.mark.parametrize(
    ("old_path", "name"),
    [
        ("cardcrawl", "UndoError"),
        ("cardcrawl", "NoRendererError"),
        ("cardcrawl", "PluginError"),
        ("cardcrawl.kit", "NoRendererError"),
        ("cardcrawl.encoding", "EncodingError"),
        ("cardcrawl.bots", "UnknownBotError"),
        ("cardcrawl.testing", "ConformanceError"),
        # The modules that defined them, which old pickles name.
        ("cardcrawl.play._match", "UndoError"),
        ("cardcrawl.kit._svg", "NoRendererError"),
        ("cardcrawl.encoding._base", "EncodingError"),
        ("cardcrawl.bots._base", "UnknownBotError"),
        ("cardcrawl.core._registry", "PluginError"),
    ],
)
def test_every_former_import_path_still_works(old_path: str, name: str) -> None:
    module = importlib.import_module(old_path)
    assert getattr(module, name) is getattr(errors, name)


def test_an_undo_error_still_carries_its_entry() -> None:
    match = a_match()
    with pytest.raises(errors.UndoError) as caught:
        match.undo()
    assert caught.value.entry is match.history[-1]
    again = pickle.loads(pickle.dumps(caught.value))
    assert (str(again), again.entry) == (str(caught.value), caught.value.entry)
