"""A replay as one self-contained HTML page: step through a match in any browser.

The page needs no network: every picture (SVG), the style sheet and the script are
inlined, and no font or script is fetched. It shows, for each step, the picture of the
state, the action that made it, its events (``str(event)``) and the text render, with
previous / next buttons, a slider, and the arrow, Home and End keys. Written against
the :class:`~cardcrawl.Game` protocol, it works for every game; a game without an SVG
renderer is shown by its text render alone.

The page is built from what a match shows of itself (``_Replayable``), so this
module imports nothing of :mod:`cardcrawl.play._match`, which imports it for
:meth:`~cardcrawl.Match.to_html`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any, Protocol

from cardcrawl._version import __version__
from cardcrawl.core._protocol import CHANCE
from cardcrawl.errors import OptionsError
from cardcrawl.kit._svg import find_renderer

__all__ = ["replay_html"]


class _Step(Protocol):
    """What the page reads of one history entry (a :class:`~cardcrawl.MatchEntry`)."""

    @property
    def action(self) -> Any: ...

    @property
    def player(self) -> int: ...


class _Replayable(Protocol):
    """What the page reads of a match (a :class:`~cardcrawl.Match`)."""

    @property
    def game(self) -> Any: ...

    @property
    def seed(self) -> int: ...

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
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var last = steps.length - 1;
  function $(id) { return document.getElementById(id); }
  var slider = $("slider"), picture = $("picture"), events = $("events");
  var current = Number(document.body.getAttribute("data-step"));

  function show(k) {
    k = Math.max(0, Math.min(last, Math.round(Number(k)) || 0));
    var s = steps[k];
    current = k;
    picture.innerHTML = s.svg || "";
    picture.hidden = !s.svg;
    $("action").textContent = s.action;
    events.textContent = "";
    s.events.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      events.appendChild(li);
    });
    $("text").textContent = s.text;
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


def _step_data(match: _Replayable) -> list[dict[str, Any]]:
    game = match.game
    renderer = find_renderer(game)
    describe = getattr(game, "describe", None)
    steps: list[dict[str, Any]] = []
    entries = match.history
    for k, state in enumerate(match.states):
        if k == 0:
            action = "Setup"
        else:
            entry = entries[k - 1]
            text = game.format_action(entry.action)
            if entry.player == CHANCE:
                action = f"Step {k}: chance gives {text}"
            elif game.num_players > 1:
                action = f"Step {k}: player {entry.player} plays {text}"
            else:
                action = f"Step {k}: {text}"
        outcome = game.outcome(state)
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
                "events": [str(event) for event in state.events],
                "text": game.render(state),
                "status": status,
            }
        )
    return steps


def replay_html(match: _Replayable, *, step: int | None = None, title: str | None = None) -> str:
    """One self-contained HTML page that replays ``match`` step by step.

    Args:
        match: the :class:`~cardcrawl.Match` to show, such as
            ``Match.from_record(record)``.
        step: the step shown first (default 0, the initial state); a page address
            ending in ``#step=K`` opens at step K instead.
        title: the page title (default: the game's name and the seed).

    Returns:
        The HTML document. Step ``K`` shows the state after ``K`` actions.

    Raises:
        OptionsError: ``step`` is not a step of the match.

    Examples:
        >>> import cardcrawl
        >>> match = cardcrawl.Match.start("mapless-house", seed=1)
        >>> _ = match.play("place 1,0")
        >>> page = cardcrawl.replay_html(match)
        >>> page.startswith("<!DOCTYPE html>"), page.count('id="steps"')
        (True, 1)
    """
    steps = _step_data(match)
    last = len(steps) - 1
    start = 0 if step is None else step
    if not 0 <= start <= last:
        raise OptionsError(f"step {start} is not a step of this match: it has steps 0 to {last}")
    game = match.game
    page_title = title or f"{game.name}, seed {match.seed}"
    outcome = game.outcome(match.state)
    facts = [
        f"seed {match.seed}",
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
<script type="application/json" id="steps">{_script_json(steps)}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""
