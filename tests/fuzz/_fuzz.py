"""What the fuzz tests share: a per-call time guard, a mutator of JSON data, the games
fuzzed, and the checks any state that loads must pass (it behaves, and it plays to its
end by random play).

The mutator draws only small values from Hypothesis (which mutation, where, a number, an
index) and builds the large ones itself (an integer of 5,000 digits, lists nested 3,000
deep), so that a failing example prints, and shrinks, as a short list of mutations
(``note``), never as the large value.
"""

from __future__ import annotations

import copy
import functools
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import attrs
from hypothesis import note
from hypothesis import strategies as st

import cardcrawl
from cardcrawl import CHANCE, TERMINAL, rng_below, rng_from_seed
from cardcrawl.errors import CardcrawlError, InvalidStateError
from cardcrawl.kit import standard_deck
from cardcrawl.testing import check_state

T = TypeVar("T")
Json = Any
Path = tuple[Any, ...]

#: Seconds one library call may take before the guard calls it a hang. Every call the
#: fuzzers make returns in milliseconds; the margin is for a loaded CI machine.
CALL_SECONDS = 5.0

#: Decisions random play makes in a game with no limit before it stops (not a failure:
#: such a game may never end, H-13, M-22).
UNLIMITED_DECISIONS = 300


class Hang(BaseException):
    """Raised by the alarm in a call that outran the guard.

    A ``BaseException``, so that no ``except Exception`` in the library can swallow it;
    :func:`bounded` turns it into an ``AssertionError`` at the call's boundary.
    """


_CAN_ALARM = hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")


def bounded(fn: Callable[..., T], *args: Any, seconds: float | None = None) -> T:
    """``fn(*args)``, or an ``AssertionError`` if it runs longer than ``seconds``
    (:data:`CALL_SECONDS` by default, read at each call so a test may lower it).

    The guard is a POSIX interval timer, so it only works in the main thread; elsewhere
    (and on Windows) the call runs unguarded, and the fuzzers' bounded inputs and
    decision caps are what keep it finite.
    """
    if not _CAN_ALARM or threading.current_thread() is not threading.main_thread():
        return fn(*args)
    armed = True

    def ring(signum: int, frame: Any) -> None:
        if armed:
            raise Hang

    if seconds is None:
        seconds = CALL_SECONDS
    previous = signal.signal(signal.SIGALRM, ring)
    try:
        try:
            # Ringing again every 0.1 s: an exception raised while the interpreter runs
            # a garbage-collection callback is swallowed, so one alarm may be lost.
            signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
            return fn(*args)
        finally:
            armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except Hang:
        name = getattr(fn, "__qualname__", repr(fn))
        raise AssertionError(f"{name} did not return within {seconds} s (a hang)") from None
    finally:
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------- the games

#: (game or variant name, options, explicit chance): every configuration fuzzed. Some
#: have no limit (such games need not end) and some have a small one (they must end
#: within OpenSpiel's ``max_game_length``).
MAPLESS = [
    ("mapless-house", {}, False),
    ("mapless-house", {"max_turns": 12}, True),
    ("mapless-house", {"max_turns": 40}, False),
]
HAYDES = [
    ("escape-from-haydes", {}, False),
    ("escape-from-haydes", {"players": 2, "max_rounds": 4}, True),
    ("escape-from-haydes", {"players": 3, "splits": [(7, 9), (9, 7), (8, 8)]}, False),
    ("escape-from-haydes-tuybe", {"players": 2, "max_rounds": 3}, False),
    ("escape-from-haydes-denizens", {"players": 4, "max_rounds": 2}, True),
]
CONFIGS = MAPLESS + HAYDES


def config_id(config: tuple[str, dict[str, Any], bool]) -> str:
    """A short test id for a configuration."""
    name, options, explicit = config
    parts = [name.replace("escape-from-haydes", "haydes").replace("mapless-house", "mapless")]
    parts += [f"{k}={v}" for k, v in options.items() if k != "splits"]
    parts += ["explicit"] if explicit else []
    return ",".join(parts)


@functools.cache
def _load(name: str, options_key: str) -> Any:
    import json

    return cardcrawl.load(name, **json.loads(options_key))


def load(name: str, options: dict[str, Any]) -> Any:
    """The game, loaded once per configuration."""
    import json

    return _load(name, json.dumps(options, sort_keys=True))


def options_at(game: Any, state: Any) -> list[Any]:
    """What may be stepped with: the chance outcomes, or the legal decisions."""
    if game.current_player(state) == CHANCE:
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def random_state(game: Any, seed: int, steps: int, *, explicit: bool) -> tuple[Any, list[Any]]:
    """The state after ``steps`` seeded random steps from ``initial_state(seed)`` (or
    the end, if sooner), with the actions that led there."""
    state = game.initial_state(seed, explicit_chance=explicit)
    rng = rng_from_seed(seed ^ 0x5EED)
    actions = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        options = options_at(game, state)
        rng, i = rng_below(rng, len(options))
        actions.append(options[i])
        state = game.step(state, options[i])
    return state, actions


# --------------------------------------------------------------------- checks


def decision_cap(game: Any) -> tuple[int, bool]:
    """How many decisions random play may make, and whether the game must end by then.

    A game whose limit option (``GameTools.limit``) is set must end within OpenSpiel's
    ``max_game_length``, from any state; one whose limit is ``None`` need not end at all.
    """
    tools = cardcrawl.tools_for(game)
    if tools.limit is None or getattr(game.options, tools.limit[0]) is None:
        return UNLIMITED_DECISIONS, False
    assert tools.openspiel is not None
    return int(tools.openspiel.max_game_length(game.options)), True


def behaves(game: Any, state: Any) -> None:
    """Every protocol promise about a single state holds (``check_state``), and the
    picture, the SVG and every player's observation come out; each call time-guarded."""
    bounded(check_state, game, state, "a loaded state")
    bounded(game.render, state)
    bounded(cardcrawl.svg, game, state)
    for player in range(game.num_players):
        bounded(game.observe, state, player)
    bounded(game.card_census, state)


def play_out(game: Any, state: Any, seed: int) -> Any:
    """Random play from ``state`` to its end; returns the last state reached.

    Every call is time-guarded; a live state must offer something to step with. A game
    with a limit must end within :func:`decision_cap` decisions (and twice as many chance
    events, plus the Narrative deck, which bounds both games' chance nodes); a game
    without one may be cut off there.
    """
    cap, must_end = decision_cap(game)
    rng = rng_from_seed(seed)
    decisions = chances = 0
    while True:
        to_move = bounded(game.current_player, state)
        if to_move == TERMINAL:
            assert bounded(game.outcome, state) is not None, "a terminal state has no outcome"
            return state
        assert to_move == CHANCE or 0 <= to_move < game.num_players, f"player {to_move}?"
        options = bounded(options_at, game, state)
        assert options, f"a live state (player {to_move}) offers nothing to step with"
        if to_move == CHANCE:
            chances += 1
        else:
            decisions += 1
        if decisions > cap or chances > 2 * cap + 25:
            assert not must_end, (
                f"{game.name} with {game.options} is still going after {decisions} "
                f"decisions and {chances} chance events, past its bound of {cap}"
            )
            return state
        rng, i = rng_below(rng, len(options))
        state = bounded(game.step, state, options[i])


# --------------------------------------------------------------------- the mutator

CARD_TEXTS = [str(c) for c in standard_deck(jokers=True)]
_CARDS = frozenset(CARD_TEXTS)
#: Integers at the edges: of 64-bit words, of what Python prints (4,300 digits), and far
#: beyond any cell of either game.
#: Drawn by name, so that Hypothesis prints the name and not 5,000 digits.
HUGE = {
    "2**63": 2**63,
    "2**64": 2**64,
    "-2**63-1": -(2**63) - 1,
    "10**30": 10**30,
    "-10**30": -(10**30),
    "10**5000": 10**5000,
}


def _huge(data: st.DataObject) -> int:
    return HUGE[data.draw(st.sampled_from(sorted(HUGE)), label="huge")]


def _show(value: Any) -> str:
    """A short text of a mutated value: large ones by their size, not in full."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**40:
        # Not str(value): Python refuses to print an integer of more than 4,300 digits.
        return f"<int of about {int(value.bit_length() * 0.30103)} digits>"
    if isinstance(value, (list, dict)):
        depth, inner = 0, value
        while isinstance(inner, (list, dict)) and len(inner) == 1 and depth < 50:
            inner = next(iter(inner.values())) if isinstance(inner, dict) else inner[0]
            depth += 1
        if depth >= 50:
            return "<lists or objects nested very deep>"
    try:
        text = repr(value)
    except ValueError:  # it holds an integer too long to print
        return "<data holding an integer of thousands of digits>"
    except RecursionError:
        return "<data nested very deep>"
    return text if len(text) <= 80 else text[:77] + "..."


def _nested(depth: int, as_dict: bool) -> Json:
    value: Json = []
    for _ in range(depth):
        value = {"x": value} if as_dict else [value]
    return value


def _copy(value: Json) -> Json:
    """A deep copy of ``value``; ``None`` for data an earlier mutation nested too deep to
    copy (sharing it instead could make the data hold itself)."""
    try:
        return copy.deepcopy(value)
    except RecursionError:
        return None


def _walk(doc: Json) -> Iterator[tuple[Path, Json]]:
    """Every node of ``doc`` with its path, without recursion, at most 12 levels down
    (so that data a mutation nested deep is still walked quickly)."""
    pending: list[tuple[Path, Json]] = [((), doc)]
    while pending:
        path, node = pending.pop()
        yield path, node
        if len(path) >= 12:
            continue
        if isinstance(node, dict):
            pending.extend(((*path, k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            pending.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))


def _get(doc: Json, path: Path) -> Json:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Json, path: Path, value: Json) -> Json:
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _is_int(value: Json) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_cell(node: Json) -> bool:
    """A saved cell ``[x, y]``, or a grid entry ``[x, y, card]``."""
    if not isinstance(node, list) or len(node) not in (2, 3):
        return False
    return _is_int(node[0]) and _is_int(node[1]) and (len(node) == 2 or isinstance(node[2], str))


def _field_of(path: Path) -> Path:
    """The field a node belongs to: ``("state", name)`` inside the saved state, else the
    top-level key."""
    return path[:2] if path[:1] == ("state",) else path[:1]


def _pick(data: st.DataObject, paths: list[Path], label: str) -> Path:
    """One of ``paths``, its field drawn first so that a field with many nodes (the
    Haydes layout) does not crowd out a field with one (the aimed-at cell)."""
    fields = sorted({_field_of(p) for p in paths}, key=repr)
    field = data.draw(st.sampled_from(fields), label=f"{label} field")
    under = [p for p in paths if _field_of(p) == field]
    return under[data.draw(st.integers(0, len(under) - 1), label=label)]


def _place(data: st.DataObject, doc: Json) -> tuple[Path, Json]:
    """A node to mutate, its field drawn first."""
    nodes = dict(_walk(doc))
    return (path := _pick(data, list(nodes), "node")), nodes[path]


def _number(data: st.DataObject, value: int) -> int:
    how = data.draw(st.sampled_from(["delta", "negate", "edge", "small"]), label="number")
    if how == "delta":
        return value + data.draw(st.integers(-3, 3).filter(bool), label="delta")
    if how == "negate":
        return -value - 1 if value == 0 else -value
    if how == "edge":
        return _huge(data)
    return data.draw(st.integers(-2, 110), label="small")


def _junk(data: st.DataObject, doc: Json) -> Json:
    """A value of any type: a scalar, an empty container, another node's value, or a
    structure nested deeper than Python's recursion limit."""
    kind = data.draw(
        st.sampled_from(
            ["none", "bool", "int", "huge", "float", "text", "card", "empty", "other", "deep"]
        ),
        label="junk",
    )
    if kind == "none":
        return None
    if kind == "bool":
        return data.draw(st.booleans())
    if kind == "int":
        return data.draw(st.integers(-5, 200))
    if kind == "huge":
        return _huge(data)
    if kind == "float":
        return data.draw(st.floats(allow_nan=True, allow_infinity=True) | st.just(1.0))
    if kind == "text":
        return data.draw(st.text(max_size=6))
    if kind == "card":
        return data.draw(st.sampled_from(CARD_TEXTS))
    if kind == "empty":
        return data.draw(st.sampled_from([[], {}, ""]))
    if kind == "other":
        nodes = [v for _, v in _walk(doc)]
        return _copy(nodes[data.draw(st.integers(0, len(nodes) - 1), label="other")])
    depth = data.draw(st.sampled_from([200, 3_000]), label="depth")
    return _nested(depth, data.draw(st.booleans(), label="as dict"))


def _move_card(data: st.DataObject, doc: Json, nodes: list[tuple[Path, Json]]) -> str | None:
    """Take a card out of a pile and put it elsewhere: on another pile, on an empty card
    field (``null``), or on a grid at a cell beside one of its cards or very far away.
    Every card stays once in the data, as the card census demands."""
    piles = [p for p, v in nodes if isinstance(v, str) and v in _CARDS and _is_pile(doc, p[:-1])]
    if not piles:
        return None
    source = _pick(data, piles, "card")
    card = _get(doc, source)
    grids = [p for p, v in nodes if isinstance(v, list) and v and all(map(_is_cell, v))]
    grids = [p for p in grids if len(_get(doc, p)[0]) == 3]
    targets = [p for p, v in nodes if v is None or (isinstance(v, list) and _is_pile(doc, p))]
    targets += grids
    if not targets:
        return None
    target = _pick(data, targets, "target")
    del _get(doc, source[:-1])[source[-1]]
    if target in grids:
        grid = _get(doc, target)
        x, y = grid[data.draw(st.integers(0, len(grid) - 1), label="beside")][:2]
        if data.draw(st.booleans(), label="far"):
            cell = [x + 1, -(10**30)]
        else:
            cell = [x + data.draw(st.sampled_from([-1, 1])), y]
        grid.append([*cell, card])
        return f"move {card} from {list(source)} to {list(target)} at {_show(cell)}"
    place = _get(doc, target)
    if isinstance(place, list):
        place.insert(data.draw(st.integers(0, len(place)), label="at"), card)
    else:
        _set(doc, target, card)
    return f"move {card} from {list(source)} to {list(target)}"


def _is_pile(doc: Json, path: Path) -> bool:
    """Whether the node at ``path`` is a list of card texts (possibly empty)."""
    node = _get(doc, path)
    return isinstance(node, list) and all(isinstance(v, str) and v in _CARDS for v in node)


def mutate_once(data: st.DataObject, doc: Json) -> tuple[Json, str]:
    """``doc`` with one mutation (in place where it can be), and what it was, in words.

    The mutations: a number nudged or pushed to an edge; any value replaced by junk; a
    list shortened, lengthened, reordered or emptied; a key removed or added; two cards
    swapped anywhere in the data (which keeps every card once, so the card census still
    holds and the data gets further); a cell moved near or very far.
    """
    kinds = ["node", "node", "swap cards", "move card", "move cell", "list", "key"]
    kind = data.draw(st.sampled_from(kinds), label="mutation")
    nodes = list(_walk(doc))
    if kind == "swap cards":
        cards = [p for p, v in nodes if isinstance(v, str) and v in _CARDS]
        if len(cards) >= 2:
            one, other = _pick(data, cards, "card"), _pick(data, cards, "other card")
            a, b = _get(doc, one), _get(doc, other)
            _set(doc, one, b)
            _set(doc, other, a)
            return doc, f"swap {a} at {list(one)} with {b} at {list(other)}"
        kind = "node"
    if kind == "move card":
        moved = _move_card(data, doc, nodes)
        if moved is not None:
            return doc, moved
        kind = "node"
    if kind == "move cell":
        cells = [p for p, v in nodes if _is_cell(v)]
        if cells:
            path = _pick(data, cells, "cell")
            old = _get(doc, path)
            x, y = old[:2]
            if data.draw(st.booleans(), label="far"):
                new = [x + data.draw(st.sampled_from([0, 1, -(10**30)])), -(10**30)]
                new = data.draw(st.permutations(new), label="axis")
            else:
                new = [x + data.draw(st.integers(-2, 2)), y + data.draw(st.integers(-2, 2))]
            _set(doc, path, [*new, *old[2:]])
            return doc, f"{list(path)}: {_show(old)} -> {_show([*new, *old[2:]])}"
        kind = "node"
    if kind == "list":
        lists = [(p, v) for p, v in nodes if isinstance(v, list)]
        if lists:
            path, node = lists[data.draw(st.integers(0, len(lists) - 1), label="list")]
            how = data.draw(
                st.sampled_from(["remove", "duplicate", "append", "swap", "reverse", "clear"]),
                label="how",
            )
            if node and how in ("remove", "duplicate", "swap"):
                i = data.draw(st.integers(0, len(node) - 1), label="index")
                j = data.draw(st.integers(0, len(node) - 1), label="index 2")
                if how == "remove":
                    del node[i]
                elif how == "duplicate":
                    node.insert(j, _copy(node[i]))
                else:
                    node[i], node[j] = node[j], node[i]
                return doc, f"{list(path)}: {how} [{i}] ({j})"
            if how == "reverse":
                node.reverse()
            elif how == "clear":
                node.clear()
            else:
                node.append(_junk(data, doc))
                return doc, f"{list(path)}: append {_show(node[-1])}"
            return doc, f"{list(path)}: {how}"
        kind = "node"
    if kind == "key":
        dicts = [(p, v) for p, v in nodes if isinstance(v, dict) and v]
        if dicts:
            path, node = dicts[data.draw(st.integers(0, len(dicts) - 1), label="object")]
            if data.draw(st.booleans(), label="remove key"):
                key = data.draw(st.sampled_from(sorted(node)), label="key")
                del node[key]
                return doc, f"{list(path)}: remove key {key!r}"
            key = data.draw(st.sampled_from(["extra", "type", "", "rng", "state"]), label="key")
            node[key] = _junk(data, doc)
            return doc, f"{list(path)}: set key {key!r} = {_show(node[key])}"
    path, node = _place(data, doc)
    if isinstance(node, int) and not isinstance(node, bool) and data.draw(st.booleans()):
        new = _number(data, node)
    else:
        new = _junk(data, doc)
    doc = _set(doc, path, new)
    return doc, f"{list(path)}: {_show(node)} -> {_show(new)}"


def mutate(data: st.DataObject, doc: Json, most: int = 3) -> Json:
    """A copy of ``doc`` with one to ``most`` mutations, each noted for the report."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, most), label="mutations")):
        doc, what = mutate_once(data, doc)
        note(f"mutation: {what}")
    return doc


# --------------------------------------------------------------------- texts

#: Characters a text mutation inserts: separators, signs, digits of other scripts
#: (Arabic-Indic three, fullwidth one, superscript two), controls and letters.
ODD_CHARACTERS = " ,;-+_.0123456789\t\n\x00\u0663\uff11\u00b2\u00e9xXsShH"


def mutate_text(data: st.DataObject, text: str) -> str:
    """``text`` with one edit: a character inserted, removed or replaced, a number made
    long, signed, padded or foreign, the words reordered or the case changed."""
    how = data.draw(
        st.sampled_from(["insert", "remove", "replace", "number", "words", "case", "empty"]),
        label="text edit",
    )
    at = data.draw(st.integers(0, len(text)), label="at")
    if how == "insert":
        return text[:at] + data.draw(st.sampled_from(ODD_CHARACTERS), label="char") + text[at:]
    if how in ("remove", "replace") and text:
        at = min(at, len(text) - 1)
        new = data.draw(st.sampled_from(ODD_CHARACTERS), label="char") if how == "replace" else ""
        return text[:at] + new + text[at + 1 :]
    if how == "number":
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        number = data.draw(
            st.sampled_from(["9" * 10, "9" * 5000, "-0", "+1", "007", "1_0", "\u0663", "1e3"]),
            label="number",
        )
        if digits:
            i = digits[min(at, len(digits) - 1)]
            return text[:i] + number + text[i + 1 :]
        return f"{text} {number}"
    if how == "words":
        words = text.split(" ")
        return " ".join(data.draw(st.permutations(words), label="words"))
    if how == "case":
        return text.upper() if text.islower() else text.swapcase()
    return ""


@functools.cache
def action_texts(name: str, options_key: str = "{}") -> tuple[str, ...]:
    """The text of every decision and chance outcome met in a few seeded random games."""
    game = _load(name, options_key)
    texts: set[str] = set()
    for seed in range(6):
        state = game.initial_state(seed, explicit_chance=seed % 2 == 0)
        rng = rng_from_seed(seed)
        for _ in range(400):
            if game.is_terminal(state):
                break
            options = options_at(game, state)
            texts.update(game.format_action(a) for a in options)
            rng, i = rng_below(rng, len(options))
            state = game.step(state, options[i])
    return tuple(sorted(texts))


# --------------------------------------------------------------------- known bugs


@attrs.frozen
class KnownBug:
    """A library bug the fuzzers found, pinned by a strict xfail test in
    ``test_fuzz_found.py``.

    The fuzz tests pass over an input that meets a known bug (and count it), so that they
    keep looking for new ones instead of finding the same one every run. Once the bug is
    fixed, its pinned test passes, which a strict xfail reports as a failure: then remove
    the marker and this entry together.

    Attributes:
        test: the name of the pinned test.
        meets: whether an error, raised for the input data (and the state it loaded
            as, or ``None``), is this bug. Where the state shows the bug (a piece where
            validation should have refused it), any error counts.
    """

    test: str
    meets: Callable[[BaseException, Json, Any], bool]


#: The bugs open today; none since the last were fixed. An entry is
#: ``KnownBug("test_name_in_test_fuzz_found", predicate)``.
KNOWN_BUGS: tuple[KnownBug, ...] = ()


def known_bug(exc: BaseException, doc: Json, state: Any) -> KnownBug | None:
    """The known bug that ``exc`` is, or ``None`` for a new failure."""
    return next((bug for bug in KNOWN_BUGS if bug.meets(exc, doc, state)), None)


# --------------------------------------------------------------------- the properties


def load_and_play(game: Any, doc: Json, seed: int) -> bool:
    """Load ``doc``: False if it is refused with a library error; else check that the
    state behaves and plays to its end, and return True. Any other error propagates."""
    try:
        state = bounded(game.state_from_data, doc)
    except CardcrawlError:
        return False
    behaves(game, state)
    play_out(game, state, seed)
    return True


def validate_and_play(game: Any, state: Any, seed: int) -> bool:
    """Validate a state built by hand: False if ``validate`` refuses it with an
    ``InvalidStateError``; else check that it behaves and plays to its end, and return
    True."""
    try:
        bounded(game.validate, state)
    except InvalidStateError:
        return False
    behaves(game, state)
    play_out(game, state, seed)
    return True


def replay_and_play(read: Callable[[Json], Any], doc: Json, seed: int) -> bool:
    """Read a record with ``read`` (``Record.from_data`` or ``from_json``) and replay
    it: False if it is refused with a library error; else check that its last state
    behaves and plays on to its end, and return True."""
    try:
        record = bounded(read, doc)
        state = bounded(record.replay)
    except CardcrawlError:
        return False
    game = record.load_game()
    behaves(game, state)
    play_out(game, state, seed)
    return True


def _loaded(game: Any, doc: Json) -> Any:
    """The state ``doc`` loads as, for telling known bugs apart; ``None`` if it does not."""
    try:
        return bounded(game.state_from_data, doc)
    except Exception:
        return None


def _replayed(read: Callable[[Json], Any], doc: Json) -> Any:
    """The last state of the record ``doc``, for telling known bugs apart; ``None`` if
    it does not replay."""
    try:
        return bounded(bounded(read, doc).replay)
    except Exception:
        return None


def hand_built_is_refused_or_plays(game: Any, state: Any, seed: int) -> str:
    """:func:`validate_and_play`, passing over known bugs: returns ``"refused"``,
    ``"accepted"`` or the known bug met; raises on any new failure."""
    try:
        return "accepted" if validate_and_play(game, state, seed) else "refused"
    except Exception as exc:
        bug = known_bug(exc, None, state)
        if bug is None:
            raise
        return f"known bug: {bug.test}"


def save_loads_and_plays_or_is_refused(game: Any, doc: Json, seed: int) -> str:
    """:func:`load_and_play`, passing over known bugs: returns ``"refused"``,
    ``"loaded"`` or the known bug met; raises on any new failure."""
    try:
        return "loaded" if load_and_play(game, doc, seed) else "refused"
    except Exception as exc:
        bug = known_bug(exc, doc, _loaded(game, doc))
        if bug is None:
            raise
        return f"known bug: {bug.test}"


def record_replays_or_is_refused(read: Callable[[Json], Any], doc: Json, seed: int) -> str:
    """:func:`replay_and_play`, passing over known bugs: returns ``"refused"``,
    ``"replayed"`` or the known bug met; raises on any new failure."""
    try:
        return "replayed" if replay_and_play(read, doc, seed) else "refused"
    except Exception as exc:
        bug = known_bug(exc, doc, _replayed(read, doc))
        if bug is None:
            raise
        return f"known bug: {bug.test}"
