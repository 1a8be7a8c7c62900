"""A replay as one self-contained HTML page: step through a match in any browser.

The page needs no network: every picture (SVG), the style sheet and the script are
inlined, and no font or script is fetched. It shows, for each step, the picture of the
state, the action that made it, its events (``str(event)``) and the text render, with
previous / next buttons, a slider, and the arrow, Home and End keys. Written against
the :class:`~cardcrawl.Game` protocol, it works for every game; a game without an SVG
renderer is shown by its text render alone.

**Small.** The page does not hold one picture per step: every distinct piece of the
pictures (an SVG tag, a run of text between tags, a line of the text render) is stored
once, step 0 as a list of piece numbers, and every later step as the edits that turn
the step before into it (from :class:`difflib.SequenceMatcher`). The script rebuilds
each step's text from them, byte for byte. A 200-action game of Haydes for four weighs
a few hundred kilobytes instead of megabytes.

**A seat's view.** With ``seat=N`` the page shows what that seat could know and
nothing else: each picture and text render is drawn from
``game.determinize(state, N, seed)`` (a state the seat cannot tell from the true one,
every hidden thing in it drawn afresh from a fixed seed), each step's events are
those of ``game.observe(state, N)``, a chance step names no outcome (the events tell
what the seat saw of it), and the page does not give the match's seed.

The page is built from what a match shows of itself (``_Replayable``), so this
module imports nothing of :mod:`cardcrawl.play._match`, which imports it for
:meth:`~cardcrawl.Match.to_html`.
"""

from __future__ import annotations

import difflib
import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from cardcrawl._version import __version__
from cardcrawl.core._protocol import CHANCE
from cardcrawl.errors import OptionsError
from cardcrawl.kit._svg import find_renderer

__all__ = ["replay_html"]

# determinize() needs a seed for the hidden things it draws afresh in a seat's view;
# they are never shown, so any fixed seed will do (cardcrawl.web uses the same one).
_VIEW_SEED = 0
# The pieces a picture is cut into: each tag, and each run of text between tags.
_SVG_PIECE = re.compile(r"<[^>]*>|[^<]+")


class _Step(Protocol):
    """What the page reads of one history entry (one of ``Match.history``)."""

    @property
    def action(self) -> Any: ...

    @property
    def player(self) -> int: ...


class _Replayable(Protocol):
    """What the page reads of a match (a :class:`~cardcrawl.Match`)."""

    @property
    def game(self) -> Any: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def explicit_chance(self) -> bool: ...

    @property
    def state(self) -> Any: ...

    @property
    def states(self) -> Sequence[Any]: ...

    @property
    def history(self) -> Sequence[_Step]: ...


_STYLE = """
:root { color-scheme: light; --ink: #222; --muted: #666; --line: #d8d3c4; --accent: #2f4a86; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px 32px; color: var(--ink); background: #faf8f2;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Arial, sans-serif; }
header h1 { margin: 0 0 2px; font-size: 1.35rem; }
header p { margin: 0; color: var(--muted); }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 14px 0;
  position: sticky; top: 0; padding: 8px 0; background: #faf8f2; z-index: 1; }
#controls button { font: inherit; padding: 4px 12px; border: 1px solid var(--line);
  border-radius: 6px; background: #fff; cursor: pointer; }
#controls button:disabled { color: #aaa; cursor: default; }
#controls button:focus-visible, #slider:focus-visible { outline: 2px solid var(--accent); }
#slider { flex: 1 1 240px; min-width: 160px; accent-color: var(--accent); }
#step-label { min-width: 9em; font-variant-numeric: tabular-nums; }
main { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
#picture { margin: 0; flex: 0 1 auto; max-width: 100%; overflow: auto; }
#picture svg { display: block; max-width: 100%; height: auto; }
#story { flex: 1 1 320px; min-width: 280px; }
#action { margin: 0 0 6px; font-size: 1.05rem; }
#events { margin: 0; padding-left: 1.4em; }
#events li { margin: 2px 0; }
#events:empty::before { content: "Nothing happened."; color: var(--muted); margin-left: -1.4em; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
  overflow: auto; font: 13px/1.3 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
details { margin-top: 12px; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("steps").textContent);
  var pieces = data.pieces, steps = data.steps;
  var last = steps.length - 1;
  // Each step's picture and text: the step before it, edited (see the Python module).
  var made = {svg: [], text: []};
  function rebuilt(kind, k) {
    var frames = made[kind];
    for (var j = frames.length; j <= k; j++) {
      var numbers = j ? frames[j - 1].slice() : [];
      var edits = steps[j][kind];
      for (var e = edits.length - 1; e >= 0; e--) {
        var edit = edits[e];
        numbers.splice.apply(numbers, [edit[0], edit[1] - edit[0]].concat(edit.slice(2)));
      }
      frames.push(numbers);
    }
    return frames[k].map(function (n) { return pieces[n]; }).join("");
  }
  function $(id) { return document.getElementById(id); }
  var slider = $("slider"), picture = $("picture"), events = $("events");
  var current = Number(document.body.getAttribute("data-step"));

  function show(k) {
    k = Math.max(0, Math.min(last, Math.round(Number(k)) || 0));
    var s = steps[k], svg = rebuilt("svg", k);
    current = k;
    picture.innerHTML = svg;
    picture.hidden = !svg;
    $("action").textContent = s.action;
    events.textContent = "";
    s.events.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      events.appendChild(li);
    });
    $("text").textContent = rebuilt("text", k);
    $("status").textContent = s.status;
    slider.value = String(k);
    $("step-label").textContent = "Step " + k + " of " + last;
    $("first").disabled = $("prev").disabled = k === 0;
    $("last").disabled = $("next").disabled = k === last;
    document.body.setAttribute("data-step", String(k));
    try { history.replaceState(null, "", "#step=" + k); } catch (e) { /* file: URLs */ }
  }

  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(slider.value); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  var match = /^#step=(\\d+)$/.exec(window.location.hash);
  show(match ? Number(match[1]) : current);
})();
"""


def _script_json(data: Any) -> str:
    # JSON inside <script> must not contain "</" (it would close the element early).
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


class _Pieces:
    """The distinct pieces of text the pages's pictures are cut into, each numbered once,
    and each step's picture as the edits of the step before."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._numbers: dict[str, int] = {}
        self._before: dict[str, list[int]] = {}

    def edits(self, kind: str, parts: Sequence[str]) -> list[list[int]]:
        """The edits that turn the last ``kind`` given into ``parts``: each edit is
        ``[start, end, *numbers]``, replacing the pieces ``start:end`` of the step
        before (counted before any edit) by the pieces numbered ``numbers``."""
        after = [self._number(part) for part in parts]
        before = self._before.get(kind, [])
        self._before[kind] = after
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=True)
        return [
            [i1, i2, *after[j1:j2]]
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
        ]

    def _number(self, text: str) -> int:
        number = self._numbers.get(text)
        if number is None:
            number = self._numbers[text] = len(self.texts)
            self.texts.append(text)
        return number


def _step_data(match: _Replayable, seat: int | None = None) -> list[dict[str, Any]]:
    """Each step as the page shows it: its picture, text render, action, events and
    status, all-seeing or (with ``seat``) as that seat may know it."""
    game = match.game
    renderer = find_renderer(game)
    describe = getattr(game, "describe", None)
    steps: list[dict[str, Any]] = []
    entries = match.history
    for k, true_state in enumerate(match.states):
        if seat is None:
            state, events = true_state, true_state.events
        else:
            state = game.determinize(true_state, seat, _VIEW_SEED)
            events = getattr(game.observe(true_state, seat), "events", ())
        if k == 0:
            action = "Setup"
        else:
            entry = entries[k - 1]
            text = game.format_action(entry.action)
            if entry.player == CHANCE and seat is not None:
                action = f"Step {k}: chance"
            elif entry.player == CHANCE:
                action = f"Step {k}: chance gives {text}"
            elif game.num_players > 1:
                action = f"Step {k}: player {entry.player} plays {text}"
            else:
                action = f"Step {k}: {text}"
        outcome = game.outcome(true_state)
        if outcome is not None:
            status = f"Game over: {outcome.label}"
        elif callable(describe):
            status = f"Waiting for {describe(state)}."
        else:
            status = ""
        steps.append(
            {
                "svg": renderer(game, state) if renderer is not None else "",
                "action": action,
                "events": [str(event) for event in events],
                "text": game.render(state),
                "status": status,
            }
        )
    return steps


def _compact(steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The steps as the page stores them: the pictures and text renders as pieces and
    edits (see :class:`_Pieces`), everything else as it is."""
    pieces = _Pieces()
    compact = []
    for step in steps:
        svg, text = step["svg"], step["text"]
        compact.append(
            {
                **step,
                "svg": pieces.edits("svg", _SVG_PIECE.findall(svg)),
                "text": pieces.edits("text", text.splitlines(keepends=True)),
            }
        )
    return {"pieces": pieces.texts, "steps": compact}


def replay_html(
    match: _Replayable,
    *,
    step: int | None = None,
    title: str | None = None,
    seat: int | None = None,
    marks: Mapping[int, str] | None = None,
) -> str:
    """One self-contained HTML page that replays ``match`` step by step.

    Args:
        match: the :class:`~cardcrawl.Match` to show, such as
            ``Match.from_record(record)``.
        step: the step shown first (default 0, the initial state); a page address
            ending in ``#step=K`` opens at step K instead.
        title: the page title (default: the game's name and the seed, or in a seat's
            view the game's name and the seat).
        seat: show only what this seat could know at each step (see the module):
            no seed, pictures and texts of a state the seat cannot tell from the true
            one, the events as the seat observed them. Default: the all-seeing view.
        marks: a note for some steps (by step number), added to the heading of the
            action that made the step, such as the marks of ``cardcrawl analyze``.

    Returns:
        The HTML document. Step ``K`` shows the state after ``K`` actions.

    Raises:
        OptionsError: ``step`` is not a step of the match, or ``seat`` not a seat of
            its game.

    Examples:
        >>> import cardcrawl
        >>> match = cardcrawl.Match.start("mapless-house", seed=1)
        >>> _ = match.play("place 1,0")
        >>> page = cardcrawl.replay_html(match)
        >>> page.startswith("<!DOCTYPE html>"), page.count('id="steps"')
        (True, 1)
        >>> "seed 1" in cardcrawl.replay_html(match, seat=0)
        False
        >>> "place 1,0 (?! a note)" in cardcrawl.replay_html(match, marks={1: "?! a note"})
        True
    """
    game = match.game
    if seat is not None and not 0 <= seat < game.num_players:
        seats = (
            "the only seat is 0"
            if game.num_players == 1
            else (f"the seats are 0 to {game.num_players - 1}")
        )
        raise OptionsError(f"seat {seat} is not a seat of {game.name}: {seats}")
    steps = _step_data(match, seat)
    for k, note in (marks or {}).items():
        if 0 < k < len(steps):
            steps[k]["action"] += f" ({note})"
    last = len(steps) - 1
    start = 0 if step is None else step
    if not 0 <= start <= last:
        raise OptionsError(f"step {start} is not a step of this match: it has steps 0 to {last}")
    if seat is None:
        begun = "from a position" if match.seed is None else f"seed {match.seed}"
        page_title = title or f"{game.name}, {begun}"
        facts = [begun]
    else:
        page_title = title or f"{game.name}, seat {seat}"
        facts = [f"as seat {seat} saw it"]
    outcome = game.outcome(match.state)
    facts += [
        f"rules version {game.rules_version}",
        f"{last} actions" if last != 1 else "1 action",
    ]
    if match.explicit_chance:
        facts.append("explicit chance")
    if outcome is not None:
        facts.append(f"result: {outcome.label}")
    shown = steps[start]
    events = "".join(f"<li>{html.escape(line)}</li>" for line in shown["events"])
    e = html.escape
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cardcrawl {e(__version__)}">
<title>{e(page_title)} · cardcrawl replay</title>
<style>{_STYLE}</style>
</head>
<body data-step="{start}">
<header>
<h1>{e(page_title)}</h1>
<p>{e(" · ".join(facts))}</p>
</header>
<nav id="controls" aria-label="Replay controls">
<button id="first" type="button" title="First step (Home)">&laquo; First</button>
<button id="prev" type="button" title="Previous step (Left arrow)">&#x25C0; Previous</button>
<input id="slider" type="range" min="0" max="{last}" value="{start}" step="1" aria-label="Step">
<button id="next" type="button" title="Next step (Right arrow)">Next &#x25B6;</button>
<button id="last" type="button" title="Last step (End)">Last &raquo;</button>
<span id="step-label" aria-live="polite">Step {start} of {last}</span>
</nav>
<main>
<figure id="picture"{"" if shown["svg"] else " hidden"}>{shown["svg"]}</figure>
<section id="story">
<h2 id="action">{e(shown["action"])}</h2>
<p id="status">{e(shown["status"])}</p>
<ol id="events">{events}</ol>
<details{"" if shown["svg"] else " open"}><summary>Text picture</summary>
<pre id="text">{e(shown["text"])}</pre></details>
</section>
</main>
<script type="application/json" id="steps">{_script_json(_compact(steps))}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
