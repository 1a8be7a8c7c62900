"""How fast ``simulate()`` could be in pure Python if the rules were fused into one
function: the ceiling of that idea, measured on the kernels as they are (run on demand,
never a test).

Usage:
    python benchmarks/fusion_ceiling.py [--games N] [--traced T] [--repeat R]

In the pure build each rule is a method of the game's ``Rules`` over a working
``Position``, and the rollout kernel drives them decision by decision. A fuser, a
source-to-source step, could inline every rule method the kernel reaches into one
function, with the rules' tables and bound hooks read once into locals. That saves two
things and nothing else: the Python calls from one rule function into another (frame,
arguments, return), and the reads of ``self.x`` that become local names. The work the
rules do, line by line, stays (no rule is written a second time; a hook stays a call
to the bound hook).

So this script counts, for each row of ``bench.py``'s ratio table, by tracing a few of
the kernel's games:

* the Python calls per decision that fusion would remove: calls into the rule modules
  (the game package's ``_kernel``, ``_play``, ``_position``, ``_rules`` and the core's
  generator, ``cardcrawl.core._random``) made from one of them. A call from a hook
  into a rule module stays (a hook is not inlined), and so does any call into other
  code;
* the ``self.x`` reads per decision in those modules (``LOAD_ATTR`` on the first
  argument, named ``self``);
* the bytecode instructions per decision the kernel runs;

and it times, in one run taking turns, the plain simulator, the kernel, and the kernel
with one more layer of calls: each of those rule functions wrapped in a function of
its signature that calls it (:func:`layer`), so that every removable call is made
twice. What the layer adds, per call, is what a call costs as the rules make theirs
(frame, arguments, return value); a ``self.x`` read is timed alone. The kernel's time
per decision less its calls and reads at those costs is what fusion can reach, and its
ratio to the plain simulator is set beside the issue's floor for ``simulate()``. Where
it stays under the floor, fusing the one statement cannot reach the floor: the rest of
the time is the rules' own work, which fusion keeps, instruction by instruction.

A hand-fused copy of Escape from Haydes' kernel loop (a scratch measurement, never
kept) saved what this script estimates, within the machine's noise.

Example:
    python benchmarks/fusion_ceiling.py --games 400 --traced 30 --repeat 5
"""

from __future__ import annotations

import argparse
import dis
import inspect
import platform
import sys
import timeit
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType, FrameType, FunctionType
from typing import Any

from bench import SUBJECTS, Subject, interleaved, plain_player
from budget import _kernel_runner

import cardcrawl
from cardcrawl.core._compiled import build_name

#: The floor of ``simulate()`` against the plain simulator, by row of bench.py's ratio
#: table: at most 15% below the old two-statement kernels.
FLOORS = {
    "The Mapless House": 0.90,
    "Escape from Haydes, solo": 0.89,
    "Escape from Haydes, 4 players": 0.74,
}
#: The modules of a game package whose functions a fuser would inline: the kernel, the
#: rule methods, the working position and the pure rule functions.
RULE_MODULES = ("_kernel", "_play", "_position", "_rules")
#: The core's generator, whose draws the rules call.
CORE_RULE_MODULES = ("cardcrawl.core._random",)


def rule_module(module: str, package: str) -> bool:
    """Whether a fuser would inline the functions of ``module`` (a dotted name) when it
    fuses the kernel of the game package ``package``.

    Examples:
        >>> rule_module("cardcrawl.haydes._play", "cardcrawl.haydes")
        True
        >>> rule_module("cardcrawl.haydes._game", "cardcrawl.haydes")
        False
        >>> rule_module("cardcrawl.core._random", "cardcrawl.mapless")
        True
    """
    if module in CORE_RULE_MODULES:
        return True
    head, _, tail = module.rpartition(".")
    return head == package and tail in RULE_MODULES


@dataclass
class Counts:
    """What a traced run executed: bytecode instructions, the calls a fuser would remove
    (by callee), the calls it would keep, the calls of layers, and the ``self.x`` reads
    in the rule modules."""

    instructions: int = 0
    removable: Counter[str] = field(default_factory=Counter)
    kept_calls: int = 0
    layers: int = 0  #: calls of a layer (see :func:`layer`)
    self_reads: int = 0


class Tracer:
    """A ``sys.settrace`` function that fills :class:`Counts`; ``is_rule`` tells, by a
    frame's module name, whether a fuser would inline its function.

    Examples:
        >>> class Box:
        ...     def __init__(self):
        ...         self.size = 2
        ...     def area(self):
        ...         return self.size * self.size
        >>> box = Box()
        >>> tracer = Tracer(lambda module: module == __name__)
        >>> tracer.run(lambda: box.area() + box.area())
        8
        >>> tracer.counts.removable[f"{__name__}.Box.area"], tracer.counts.self_reads
        (2, 4)
    """

    def __init__(self, is_rule: Callable[[str], bool]) -> None:
        self.is_rule = is_rule
        self.counts = Counts()
        self._rule: dict[CodeType, bool] = {}
        self._reads: dict[CodeType, frozenset[int]] = {}

    def run(self, play: Callable[[], Any]) -> Any:
        """``play()`` traced; its result."""
        before = sys.gettrace()
        sys.settrace(self._global)
        try:
            return play()
        finally:
            sys.settrace(before)

    def _is_rule(self, frame: FrameType) -> bool:
        code = frame.f_code
        known = self._rule.get(code)
        if known is None:
            known = self._rule[code] = self.is_rule(str(frame.f_globals.get("__name__", "")))
        return known

    def _global(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call":
            return None
        counts = self.counts
        if frame.f_globals.get("__name__") == LAYER:
            counts.layers += 1
        rule = self._is_rule(frame)
        caller = frame.f_back
        if rule and caller is not None and self._is_rule(caller):
            code = frame.f_code
            # A method's class is in its name from Python 3.11 on (layered needs it).
            name = getattr(code, "co_qualname", code.co_name)
            counts.removable[f"{frame.f_globals.get('__name__')}.{name}"] += 1
        else:
            counts.kept_calls += 1
        frame.f_trace_lines = False
        frame.f_trace_opcodes = True
        return self._rule_local if rule else self._local

    def _local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            self.counts.instructions += 1
        return self._local

    def _rule_local(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            counts = self.counts
            counts.instructions += 1
            code = frame.f_code
            reads = self._reads.get(code)
            if reads is None:
                reads = self._reads[code] = self_reads(code)
            if frame.f_lasti in reads:
                counts.self_reads += 1
        return self._rule_local


def self_reads(code: CodeType) -> frozenset[int]:
    """The offsets of the ``self.x`` reads in ``code``: a ``LOAD_ATTR`` right after the
    load of its first argument, when that argument is named ``self``.

    Examples:
        >>> def method(self, other):
        ...     return self.a + other.b + self.c
        >>> len(self_reads(method.__code__))
        2
    """
    if code.co_argcount == 0 or code.co_varnames[0] != "self":
        return frozenset()
    found = []
    previous = None
    for instruction in dis.get_instructions(code):
        if (
            instruction.opname == "LOAD_ATTR"
            and previous is not None
            and previous.opname == "LOAD_FAST"
            and previous.argval == "self"
        ):
            found.append(instruction.offset)
        previous = instruction
    return frozenset(found)


@dataclass(frozen=True)
class Units:
    """Seconds per ``self.x`` read beyond a local's, timed alone."""

    self_read: float


_UNIT_SETUP = """
class Rules:
    def __init__(self):
        self.table = (1, 2, 3)
rules = Rules()
table = rules.table
"""


def units(repeat: int) -> Units:
    """The unit cost, the least of ``repeat`` timings, less its baseline."""
    number = 500_000

    def least(statement: str) -> float:
        return min(timeit.repeat(statement, _UNIT_SETUP, number=number, repeat=repeat)) / number

    return Units(max(least("rules.table") - least("table"), 0.0))


#: The module name of the layers :func:`layered` adds.
LAYER = "fusion_ceiling.layer"


def layer(function: FunctionType) -> FunctionType:
    """A function of ``function``'s signature that calls it with the same arguments
    and returns what it returns: one more call, made as the rules make theirs.

    Examples:
        >>> def rule(pos, code, *more, resolve=True, **named):
        ...     return pos, code, more, resolve, named
        >>> layer(rule)(1, 2, 3, resolve=False, x=4) == rule(1, 2, 3, resolve=False, x=4)
        True
        >>> layer(rule)(1, 2)
        (1, 2, (), True, {})
    """
    head, passed = [], []
    names: dict[str, Any] = {"_f": function, "__name__": LAYER}
    star = False
    for i, p in enumerate(inspect.signature(function).parameters.values()):
        default = "" if p.default is p.empty else f"=_d{i}"
        names[f"_d{i}"] = p.default
        if p.kind is p.VAR_POSITIONAL:
            head.append(f"*{p.name}")
            passed.append(f"*{p.name}")
            star = True
        elif p.kind is p.VAR_KEYWORD:
            head.append(f"**{p.name}")
            passed.append(f"**{p.name}")
        elif p.kind is p.KEYWORD_ONLY:
            if not star:
                head.append("*")
                star = True
            head.append(f"{p.name}{default}")
            passed.append(f"{p.name}={p.name}")
        else:
            if p.kind is p.POSITIONAL_ONLY:
                raise ValueError(f"{function.__qualname__}: positional-only parameters")
            head.append(f"{p.name}{default}")
            passed.append(p.name)
    exec(f"def layer({', '.join(head)}):\n    return _f({', '.join(passed)})", names)
    made: FunctionType = names["layer"]
    return made


def layered(callees: list[str]) -> list[tuple[Any, str, Any]]:
    """Put a :func:`layer` around each of ``callees`` (dotted ``module.qualname``): a
    method in its class, a module's function wherever a ``cardcrawl`` module holds it.
    The patches made, ``(owner, name, original)``, for :func:`unlayered`. A callee of
    another kind (a property, a nested function) is left as it is."""
    patches: list[tuple[Any, str, Any]] = []
    for callee in callees:
        module_name, qualname = _split(callee)
        module = sys.modules.get(module_name)
        if module is None:
            continue
        parts = qualname.split(".")
        if len(parts) == 2:
            owner = getattr(module, parts[0], None)
            raw = None if owner is None else vars(owner).get(parts[1])
            if type(raw) is FunctionType:
                setattr(owner, parts[1], layer(raw))
                patches.append((owner, parts[1], raw))
        elif len(parts) == 1:
            function = vars(module).get(parts[0])
            if type(function) is not FunctionType:
                continue
            wrapped = layer(function)
            for name, holder in list(sys.modules.items()):
                if name.startswith("cardcrawl") and vars(holder).get(parts[0]) is function:
                    setattr(holder, parts[0], wrapped)
                    patches.append((holder, parts[0], function))
    return patches


def unlayered(patches: list[tuple[Any, str, Any]]) -> None:
    """Undo :func:`layered`."""
    for owner, name, original in reversed(patches):
        setattr(owner, name, original)


def _split(callee: str) -> tuple[str, str]:
    """``module.qualname`` split where the module's name ends (the first capital or
    the last dot before a function's name)."""
    parts = callee.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in sys.modules:
            return ".".join(parts[:i]), ".".join(parts[i:])
    return callee, ""


@dataclass(frozen=True)
class Row:
    """One row: the measures (seconds per game unless named) and the traced counts, per
    decision."""

    label: str
    floor: float
    plain: float
    kernel: float
    layered: float  #: the kernel with one more layer of calls
    decisions: float  #: per game, the kernel's
    calls: float  #: removable calls per decision
    layer_calls: float  #: calls per decision through the layers
    reads: float  #: self.x reads per decision, in the rule modules
    instructions: float  #: bytecode instructions per decision, the kernel's
    top: tuple[tuple[str, float], ...]  #: the most called removable callees, per decision

    def per_call(self) -> float:
        """Seconds per call, as the kernel makes them: what a layer adds, per call."""
        extra = (self.layered - self.kernel) / self.decisions
        return max(extra, 0.0) / max(self.layer_calls, 1e-9)

    def ceiling(self, unit: Units) -> float:
        """Seconds per decision of the kernel fused, estimated: less its calls (at the
        cost a layer of them adds) and its ``self.x`` reads."""
        per = self.kernel / self.decisions
        saved = self.calls * self.per_call() + self.reads * unit.self_read
        return max(per - saved, 1e-12)

    def ratios(self, unit: Units) -> tuple[float, float]:
        """``simulate()`` against the plain simulator, per game: now, and fused."""
        return self.plain / self.kernel, self.plain / (self.ceiling(unit) * self.decisions)


def measure(subject: Subject, games: int, traced: int, repeat: int) -> Row:
    """Trace ``traced`` games of the kernel, bare and with a layer around each rule
    function it calls from another, then time ``games`` of the plain simulator, the
    kernel and the kernel with its layers, taking turns."""
    game = cardcrawl.load(subject.name, **subject.options)
    package = type(game).__module__.rpartition(".")[0]
    kernel, _ = _kernel_runner(game)
    plain = plain_player(subject.name, subject.options)
    seeds = range(1, traced + 1)
    for seed in seeds:  # warm: the tables the rules make as they first meet a case
        kernel(seed)
    tracer = Tracer(lambda module: rule_module(module, package))
    traced_decisions = tracer.run(lambda: sum(map(kernel, seeds)))
    counts = tracer.counts
    callees = list(counts.removable)
    patches = layered(callees)
    try:
        layer_tracer = Tracer(lambda module: rule_module(module, package))
        layer_decisions = layer_tracer.run(lambda: sum(map(kernel, seeds)))
    finally:
        unlayered(patches)
    assert layer_decisions == traced_decisions, "a layer changed the games"

    def with_layers() -> int:
        patches = layered(callees)
        try:
            return sum(map(kernel, timed_seeds))
        finally:
            unlayered(patches)

    timed_seeds = range(1, games + 1)
    timed = interleaved(
        {
            "plain": lambda: sum(map(plain, timed_seeds)),
            "kernel": lambda: sum(map(kernel, timed_seeds)),
            "layered": with_layers,
        },
        repeat,
    )
    per = 1 / traced_decisions
    return Row(
        label=subject.label,
        floor=FLOORS.get(subject.label, 1.0),
        plain=timed["plain"][0] / games,
        kernel=timed["kernel"][0] / games,
        layered=timed["layered"][0] / games,
        decisions=timed["kernel"][1] / games,
        calls=sum(counts.removable.values()) * per,
        layer_calls=layer_tracer.counts.layers * per,
        reads=counts.self_reads * per,
        instructions=counts.instructions * per,
        top=tuple((name, n * per) for name, n in counts.removable.most_common(8)),
    )


def report(rows: list[Row], unit: Units) -> list[str]:
    """The tables, in Markdown."""

    def us(seconds: float) -> str:
        return f"{seconds * 1e6:.2f} µs"

    lines = [
        f"A `self.x` read: {unit.self_read * 1e9:.1f} ns beyond a local's.",
        "",
        "| row | kernel per decision | calls fused away | a call | `self.x` reads "
        "| fusion saves | fused | now | fused | floor |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        per = row.kernel / row.decisions
        ceiling = row.ceiling(unit)
        now, fused = row.ratios(unit)
        lines.append(
            f"| {row.label} | {us(per)} | {row.calls:.1f} | {row.per_call() * 1e9:.0f} ns "
            f"| {row.reads:.1f} | {us(per - ceiling)} | {us(ceiling)} | {now:.2f}x "
            f"| {fused:.2f}x | {row.floor:.2f}x |"
        )
    lines += [
        "",
        "| row | instructions per decision | most called, per decision |",
        "|---|--:|---|",
    ]
    for row in rows:
        top = ", ".join(f"{name.rpartition('.')[2]} {n:.2f}" for name, n in row.top[:6])
        lines.append(f"| {row.label} | {row.instructions:.0f} | {top} |")
    lines += [
        "",
        "A call: what one more layer of the same calls adds to the kernel, per call. "
        "Fused: the kernel less its calls from rule to rule and its `self.x` reads, "
        "what inlining the one statement can save. Where that stays under the floor, "
        "fusion cannot reach it: the rest is the rules' own work, instruction by "
        "instruction.",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="timed games per row and run")
    parser.add_argument("--traced", type=int, default=30, help="traced games per row")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, the least kept")
    args = parser.parse_args(argv)
    if args.games < 1 or args.traced < 1 or args.repeat < 1:
        parser.error("--games, --traced and --repeat take a whole number of at least 1")
    if cardcrawl.compiled_modules():
        parser.error("the compiled build runs no Python bytecode to trace: use a pure install")
    rows = [measure(subject, args.games, args.traced, args.repeat) for subject in SUBJECTS]
    print(
        f"cardcrawl {cardcrawl.__version__} ({build_name()}), "
        f"{platform.python_implementation()} {platform.python_version()}; "
        f"{args.traced} traced games and {args.games} timed per row, the least CPU time "
        f"of {args.repeat} runs"
    )
    print("\n".join(report(rows, units(args.repeat))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
