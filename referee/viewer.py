"""``referee view``: a whole game in one self-contained HTML page, stepped through line by line.

The page holds every position of the log (the opening, then the position after each action
line), the board of each, the events and dice of each line, the problems at their lines and
the outcome.  It needs no network: no external script, style sheet or font.

Size: a board is drawn as SVG text for every position, but most of its lines (the map itself)
are the same from one position to the next.  The page stores every distinct SVG line once and
each position as runs of line numbers, so a 500-line game costs about one map plus what
changes.  A game without a board drawer shows its text view instead.
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.core.engine import Engine, Event
from referee.core.errors import UNREADABLE_KINDS, ProblemKind, RefereeError
from referee.core.log import ActionLine, Entry, ParsedLog
from referee.core.replay import Replayer, Report
from referee.core.svg import Highlight, drawer_for, part_drawer_for

VIEW_SCHEMA = "referee-view/1"


@dataclass
class Position:
    """One step of the viewer: the board after ``line`` (0: the opening)."""

    line: int
    text: str
    board: list[int]
    """The board's SVG as runs ``[first, count, first, count, …]`` of interned line numbers."""
    state_text: str = ""


@dataclass
class _Lines:
    """Every distinct line of every board, once."""

    ids: dict[str, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    parts: dict[str, list[int]] = field(default_factory=dict)
    """The runs of each part of a board met (``core.svg.PART_DRAWERS``)."""

    def runs_of_parts(self, parts: list[str]) -> list[int]:
        """``runs`` of the text ``"\\n".join(parts) + "\\n"``, each part's runs made once:
        the same numbers, as a part met again has all its lines numbered already."""
        runs: list[int] = []
        for part in parts:
            found = self.parts.get(part)
            if found is None:
                if not part or part[-1] in _LINE_BREAKS:  # not whole lines: the long way
                    return self.runs("\n".join(parts) + "\n")
                found = self.parts[part] = self.runs(part)
            if runs and runs[-2] + runs[-1] == found[0]:
                runs[-1] += found[1]
                runs += found[2:]
            else:
                runs += found
        return runs

    def runs(self, text: str) -> list[int]:
        runs: list[int] = []
        for line in text.splitlines():
            number = self.ids.get(line)
            if number is None:
                number = self.ids[line] = len(self.lines)
                self.lines.append(line)
            if runs and runs[-2] + runs[-1] == number:
                runs[-1] += 1
            else:
                runs += [number, 1]
        return runs


_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
"""What ``str.splitlines`` breaks a line at."""

Progress = Callable[[str, int, int], None]
"""Told ``(what, done, total)`` as a long page is made: the lines replayed, then the
positions drawn (``referee view`` shows it as a progress bar on a terminal)."""


class _Recorder(Replayer):
    """A replay that keeps the position after each action line, as the line leaves it."""

    def __init__(self, log: ParsedLog, engine: Engine[Any, Any], seed: str | None,
                 progress: Progress | None = None) -> None:
        super().__init__(log, engine, seed=seed)
        self.opening: Any = None
        self.after: list[tuple[ActionLine, Any]] = []
        self.progress = progress
        self.lines = sum(1 for entry in log.entries if isinstance(entry, ActionLine))

    def _entry(self, entry: Entry) -> None:
        if isinstance(entry, ActionLine) and self.opening is None:
            # The setup lines (if any) are placed: this is the starting position.
            self.opening = self.engine.copy(self.report.state)
        super()._entry(entry)
        if isinstance(entry, ActionLine):
            self.after.append((entry, self.engine.copy(self.report.state)))
            if self.progress is not None:
                self.progress("replaying", len(self.after), self.lines)


def _events_by_line(report: Report) -> dict[int | None, tuple[str, ...]]:
    """The words of each line's events, gathered in one pass over the report."""
    found: dict[int | None, list[str]] = {}
    for item in report.events:
        found.setdefault(item.line, []).append(item.event.text)
    return {line: tuple(texts) for line, texts in found.items()}


def _facts_by_line(report: Report) -> dict[int | None, tuple[Event, ...]]:
    """The events of each line themselves (kind and data), gathered in one pass."""
    found: dict[int | None, list[Event]] = {}
    for item in report.events:
        found.setdefault(item.line, []).append(item.event)
    return {line: tuple(events) for line, events in found.items()}


def _highlight(report: Report, line: ActionLine,
               by_line: dict[int | None, tuple[str, ...]] | None = None,
               facts: dict[int | None, tuple[Event, ...]] | None = None) -> Highlight:
    events = (by_line if by_line is not None else _events_by_line(report)).get(line.number, ())
    found = (facts if facts is not None else _facts_by_line(report)).get(line.number, ())
    return Highlight(line.number, " ".join(line.text.split("#", 1)[0].split()),
                     tuple(item.command for item in line.items), events, found)


def _state_text(engine: Engine[Any, Any], state: Any) -> str:
    from rich.console import Console

    console = Console(width=100, color_system=None, record=True, file=io.StringIO())
    for renderable in engine.render(state):
        console.print(renderable)
    return console.export_text()


def view_data(log: ParsedLog, engine: Engine[Any, Any], seed: str | None = None,
              progress: Progress | None = None) -> dict[str, Any]:
    """Everything the page shows, as plain data (also what the tests read); ``progress``
    is told how far the work has come."""
    recorder = _Recorder(log, engine, seed, progress)
    report = recorder.run()
    draw = drawer_for(engine.info.id)
    draw_parts = part_drawer_for(engine.info.id)
    lines = _Lines()
    positions: list[Position] = []
    total = len(recorder.after) + 1

    def add(number: int, text: str, state: Any, highlight: Highlight | None) -> None:
        if draw_parts is not None:
            runs = lines.runs_of_parts(draw_parts(engine, state, highlight))
            positions.append(Position(number, text, runs))
        elif draw is not None:
            positions.append(Position(number, text, lines.runs(draw(engine, state, highlight))))
        else:
            positions.append(Position(number, text, [], _state_text(engine, state)))
        if progress is not None:
            progress("drawing", len(positions), max(total, len(positions)))

    if report.state is not None:
        opening = recorder.opening if recorder.opening is not None else report.state
        add(0, "opening", opening, None)
        by_line = _events_by_line(report)
        facts = _facts_by_line(report)
        for line, state in recorder.after:
            add(line.number, line.text, state, _highlight(report, line, by_line, facts))
        if recorder.after:
            # The end of the log: what the referee applied by itself after the last line.
            last_line = recorder.after[-1][0]
            final = engine.to_json(report.state)
            if final != engine.to_json(recorder.after[-1][1]):
                add(last_line.number, "(the referee's own steps at the end)", report.state,
                    _highlight(report, last_line, by_line, facts))
    events: dict[int, list[dict[str, Any]]] = {}
    for item in report.events:
        events.setdefault(item.line or 0, []).append({
            "command": item.command,
            "text": item.event.text,
            "auto": item.auto,
            "dice": [str(roll) + (f" ({roll.label})" if roll.label else "")
                     for roll in item.event.rolls],
        })
    problems: dict[int, list[dict[str, Any]]] = {}
    for problem in report.problems:
        problems.setdefault(problem.line or 0, []).append({
            "kind": str(problem.kind.value), "rule": problem.rule,
            "message": problem.message, "column": problem.column,
        })
    source_lines = []
    for entry in log.entries:
        source_lines.append({"line": entry.number, "text": entry.text})
    return {
        "schema": VIEW_SCHEMA,
        "game": engine.info.title,
        "source": log.source,
        "lines": lines.lines,
        "positions": [
            {"line": p.line, "text": p.text, "board": p.board, "state": p.state_text}
            for p in positions
        ],
        "log": source_lines,
        "events": {str(k): v for k, v in sorted(events.items())},
        "problems": {str(k): v for k, v in sorted(problems.items())},
        "outcome": report.outcome() or {},
    }


class ViewError(RefereeError):
    """A log that cannot be shown (it cannot be read)."""

    kind = ProblemKind.HEADER


@dataclass(frozen=True)
class Page:
    html: str
    positions: int
    problems: int
    exit_code: int


def view_page(log: ParsedLog, seed: str | None = None,
              progress: Progress | None = None) -> Page:
    """The page of a parsed log, with what ``referee view`` says of it."""
    from referee.games import engine_for

    if log.unreadable:
        reasons = "; ".join(p.message for p in log.problems) or "it cannot be read"
        raise ViewError(f"{log.source}: {reasons}")
    engine = engine_for(log.game or "")
    data = view_data(log, engine, seed, progress)
    problems = sum(len(v) for v in data["problems"].values())
    unreadable = any(p.kind in UNREADABLE_KINDS for p in log.problems)
    return Page(_page(data), len(data["positions"]), problems,
                2 if unreadable else (1 if problems else 0))


def view_html(log: ParsedLog, engine: Engine[Any, Any], seed: str | None = None) -> str:
    """The self-contained page."""
    return _page(view_data(log, engine, seed))


def _page(data: dict[str, Any]) -> str:
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    # Inside <script>, "</" could close the element: JSON lets it be written "<\/".
    payload = payload.replace("</", "<\\/")
    title = html.escape(f"{data['game']}: {data['source']}")
    return _PAGE.replace("{{TITLE}}", title).replace("{{DATA}}", payload)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
html, body { height: 100%; }
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #202020;
       background: #fbfaf5; display: flex; flex-direction: column; font-size: 15px; }
header { padding: 8px 14px; background: #2d3a2e; color: #fff; }
header h1 { font-size: 18px; margin: 0; }
#controls { padding: 6px 14px; display: flex; gap: 8px; align-items: center;
            border-bottom: 1px solid #ccc; flex-wrap: wrap; }
#controls button { font-size: 15px; min-width: 34px; }
#slider { flex: 1; min-width: 200px; }
main { display: flex; gap: 10px; padding: 10px; flex: 1; min-height: 0; }
#stage { flex: 3; display: flex; flex-direction: column; min-width: 0; min-height: 0; }
#caption { font-size: 15px; line-height: 1.35; padding: 2px 4px 6px; white-space: pre-wrap; }
#board { flex: 1; min-height: 0; overflow: hidden; border: 1px solid #ccc;
         background: #fff; cursor: grab; touch-action: none; position: relative; }
#board.dragging { cursor: grabbing; }
#board svg { width: 100%; height: 100%; display: block; }
#board pre { margin: 8px; font-size: 13px; overflow: auto; height: calc(100% - 16px); }
#zoom { font-size: 13px; color: #555; }
aside { flex: 2; font-size: 14px; overflow: auto; min-height: 0; }
#log { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; white-space: pre-wrap; }
#log div { padding: 0 4px; cursor: pointer; }
#log div.current { background: #ffe680; }
#log div.problem { border-left: 4px solid #c0262d; }
#log div.future { color: #999; }
.event { margin: 2px 0; }
.dice { color: #555; font-family: monospace; }
.problem-text { color: #a01010; }
#outcome { font-size: 15px; margin-top: 3px; }
</style>
</head>
<body>
<header><h1>{{TITLE}}</h1><div id="outcome"></div></header>
<div id="controls">
  <button id="first" title="the opening (Home)">|&#x25C0;</button>
  <button id="prev" title="previous line (Left)">&#x25C0;</button>
  <button id="next" title="next line (Right)">&#x25B6;</button>
  <button id="last" title="the end (End)">&#x25B6;|</button>
  <input id="slider" type="range" min="0" value="0" aria-label="position">
  <label>line <input id="jump" type="number" min="0" style="width:5em"></label>
  <button id="next-problem" title="next problem (p)">next problem</button>
  <button id="zoom-in" title="zoom in (+, or the wheel)">+</button>
  <button id="zoom-out" title="zoom out (-)">&#x2212;</button>
  <button id="fit" title="the whole board (0 or f); drag to pan">fit</button>
  <span id="zoom"></span>
  <span id="where" aria-live="polite"></span>
</div>
<main>
  <div id="stage"><div id="caption" aria-live="polite"></div><div id="board"></div></div>
  <aside>
    <h3>Line</h3>
    <div id="line-events"></div>
    <h3>Log</h3>
    <div id="log-box"><div id="log"></div></div>
  </aside>
</main>
<script id="view-data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("view-data").textContent);
const positions = data.positions;
const board = document.getElementById("board");
const slider = document.getElementById("slider");
const where = document.getElementById("where");
const lineEvents = document.getElementById("line-events");
const logBox = document.getElementById("log");
let current = 0;
slider.max = String(positions.length - 1);

function text(tag, value, cls) {
  const node = document.createElement(tag);
  node.textContent = value;
  if (cls) node.className = cls;
  return node;
}

function boardOf(position) {
  if (!position.board.length) {
    const pre = document.createElement("pre");
    pre.textContent = position.state;
    return pre;
  }
  const out = [];
  const runs = position.board;
  for (let i = 0; i < runs.length; i += 2) {
    for (let k = 0; k < runs[i + 1]; k++) out.push(data.lines[runs[i] + k]);
  }
  const doc = new DOMParser().parseFromString(out.join("\\n"), "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  // The board fills the space it has and keeps its aspect; zoom and pan move its viewBox.
  if (!svg.getAttribute("viewBox")) {
    svg.setAttribute("viewBox", "0 0 " + parseFloat(svg.getAttribute("width")) + " " +
                     parseFloat(svg.getAttribute("height")));
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  return svg;
}

// -- zoom and pan: the view is a rectangle of the board's own units, kept from one
// position to the next (every position of a game has the same board).
let view = null;     // null: the whole board
function fullView(svg) {
  const box = svg.viewBox.baseVal;
  return {x: box.x, y: box.y, w: box.width, h: box.height};
}
function applyView() {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const full = fitted || fullView(svg);
  const v = view || full;
  svg.setAttribute("viewBox", v.x + " " + v.y + " " + v.w + " " + v.h);
  document.getElementById("zoom").textContent =
    view ? Math.round(100 * full.w / v.w) + "%" : "whole board";
}
let fitted = null;   // the whole board of the current svg, before any zoom
function zoom(factor, cx, cy) {
  const svg = board.querySelector("svg");
  if (!svg || !fitted) return;
  const v = view || fitted;
  const w = Math.min(fitted.w * 1.0, Math.max(fitted.w / 20, v.w / factor));
  if (w >= fitted.w) { view = null; applyView(); return; }
  const h = v.h * (w / v.w);
  const px = cx === undefined ? 0.5 : cx, py = cy === undefined ? 0.5 : cy;
  view = {x: v.x + (v.w - w) * px, y: v.y + (v.h - h) * py, w: w, h: h};
  applyView();
}
function pointerFraction(event) {
  // Where the pointer is, as fractions of the view (the board keeps its aspect, centred).
  const svg = board.querySelector("svg");
  const rect = svg.getBoundingClientRect();
  const v = view || fitted;
  const scale = Math.min(rect.width / v.w, rect.height / v.h);
  const left = rect.left + (rect.width - v.w * scale) / 2;
  const top = rect.top + (rect.height - v.h * scale) / 2;
  return [Math.min(1, Math.max(0, (event.clientX - left) / (v.w * scale))),
          Math.min(1, Math.max(0, (event.clientY - top) / (v.h * scale))), scale];
}
board.addEventListener("wheel", (event) => {
  if (!board.querySelector("svg")) return;
  event.preventDefault();
  const [fx, fy] = pointerFraction(event);
  zoom(event.deltaY < 0 ? 1.25 : 0.8, fx, fy);
}, {passive: false});
let drag = null;
board.addEventListener("pointerdown", (event) => {
  if (!view || !board.querySelector("svg")) return;
  drag = {x: event.clientX, y: event.clientY, view: Object.assign({}, view),
          scale: pointerFraction(event)[2]};
  board.classList.add("dragging");
  board.setPointerCapture(event.pointerId);
});
board.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = (event.clientX - drag.x) / drag.scale, dy = (event.clientY - drag.y) / drag.scale;
  view = {x: drag.view.x - dx, y: drag.view.y - dy, w: drag.view.w, h: drag.view.h};
  applyView();
});
function endDrag() { drag = null; board.classList.remove("dragging"); }
board.addEventListener("pointerup", endDrag);
board.addEventListener("pointercancel", endDrag);

function captionOf(node) {
  // The board's own heading (turn, phase, the last action), as page text that reads at the
  // page's size whatever the board's scale.
  const parts = [];
  if (node.querySelectorAll) {
    for (const item of node.querySelectorAll(".heading")) {
      parts.push(item.getAttribute("data-full") || item.textContent);
    }
  }
  return parts.join("\\n");
}

const logRows = new Map();
for (const entry of data.log) {
  const row = text("div", String(entry.line).padStart(4) + "  " + entry.text);
  row.dataset.line = String(entry.line);
  if (data.problems[String(entry.line)]) row.classList.add("problem");
  row.addEventListener("click", () => jumpTo(entry.line));
  logRows.set(entry.line, row);
  logBox.appendChild(row);
}

function show(index) {
  current = Math.max(0, Math.min(positions.length - 1, index));
  const position = positions[current];
  const drawn = boardOf(position);
  board.replaceChildren(drawn);
  document.getElementById("caption").textContent = captionOf(drawn);
  if (drawn.tagName.toLowerCase() === "svg") {
    fitted = fullView(drawn);
    applyView();
  }
  slider.value = String(current);
  where.textContent = "position " + current + " of " + (positions.length - 1) +
    (position.line ? ", after line " + position.line : ", the opening");
  lineEvents.replaceChildren();
  const key = String(position.line);
  if (position.line) lineEvents.appendChild(text("div", position.text, "dice"));
  for (const event of (data.events[key] || [])) {
    const row = text("div", (event.auto ? "(referee) " : "") + event.text, "event");
    if (event.dice.length) row.appendChild(text("span", "  " + event.dice.join("; "), "dice"));
    lineEvents.appendChild(row);
  }
  for (const problem of (data.problems[key] || [])) {
    lineEvents.appendChild(text("div", "problem" + (problem.rule ? " (" + problem.rule + ")" : "") +
      ": " + problem.message, "problem-text"));
  }
  for (const [line, row] of logRows) {
    row.classList.toggle("current", line === position.line);
    row.classList.toggle("future", line > position.line);
  }
  const row = logRows.get(position.line);
  if (row) row.scrollIntoView({block: "nearest"});
}

function jumpTo(line) {
  let best = 0;
  positions.forEach((p, i) => { if (p.line <= line) best = i; });
  show(best);
}

function nextProblem() {
  const lines = Object.keys(data.problems).map(Number).sort((a, b) => a - b);
  const here = positions[current].line;
  const next = lines.find((line) => line > here);
  if (next !== undefined) jumpTo(next);
}

const outcome = data.outcome || {};
document.getElementById("outcome").textContent = outcome.result
  ? "Result: " + outcome.result + (outcome.winner ? ", " + outcome.winner + " wins" : "") +
    (outcome.reason ? " (" + outcome.reason + ")" : "")
  : "The game goes on at the end of the log.";
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(current - 1);
document.getElementById("next").onclick = () => show(current + 1);
document.getElementById("last").onclick = () => show(positions.length - 1);
document.getElementById("next-problem").onclick = nextProblem;
document.getElementById("zoom-in").onclick = () => zoom(1.25);
document.getElementById("zoom-out").onclick = () => zoom(0.8);
document.getElementById("fit").onclick = () => { view = null; applyView(); };
slider.oninput = () => show(Number(slider.value));
document.getElementById("jump").onchange = (e) => jumpTo(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "INPUT" && e.target.type === "number") return;
  if (e.key === "ArrowRight") show(current + 1);
  else if (e.key === "ArrowLeft") show(current - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(positions.length - 1);
  else if (e.key === "p") nextProblem();
  else if (e.key === "+" || e.key === "=") zoom(1.25);
  else if (e.key === "-" || e.key === "_") zoom(0.8);
  else if (e.key === "0" || e.key === "f") { view = null; applyView(); }
  else return;
  e.preventDefault();
});
show(0);
</script>
</body>
</html>
"""
