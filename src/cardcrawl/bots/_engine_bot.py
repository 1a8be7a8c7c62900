"""Engines: programs in any language that play a seat, over JSON lines (the engine protocol).

The library runs the program and writes one JSON object a line to its standard input;
the program answers on its standard output, one line per question. Version 1:

* ``{"type": "hello", "protocol": 1, "game": ..., "options": {...}, "rules_version":
  ..., "players": N, "seat": S, "seed": ..., "time_limit": T}``, answered by
  ``{"type": "ready", "protocol": 1}`` (an optional ``"name"`` names the engine);
* per decision ``{"type": "decide", "id": K, "seat": S, "observation": {...}, "legal":
  [...], "narration": [...], "time_limit": T}``, answered by ``{"action": "<text>"}``
  (optionally with ``"type": "action"`` and ``"id": K``), one of the legal actions' texts;
* last ``{"type": "end", "outcome": {...} | null}`` (the game's outcome, once it is
  over), after which stdin is closed.

:class:`EngineBot` is the library's side: a bot (``make_bot("engine", game, seed,
command=[...])``) that runs such a program for its seat, with a time limit for every
answer. :func:`serve_engine` is a reference engine, the program's side: it plays a
registered bot over the protocol (``cardcrawl engine --bot random``). The page
*The engine protocol* of the documentation is the specification.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from cardcrawl.core._codec import encode
from cardcrawl.core._random import rng_below, rng_derive
from cardcrawl.errors import CardcrawlError, OptionsError, ParseError, short_repr

__all__ = [
    "ENGINE_PROTOCOL",
    "EngineBot",
    "EngineError",
    "EngineTimeoutError",
    "decide_message",
    "hello_message",
    "serve_engine",
]


class EngineError(CardcrawlError, RuntimeError):
    """An engine, a program playing a seat over the JSON-lines protocol, failed its seat.

    It answered with something that is not a protocol message, named an action that is
    not legal, broke the handshake, or exited. The game it played is never changed: the
    bot raises before any action is taken. :class:`EngineTimeoutError` is the case of an
    answer that came too late.

    Attributes:
        reason: one word for what went wrong: ``"garbage"``, ``"protocol"``,
            ``"illegal"``, ``"exited"``, ``"timeout"`` or ``"start"``.
        command: the engine's command line.
        seat: the seat it played, or ``None``.

    Examples:
        >>> from cardcrawl.bots import EngineError
        >>> error = EngineError("engine sent 'hello?'", reason="garbage", command=("bot",))
        >>> error.reason, error.command, isinstance(error, RuntimeError)
        ('garbage', ('bot',), True)
    """

    # Named by its public path in tracebacks and pickles: cardcrawl.bots.EngineError.
    __module__ = "cardcrawl.bots"

    def __init__(
        self,
        message: str,
        *,
        reason: str = "protocol",
        command: Sequence[str] = (),
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.command = tuple(command)
        self.seat = seat


class EngineTimeoutError(EngineError, TimeoutError):
    """An engine gave no answer within its time limit (it has been stopped).

    Examples:
        >>> from cardcrawl.bots import EngineError, EngineTimeoutError
        >>> error = EngineTimeoutError("no answer in 0.5 s", reason="timeout")
        >>> isinstance(error, EngineError), isinstance(error, TimeoutError)
        (True, True)
    """

    # Named by its public path in tracebacks and pickles: cardcrawl.bots.EngineTimeoutError.
    __module__ = "cardcrawl.bots"


#: The version of the engine protocol spoken here.
ENGINE_PROTOCOL = 1

#: The longest line either side may send, in bytes: a line longer is refused as garbage.
MAX_LINE_BYTES = 4 * 1024 * 1024

#: The environment variable read for the engine's command when none is given: a
#: command line, split as a POSIX shell would (``shlex.split``).
COMMAND_VARIABLE = "CARDCRAWL_ENGINE"

#: How many bytes of the engine's standard error are kept for messages.
_STDERR_KEPT = 2000


def _default_command() -> tuple[str, ...]:
    """``$CARDCRAWL_ENGINE``, else the reference engine playing the random bot."""
    text = os.environ.get(COMMAND_VARIABLE, "").strip()
    if text:
        return tuple(shlex.split(text))
    return (sys.executable, "-m", "cardcrawl", "engine", "--bot", "random")


# ------------------------------------------------------------------ messages
def _line(message: Mapping[str, Any]) -> str:
    """A message as one line of ASCII JSON (card symbols are escaped)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n"


def hello_message(
    game: Any, seat: int, seed: int, time_limit: float | None = None
) -> dict[str, Any]:
    """The first message to an engine: the game, its options and the seat it plays.

    Args:
        game: the game to be played.
        seat: the engine's seat.
        seed: the seed the engine may play with (an engine serving a bot builds it
            with this seed, so that it chooses as the bot would in-process).
        time_limit: seconds allowed for each answer, if any.

    Returns:
        The ``hello`` message, JSON-compatible.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots._engine_bot import hello_message
        >>> hello = hello_message(cardcrawl.load("mapless-house", max_turns=9), 0, seed=4)
        >>> hello["type"], hello["protocol"], hello["game"], hello["options"]["max_turns"]
        ('hello', 1, 'mapless-house', 9)
    """
    options = game.options
    to_data = getattr(options, "to_data", None)
    return {
        "type": "hello",
        "protocol": ENGINE_PROTOCOL,
        "game": game.name,
        "options": to_data() if to_data is not None else {},
        "rules_version": getattr(game, "rules_version", ""),
        "players": game.num_players,
        "seat": seat,
        "seed": seed,
        "time_limit": time_limit,
    }


def decide_message(
    game: Any,
    observation: Any,
    legal_actions: Sequence[Any],
    *,
    seat: int,
    number: int = 1,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """The question of one decision: the seat's observation and the legal actions.

    Args:
        game: the game being played.
        observation: the seat's observation.
        legal_actions: the legal actions, never empty.
        seat: the seat deciding.
        number: the decision's number for this seat, from 1 (the answer may repeat it
            as ``"id"``).
        time_limit: seconds allowed for the answer, if any.

    Returns:
        The ``decide`` message: ``observation`` as ``game.observation_to_data`` writes
        it, ``legal`` as the actions' texts (``game.format_action``; each text is also
        its JSON form, ``game.action_to_data``), ``narration`` as the observation's
        events told in words, one line each.

    Examples:
        >>> import cardcrawl
        >>> from cardcrawl.bots._engine_bot import decide_message
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=1, stack={"narrative": ["KS"]})
        >>> message = decide_message(
        ...     game, game.observe(state, 0), game.legal_actions(state), seat=0
        ... )
        >>> message["type"], message["legal"]
        ('decide', ['place -1,0', 'place 0,-1', 'place 0,1', 'place 1,0'])
        >>> message["narration"][-1]
        'You draw K♠ from the Narrative deck.'
    """
    to_data = getattr(game, "observation_to_data", None)
    return {
        "type": "decide",
        "id": number,
        "seat": seat,
        "observation": to_data(observation) if to_data is not None else encode(observation),
        "legal": [game.format_action(action) for action in legal_actions],
        "narration": [str(event) for event in getattr(observation, "events", ())],
        "time_limit": time_limit,
    }


def _end_message(outcome: Any) -> dict[str, Any]:
    if outcome is None:
        return {"type": "end", "outcome": None}
    scores = getattr(outcome, "scores", None)
    return {
        "type": "end",
        "outcome": {
            "label": outcome.label,
            "returns": list(outcome.returns),
            "scores": None if scores is None else list(scores),
            "winners": list(getattr(outcome, "winners", ())),
        },
    }


# ------------------------------------------------------------------ the pipe
class _Channel:
    """A running engine: its process, and threads that read its output and write its
    input, so that the caller waits for an answer with a time limit and never blocks on
    a pipe. Everything it keeps is bounded."""

    def __init__(
        self, command: Sequence[str], env: Mapping[str, str] | None, cwd: str | None
    ) -> None:
        self.command = tuple(command)
        posix = os.name == "posix"
        try:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=None if env is None else dict(env),
                cwd=cwd,
                # Its own process group, so that stopping it stops what it started too.
                start_new_session=posix,
            )
        except (OSError, ValueError) as exc:
            raise EngineError(
                f"cannot start the engine {shlex.join(self.command)}: {exc}",
                reason="start",
                command=self.command,
            ) from None
        self.lines: queue.Queue[bytes | None] = queue.Queue(maxsize=16)
        self.outbox: queue.Queue[bytes | None] = queue.Queue()
        self.closing = threading.Event()
        self.stopped = False
        self._lock = threading.Lock()
        self._stderr = bytearray()
        self.threads = [
            threading.Thread(target=target, name=f"cardcrawl-engine-{name}", daemon=True)
            for name, target in (("out", self._read), ("err", self._read_err), ("in", self._write))
        ]
        for thread in self.threads:
            thread.start()

    def _put(self, item: bytes | None) -> None:
        while not self.closing.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while not self.closing.is_set():
                line = stream.readline(MAX_LINE_BYTES + 1)
                if not line:
                    break
                self._put(line)
                if len(line) > MAX_LINE_BYTES:
                    break  # the reader refuses it; reading on would only fill memory
        except (OSError, ValueError):
            pass
        finally:
            self._put(None)

    def _read_err(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            fd = stream.fileno()
            while True:
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                with self._lock:
                    self._stderr += chunk
                    del self._stderr[:-_STDERR_KEPT]

    def _write(self) -> None:
        stream = self.proc.stdin
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while True:
                item = self.outbox.get()
                if item is None:
                    break
                stream.write(item)
                stream.flush()
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def send(self, message: Mapping[str, Any]) -> None:
        self.outbox.put(_line(message).encode("ascii"))

    def receive(self, timeout: float) -> bytes | None:
        """The next line, or ``None`` once the output has ended.

        Raises:
            queue.Empty: no line came within ``timeout`` seconds.
        """
        return self.lines.get(timeout=timeout)

    def unread(self) -> bool:
        return not self.lines.empty()

    def stderr_tail(self, wait: float = 0.0) -> str:
        """The last words of the engine's standard error; after waiting up to ``wait``
        seconds for it to be closed (so that an engine that has exited is heard out
        whatever the threads' timing, and its error message is always the same)."""
        if wait > 0:
            self.threads[1].join(timeout=wait)
        with self._lock:
            text = bytes(self._stderr).decode("utf-8", errors="replace").strip()
        return text

    def exit_code(self, wait: float) -> int | None:
        try:
            return self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float = 0.0) -> None:
        """End the engine: close its input, give it ``grace`` seconds to exit, then kill
        it and what it started; reap it. Safe to call twice, and from a finalizer."""
        if self.stopped:
            return
        self.stopped = True
        self.outbox.put(None)
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(grace)
        self._kill()
        self.closing.set()
        # Drop unread lines, so that a reader waiting to put one sees the flag.
        with contextlib.suppress(queue.Empty):
            while True:
                self.lines.get_nowait()
        for thread in self.threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        for stream in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()

    def _kill(self) -> None:
        proc = self.proc
        if os.name == "posix":
            # Its whole group: a shell script's children (a `sleep`) hold the pipes open.
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5.0)


# ------------------------------------------------------------------- the bot
_ON_ERROR = ("raise", "fallback")


def _check_seconds(name: str, value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        raise OptionsError(f"{name} is a positive number of seconds, not {value!r}")
    return float(value)


class EngineBot:
    """A bot that runs a program, an engine, to choose for its seat (the engine protocol).

    The engine is started at the first decision, greeted with ``hello`` and asked each
    decision with a ``decide`` message; it must answer within ``timeout`` seconds with
    one of the legal actions. Whatever it does, the game is never touched by a bad
    answer: a line that is not a protocol message, an action that is not legal, an
    engine that exits, or no answer in time raises an :class:`~cardcrawl.EngineError`
    (:class:`EngineTimeoutError` for the last) before any action is
    taken, and the engine is stopped. With ``on_error="fallback"`` the error is kept in
    :attr:`faults` instead, and this decision and every later one are chosen uniformly
    at random with the bot's own generator, as :class:`~cardcrawl.bots.RandomBot` would.
    To end the game instead, with the failure recorded in its result, leave
    ``on_error="raise"`` and play with ``on_bot_error="forfeit"``
    (:func:`~cardcrawl.simulate.play_game`, :func:`~cardcrawl.simulate.simulate`,
    :func:`~cardcrawl.tournament.tournament`).

    :meth:`game_over`, the bot protocol's end-of-game hook, and :meth:`close` send
    ``end`` (with the outcome, if known) and stop the engine; a bot that is
    garbage-collected, or left at the program's exit, stops its engine too.
    A pickled or copied bot restarts its engine when next asked and replays the
    decisions made so far to it, checking that it answers them alike.

    Registered as ``"engine"``: ``make_bot("engine", game, seed, command=[...])``.

    Args:
        game: the game it plays.
        seed: its seed, sent to the engine in ``hello``.
        seat: the seat it plays.
        command: the engine's command line, a sequence of strings; default: the
            environment variable ``CARDCRAWL_ENGINE`` (split as a shell would), else
            the reference engine playing the random bot (``python -m cardcrawl engine
            --bot random``).
        timeout: seconds for each answer.
        start_timeout: seconds for the engine to start and answer ``hello``.
        on_error: ``"raise"`` (the default) or ``"fallback"``.
        env: the engine's environment (default: this process's).
        cwd: the engine's working directory.

    Raises:
        OptionsError: an option is malformed.

    Examples:
        The reference engine plays the random bot over the protocol, choosing exactly
        as the random bot with the same seed does in-process:

        >>> import sys, cardcrawl
        >>> from cardcrawl.bots import make_bot
        >>> game = cardcrawl.load("mapless-house", max_turns=50)
        >>> state = game.initial_state(seed=3)
        >>> command = [sys.executable, "-m", "cardcrawl", "engine", "--bot", "random"]
        >>> with make_bot("engine", game, seed=3, command=command) as bot:
        ...     legal = game.legal_actions(state)
        ...     action = bot.choose(game, game.observe(state, 0), legal)
        >>> action == make_bot("random", game, seed=3).choose(game, None, legal)
        True
    """

    def __init__(
        self,
        game: Any,
        seed: int,
        seat: int = 0,
        *,
        command: Sequence[str] | None = None,
        timeout: float = 5.0,
        start_timeout: float = 30.0,
        on_error: str = "raise",
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        if command is None:
            command = _default_command()
        if (
            isinstance(command, (str, bytes))
            or not isinstance(command, Sequence)
            or not command
            or not all(isinstance(part, str) for part in command)
        ):
            raise OptionsError(
                f"an engine's command is a non-empty list of strings, not {command!r}"
            )
        if on_error not in _ON_ERROR:
            raise OptionsError(f"on_error is 'raise' or 'fallback', not {on_error!r}")
        self.game = game
        self.seed = seed
        self.seat = seat
        self.command: tuple[str, ...] = tuple(command)
        self.timeout = _check_seconds("timeout", timeout)
        self.start_timeout = _check_seconds("start_timeout", start_timeout)
        self.on_error = on_error
        self.env = None if env is None else dict(env)
        self.cwd = cwd
        #: The errors of the engine, kept with ``on_error="fallback"``.
        self.faults: list[EngineError] = []
        #: The name the engine gave in its ``ready`` answer, once started.
        self.engine_name: str | None = None
        self._channel: _Channel | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._rng = rng_derive(seed, seat)
        self._dead = False
        # The decisions asked so far, as sent, and the answers' action texts: what a
        # copy replays to its own engine.
        self._asked: list[dict[str, Any]] = []
        self._answers: list[str] = []

    @property
    def label(self) -> str:
        """The engine's command line, as a shell would show it."""
        return shlex.join(self.command)

    def _error(self, message: str, reason: str) -> EngineError:
        cls = EngineTimeoutError if reason == "timeout" else EngineError
        return cls(
            f"engine {self.label} (seat {self.seat}): {message}",
            reason=reason,
            command=self.command,
            seat=self.seat,
        )

    # ------------------------------------------------------------ running
    def start(self) -> None:
        """Start the engine and greet it, if it is not running; replay the decisions a
        copied bot made before it was copied.

        Raises:
            EngineError: it did not start, or did not answer ``hello`` as it should.
        """
        if self._channel is not None:
            return
        channel = _Channel(self.command, self.env, self.cwd)
        self._channel = channel
        self._finalizer = weakref.finalize(self, channel.stop, 0.2)
        try:
            channel.send(hello_message(self.game, self.seat, self.seed, self.timeout))
            ready = self._answer(channel, self.start_timeout, "hello")
            if ready.get("type") != "ready":
                raise self._error(
                    f"answered hello with {short_repr(ready)}, not a 'ready' message", "protocol"
                )
            if type(ready.get("protocol")) is not int or ready["protocol"] != ENGINE_PROTOCOL:
                raise self._error(
                    f"speaks protocol {short_repr(ready.get('protocol'))}; "
                    f"this library speaks {ENGINE_PROTOCOL}",
                    "protocol",
                )
            name = ready.get("name")
            self.engine_name = name if isinstance(name, str) else None
            for message, expected in zip(self._asked, self._answers, strict=True):
                channel.send(message)
                given = self._action_text(self._answer(channel, self.timeout, message["id"]))
                if given != expected:
                    raise self._error(
                        f"replayed decision {message['id']} was answered {given!r}, "
                        f"not {expected!r} as before: the engine does not choose alike "
                        "from the same seed, so this copy cannot go on for it",
                        "protocol",
                    )
        except EngineError:
            self._stop()
            raise

    def _stop(self, grace: float = 0.0) -> None:
        channel, self._channel = self._channel, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if channel is not None:
            channel.stop(grace)

    def close(self, outcome: Any = None) -> None:
        """Send ``end`` (with ``outcome``, the game's :class:`~cardcrawl.Outcome`, if
        given) and stop the engine, giving it a second to exit. Safe to call twice; a
        bot asked again afterwards starts a new engine and replays the game to it."""
        channel = self._channel
        if channel is not None and not channel.stopped:
            channel.send(_end_message(outcome))
            self._stop(grace=1.0)

    def game_over(self, game: Any, observation: Any, outcome: Any) -> None:
        """The bot protocol's end-of-game hook (see :class:`~cardcrawl.bots.Bot`): tell
        the engine the outcome in ``end`` (``null`` when the game stopped before its
        end) and stop it, as :meth:`close` does. :func:`~cardcrawl.simulate.play_game`,
        simulations, tournaments and ``cardcrawl play`` call it.

        Examples:
            >>> import sys, cardcrawl
            >>> from cardcrawl.bots import make_bot
            >>> game = cardcrawl.load("mapless-house", max_turns=50)
            >>> state = game.initial_state(seed=3)
            >>> command = [sys.executable, "-m", "cardcrawl", "engine", "--bot", "random"]
            >>> bot = make_bot("engine", game, seed=3, command=command)
            >>> _ = bot.choose(game, game.observe(state, 0), game.legal_actions(state))
            >>> bot.running
            True
            >>> bot.game_over(game, None, None)
            >>> bot.running
            False
        """
        self.close(outcome)

    @property
    def running(self) -> bool:
        """Whether the engine's program is running (started and not yet stopped)."""
        channel = self._channel
        return channel is not None and not channel.stopped

    def __enter__(self) -> EngineBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _answer(self, channel: _Channel, timeout: float, what: Any) -> dict[str, Any]:
        """The next message of the engine, read within ``timeout`` seconds."""
        question = "hello" if what == "hello" else f"decision {what}"
        try:
            line = channel.receive(timeout)
        except queue.Empty:
            raise self._error(
                f"gave no answer to {question} within {timeout:g} s; it has been stopped",
                "timeout",
            ) from None
        if line is None:
            code = channel.exit_code(1.0)
            said = channel.stderr_tail(wait=1.0 if code is not None else 0.0)
            status = "exited" if code is None else f"exited with code {code}"
            raise self._error(
                f"{status} before answering {question}"
                + (f"; its standard error ends: {said[-500:]}" if said else ""),
                "exited",
            )
        if len(line) > MAX_LINE_BYTES:
            raise self._error(f"sent a line longer than {MAX_LINE_BYTES} bytes", "garbage")
        try:
            data = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            raise self._error(
                f"answered {question} with a line that is not JSON: {short_repr(line)}",
                "garbage",
            ) from None
        if not isinstance(data, dict):
            raise self._error(
                f"answered {question} with {short_repr(data)}, not a JSON object", "garbage"
            )
        if what != "hello":
            if data.get("type", "action") != "action":
                raise self._error(
                    f"answered {question} with a {short_repr(data.get('type'))} message, "
                    "not an action",
                    "protocol",
                )
            if "id" in data and (type(data["id"]) is not int or data["id"] != what):
                raise self._error(
                    f"answered {question} with id {short_repr(data['id'])}", "protocol"
                )
        return data

    def _action_text(self, data: dict[str, Any]) -> str:
        text = data.get("action")
        if not isinstance(text, str):
            raise self._error(
                f"answered with {short_repr(data)}, which has no action text", "protocol"
            )
        return text

    # ----------------------------------------------------------- deciding
    def choose(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """The engine's choice among ``legal_actions``, asked with the observation.

        Raises:
            EngineError: the engine failed (unless ``on_error="fallback"``); nothing
                was chosen and the engine has been stopped.
        """
        if self._dead:
            return self._fallback(legal_actions)
        try:
            return self._ask(game, observation, legal_actions)
        except EngineError as error:
            self._stop()
            if self.on_error == "raise":
                raise
            self.faults.append(error)
            self._dead = True
            return self._fallback(legal_actions)

    def _ask(self, game: Any, observation: Any, legal_actions: Sequence[Any]) -> Any:
        self.start()
        channel = self._channel
        assert channel is not None
        if channel.unread():
            raise self._error("sent a line nobody asked for", "protocol")
        number = len(self._asked) + 1
        message = decide_message(
            game,
            observation,
            legal_actions,
            seat=self.seat,
            number=number,
            time_limit=self.timeout,
        )
        channel.send(message)
        text = self._action_text(self._answer(channel, self.timeout, number))
        action = _legal_named(game, text, legal_actions)
        if action is None:
            shown = ", ".join(game.format_action(a) for a in legal_actions[:8])
            more = ", ..." if len(legal_actions) > 8 else ""
            raise self._error(
                f"answered decision {number} with {short_repr(text)}, which is not a legal "
                f"action; legal: {shown}{more}",
                "illegal",
            )
        self._asked.append(message)
        self._answers.append(text)
        return action

    def _fallback(self, legal_actions: Sequence[Any]) -> Any:
        self._rng, index = rng_below(self._rng, len(legal_actions))
        return legal_actions[index]

    @classmethod
    def factory(cls, **options: Any) -> Callable[[Any, int, int], EngineBot]:
        """A bot factory with these options, named ``"engine"``: for :func:`simulate`
        (it pickles, so it goes to worker processes too) and anywhere a factory goes.

        Args:
            **options: the keyword arguments of :class:`EngineBot`.

        Returns:
            ``factory(game, seed, seat)``, an engine bot with the options.

        Examples:
            >>> import cardcrawl
            >>> from cardcrawl.bots import EngineBot
            >>> factory = EngineBot.factory(command=["my-engine"], timeout=2)
            >>> factory.__name__
            'engine'
            >>> factory(cardcrawl.load("mapless-house"), 1, 0).timeout
            2.0
        """
        return _EngineFactory(cls, options)

    # ----------------------------------------------------------- copying
    def __reduce__(self) -> tuple[Any, ...]:
        # The running program is not data: a copy starts its own and replays to it.
        options = {
            "command": self.command,
            "timeout": self.timeout,
            "start_timeout": self.start_timeout,
            "on_error": self.on_error,
            "env": self.env,
            "cwd": self.cwd,
        }
        kept = {
            "faults": list(self.faults),
            "_rng": self._rng,
            "_dead": self._dead,
            "_asked": list(self._asked),
            "_answers": list(self._answers),
        }
        return (_restored, (type(self), self.game, self.seed, self.seat, options, kept))


def _restored(
    cls: type[EngineBot],
    game: Any,
    seed: int,
    seat: int,
    options: dict[str, Any],
    kept: dict[str, Any],
) -> EngineBot:
    bot = cls(game, seed, seat, **options)
    vars(bot).update(kept)
    return bot


class _EngineFactory:
    """``EngineBot.factory(...)``: picklable, and named ``engine`` in results."""

    def __init__(self, cls: type[EngineBot], options: dict[str, Any]) -> None:
        self.cls = cls
        self.options = dict(options)

    @property
    def __name__(self) -> str:  # the label that simulate's results show
        return "engine"

    def __call__(self, game: Any, seed: int, seat: int = 0) -> EngineBot:
        return self.cls(game, seed, seat, **self.options)

    def __repr__(self) -> str:
        return f"EngineBot.factory(**{self.options!r})"


def _legal_named(game: Any, text: str, legal_actions: Sequence[Any]) -> Any:
    """The legal action that ``text`` names (its text form, or a text parsing to it)."""
    for action in legal_actions:
        if game.format_action(action) == text:
            return action
    try:
        parsed = game.parse_action(text)
    except (ParseError, ValueError, TypeError):
        return None
    for action in legal_actions:
        if action == parsed:
            return action
    return None


# -------------------------------------------------------- the engine's side
def _read_message(stdin: TextIO) -> dict[str, Any] | None:
    line = stdin.readline(MAX_LINE_BYTES + 1)
    if not line:
        return None
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise EngineError(
            f"the library sent a line that is not JSON: {short_repr(line)}", reason="garbage"
        ) from None
    if not isinstance(data, dict):
        raise EngineError(f"the library sent {short_repr(data)}, not an object", reason="garbage")
    return data


def serve_engine(
    bot: str | Callable[..., Any],
    stdin: TextIO,
    stdout: TextIO,
    *,
    seed: int | None = None,
) -> int:
    """Play ``bot`` over the engine protocol: the reference engine, the program's side.

    Reads ``hello``, loads the game it names with its options, builds the bot for the
    seat with the seed of ``hello`` (or ``seed``), answers ``ready``, then answers each
    ``decide`` with the bot's choice, until ``end`` or the end of the input. This is
    what ``cardcrawl engine --bot NAME`` runs.

    Args:
        bot: a registered bot name, or a factory ``factory(game, seed, seat)``.
        stdin: where the library's messages are read.
        stdout: where the answers are written (and flushed), one line each.
        seed: the bot's seed, over the one the library sent.

    Returns:
        0 once the game has ended (or the input has).

    Raises:
        EngineError: a message is not JSON or not what the protocol allows here.
        CardcrawlError: the game, its options or an observation do not load.

    Examples:
        >>> import io, json, cardcrawl
        >>> from cardcrawl.bots import serve_engine
        >>> game = cardcrawl.load("mapless-house")
        >>> state = game.initial_state(seed=2, stack={"narrative": ["KS"]})
        >>> hello = {"type": "hello", "protocol": 1, "game": "mapless-house", "seat": 0}
        >>> decide = {
        ...     "type": "decide",
        ...     "id": 1,
        ...     "observation": game.observation_to_data(game.observe(state, 0)),
        ...     "legal": [game.format_action(a) for a in game.legal_actions(state)],
        ... }
        >>> questions = [hello, decide, {"type": "end", "outcome": None}]
        >>> stdin = io.StringIO("".join(json.dumps(q) + "\\n" for q in questions))
        >>> stdout = io.StringIO()
        >>> serve_engine("random", stdin, stdout, seed=2)
        0
        >>> [json.loads(line)["type"] for line in stdout.getvalue().splitlines()]
        ['ready', 'action']
    """
    from cardcrawl.bots._base import make_bot
    from cardcrawl.core._registry import load

    hello = _read_message(stdin)
    if hello is None:
        return 0
    if hello.get("type") != "hello":
        raise EngineError(f"the first message is not hello: {short_repr(hello)}")
    if type(hello.get("protocol")) is not int or hello["protocol"] != ENGINE_PROTOCOL:
        raise EngineError(
            f"the library speaks protocol {short_repr(hello.get('protocol'))}; "
            f"this engine speaks {ENGINE_PROTOCOL}"
        )
    name, options, seat = hello.get("game"), hello.get("options", {}), hello.get("seat")
    if not isinstance(name, str) or not isinstance(options, dict) or type(seat) is not int:
        raise EngineError(f"hello names no game, options and seat: {short_repr(hello)}")
    game = load(name, **options)
    game.check_player(seat)
    bot_seed = seed if seed is not None else hello.get("seed", 0)
    if type(bot_seed) is not int:
        raise EngineError(f"hello has the seed {short_repr(bot_seed)}, not an integer")
    player = make_bot(bot, game, bot_seed, seat)
    label = bot if isinstance(bot, str) else getattr(bot, "__name__", "bot")

    def say(message: dict[str, Any]) -> None:
        stdout.write(_line(message))
        stdout.flush()

    say({"type": "ready", "protocol": ENGINE_PROTOCOL, "name": f"cardcrawl {label}"})
    while True:
        message = _read_message(stdin)
        if message is None or message.get("type") == "end":
            return 0
        if message.get("type") != "decide":
            raise EngineError(f"expected decide or end, not {short_repr(message)}")
        legal_texts = message.get("legal")
        if not isinstance(legal_texts, list) or not legal_texts:
            raise EngineError(f"a decide message lists no legal actions: {short_repr(message)}")
        observation = game.observation_from_data(message.get("observation"))
        legal = tuple(game.action_from_data(text) for text in legal_texts)
        number = message.get("id")
        # Echoed back, so checked first: 1e400 reads as an infinite float, which no
        # JSON line may hold.
        if number is not None and (type(number) is not int or not 0 <= number < 2**63):
            raise EngineError(
                f"a decide message's id is an integer from 0 to 2**63 - 1, not {short_repr(number)}"
            )
        action = player.choose(game, observation, legal)
        say({"type": "action", "id": number, "action": game.format_action(action)})
