// cardcrawl serve: the lobby and the table, in plain JavaScript (no build step).
// The server sends each seat only its own view; this script draws it and sends the
// actions chosen. Text from the server is always set as text, never as markup, but
// for the board, which is the library's own SVG picture.
"use strict";

const $ = (id) => document.getElementById(id);

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const answer = await fetch(path, init);
  let data = null;
  try {
    data = await answer.json();
  } catch (error) {
    data = { error: `the server answered ${answer.status}` };
  }
  if (!answer.ok) throw new Error(data && data.error ? data.error : `error ${answer.status}`);
  return data;
}

// ------------------------------------------------------------------ the lobby
function lobby() {
  const state = { games: {}, record: null, seats: [], bots: [] };
  const gameBox = $("game");
  const problem = (text) => { $("lobby-error").textContent = text || ""; };

  function readOptions() {
    const text = $("options").value.trim() || "{}";
    let options;
    try {
      options = JSON.parse(text);
    } catch (error) {
      throw new Error(`the options are not JSON: ${error.message}`);
    }
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new Error("the options are a JSON object, such as {\"max_turns\": 30}");
    }
    return options;
  }

  function drawSeats(players, bots) {
    const box = $("seats");
    const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
    box.replaceChildren();
    for (let seat = 0; seat < players; seat += 1) {
      const label = element("label", `Seat ${seat} `, { for: `seat-${seat}` });
      const select = element("select", null, { id: `seat-${seat}`, "data-seat": String(seat) });
      for (const choice of ["person", ...bots]) {
        select.append(element("option", choice === "person" ? "a person" : `the ${choice} bot`, { value: choice }));
      }
      if (before[seat] && ["person", ...bots].includes(before[seat])) select.value = before[seat];
      box.append(element("div", null, { class: "seat-choice" }));
      box.lastChild.append(label, select);
    }
  }

  async function refresh() {
    problem("");
    try {
      const body = state.record !== null ? { record: state.record } : { game: gameBox.value, options: readOptions() };
      const found = await api("POST", "/api/check", body);
      drawSeats(found.players, found.bots);
      $("start").disabled = false;
      if (state.record !== null) {
        $("record-line").textContent = `A record of ${found.game}` + (found.over ? ", already over: its replay and record are there at once." : ": play goes on from its last step.");
      }
    } catch (error) {
      $("start").disabled = true;
      problem(error.message);
    }
  }

  function describe() {
    const game = state.games[gameBox.value];
    if (!game) return;
    $("game-description").textContent = game.description + (game.base ? ` (a variant of ${game.base})` : "");
    $("options-hint").textContent = "Its options: " + JSON.stringify(game.options);
  }

  $("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    problem("");
    const seats = Array.from($("seats").querySelectorAll("select")).map((s) => s.value);
    let body;
    try {
      body = state.record !== null
        ? { record: state.record, seats }
        : { game: gameBox.value, options: readOptions(), seed: $("seed").value.trim() || null, seats };
    } catch (error) {
      problem(error.message);
      return;
    }
    try {
      const made = await api("POST", "/api/tables", body);
      showTable(made);
    } catch (error) {
      problem(error.message);
    }
  });

  function showTable(made) {
    $("table-id").textContent = made.table;
    const people = made.seats.filter((s) => s.player === "person");
    const here = (people.length ? people : made.seats.slice(0, 1))
      .map((s) => `s${s.seat}=${encodeURIComponent(s.token)}`).join("&");
    $("play-here").href = `${made.url}#${here}`;
    const list = $("seat-links");
    list.replaceChildren();
    for (const seat of made.seats) {
      const item = element("li", `Seat ${seat.seat} (${seat.player === "person" ? "a person" : `the ${seat.player} bot: watch it`}): `);
      const href = `${made.url}#s${seat.seat}=${encodeURIComponent(seat.token)}`;
      item.append(element("a", new URL(href, location.href).href, { href, class: "seat-link", "data-seat": String(seat.seat) }));
      list.append(item);
    }
    $("created").hidden = false;
  }

  gameBox.addEventListener("change", () => { describe(); refresh(); });
  $("options").addEventListener("change", refresh);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    state.record = await file.text();
    gameBox.disabled = $("options").disabled = $("seed").disabled = true;
    $("record-clear").hidden = false;
    refresh();
  });
  $("record-clear").addEventListener("click", () => {
    state.record = null;
    $("record-file").value = "";
    $("record-line").textContent = "";
    gameBox.disabled = $("options").disabled = $("seed").disabled = false;
    $("record-clear").hidden = true;
    refresh();
  });

  api("GET", "/api/games").then((data) => {
    for (const game of data.games) {
      state.games[game.name] = game;
      gameBox.append(element("option", game.name, { value: game.name }));
    }
    describe();
    return refresh();
  }).then(() => { document.body.dataset.ready = "1"; })
    .catch((error) => problem(error.message));
}

// ------------------------------------------------------------------ the table
function table() {
  const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const held = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const found = /^s(\d+)=(.+)$/.exec(part);
    if (found) held[Number(found[1])] = decodeURIComponent(found[2]);
  }
  const seats = Object.keys(held).map(Number).sort((a, b) => a - b);
  const views = {};
  let chosenCell = null;
  let shownSeat = null;
  let drawnSvg = null;
  let logKeys = [];

  const problem = (text) => {
    $("problem").hidden = !text;
    $("problem").textContent = text || "";
  };

  if (!seats.length) {
    problem("This address holds no seat: open the link the lobby gave for your seat.");
    return;
  }

  function seatName(view, number) {
    const seat = view.seats[number];
    if (!seat) return `seat ${number}`;
    if (seat.player === "person") return held[number] !== undefined ? `seat ${number} (you)` : `seat ${number}`;
    return `seat ${number} (the ${seat.player} bot)`;
  }

  function chooseView() {
    const loaded = seats.filter((s) => views[s]);
    if (!loaded.length) return null;
    // The newest news decides: the seat to play, if it is held here; else the first.
    const newest = loaded.reduce((a, b) => (views[b].version > views[a].version ? b : a));
    const current = views[newest].current;
    if (current !== null && views[current] && views[current].legal.length) return current;
    return seats.includes(shownSeat) && views[shownSeat] ? shownSeat : loaded[0];
  }

  async function act(text) {
    const seat = shownSeat;
    problem("");
    try {
      const view = await api("POST", `/api/tables/${tableId}/act`, { seat, token: held[seat], action: text });
      receive(view);
    } catch (error) {
      problem(error.message);
    }
  }

  async function undo() {
    const seat = shownSeat;
    problem("");
    try {
      receive(await api("POST", `/api/tables/${tableId}/undo`, { seat, token: held[seat] }));
    } catch (error) {
      problem(error.message);
    }
  }

  function onCell(cell, view) {
    const choices = view.legal.filter((a) => a.cell === cell);
    if (choices.length === 1) {
      act(choices[0].text);
      return;
    }
    chosenCell = chosenCell === cell ? null : cell;
    drawActions(view);
    markCells(view);
  }

  function markCells(view) {
    const board = $("board");
    const cells = new Set(view.legal.filter((a) => a.cell !== null).map((a) => a.cell));
    for (const node of board.querySelectorAll("[data-cell]")) {
      const cell = node.getAttribute("data-cell");
      node.classList.toggle("legal-target", cells.has(cell));
      node.classList.toggle("chosen", cells.has(cell) && cell === chosenCell);
    }
  }

  function drawActions(view) {
    const box = $("actions");
    box.replaceChildren();
    for (const action of view.legal) {
      const button = element("button", action.text, { type: "button", class: "action", "data-action": action.text });
      if (action.cell !== null) button.setAttribute("data-cell", action.cell);
      if (chosenCell !== null) button.classList.toggle("dim", action.cell !== chosenCell);
      button.addEventListener("click", () => act(action.text));
      box.append(button);
    }
  }

  function drawLog(view) {
    const keys = view.log.map((e) => `${e.step}|${e.action}|${e.events.join("\n")}`);
    const list = $("log");
    let same = 0;
    while (same < keys.length && same < logKeys.length && keys[same] === logKeys[same]) same += 1;
    if (same < logKeys.length) {
      // An undo took steps back: draw the story again from where it changed.
      while (list.children.length > same) list.lastChild.remove();
    }
    for (const entry of view.log.slice(same)) {
      const item = element("li", null, { "data-step": String(entry.step) });
      item.append(element("strong", `${seatName(view, entry.player)}: ${entry.action}`));
      const events = element("ul");
      for (const line of entry.events) events.append(element("li", line));
      item.append(events);
      list.append(item);
      item.scrollIntoView({ block: "nearest" });
    }
    logKeys = keys;
    const last = view.log[view.log.length - 1];
    $("latest").textContent = last ? last.events.join(" ") : "";
  }

  function draw() {
    const seat = chooseView();
    if (seat === null) return;
    if (seat !== shownSeat) chosenCell = null;
    shownSeat = seat;
    const view = views[seat];
    document.title = `${view.game} · cardcrawl`;
    $("title").textContent = view.game;
    const mine = seats.filter((s) => view.seats[s]);
    $("seat-line").textContent = `Table ${view.table} · ` + (mine.length > 1 ? `seats ${mine.join(", ")} play here; showing seat ${seat}` : `you are seat ${seat}`)
      + " · " + view.seats.map((s) => `seat ${s.seat}: ${s.player === "person" ? "a person" : `the ${s.player} bot`}`).join(", ");
    $("status").textContent = view.status;
    $("turn").textContent = view.over ? "" : (view.legal.length ? `Your move, ${seatName(view, seat)}.` : `Waiting for ${seatName(view, view.current)}…`);
    if (view.board.svg !== undefined) {
      if (drawnSvg !== view.board.svg) {
        $("board").innerHTML = view.board.svg;
        drawnSvg = view.board.svg;
      }
      $("board").hidden = false;
      $("board-text").hidden = true;
    } else {
      $("board-text").textContent = view.board.text;
      $("board-text").hidden = false;
      $("board").hidden = true;
    }
    if (chosenCell !== null && !view.legal.some((a) => a.cell === chosenCell)) chosenCell = null;
    markCells(view);
    drawActions(view);
    $("undo").hidden = !view.undo;
    drawLog(view);
    if (view.problem) problem(view.problem);
    $("ending").hidden = !view.over;
    if (view.over) {
      const query = `seat=${seat}&token=${encodeURIComponent(held[seat])}`;
      $("record-link").href = `/api/tables/${tableId}/record?${query}`;
      $("record-link").setAttribute("download", `${view.game}-${view.table}.json`);
      $("replay-link").href = `/table/${tableId}/replay?${query}`;
    }
    document.body.dataset.version = String(view.version);
    document.body.dataset.over = view.over ? "1" : "0";
    document.body.dataset.seat = String(seat);
    document.body.dataset.turn = view.legal.length ? "1" : "0";
  }

  function receive(view) {
    const old = views[view.seat];
    if (old && old.version > view.version) return;
    views[view.seat] = view;
    draw();
  }

  $("board").addEventListener("click", (event) => {
    const view = views[shownSeat];
    if (!view || !view.legal.length) return;
    // The topmost drawn thing of a legal cell under the pointer, pawns and labels aside.
    for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
      const holder = node.closest ? node.closest("[data-cell]") : null;
      if (holder && holder.classList.contains("legal-target")) {
        onCell(holder.getAttribute("data-cell"), view);
        return;
      }
    }
  });
  $("undo").addEventListener("click", undo);

  function connect(seat, delay) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?seat=${seat}&token=${encodeURIComponent(held[seat])}`;
    const socket = new WebSocket(url);
    let opened = false;
    socket.addEventListener("open", () => { opened = true; });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (!opened) {
        // Refused (a wrong token, a table gone): ask for the view to learn why.
        api("GET", `/api/tables/${tableId}/view?seat=${seat}&token=${encodeURIComponent(held[seat])}`)
          .then(() => setTimeout(() => connect(seat, Math.min(delay * 2, 8000)), delay))
          .catch((error) => problem(error.message));
        return;
      }
      setTimeout(() => connect(seat, 500), 500);
    });
  }
  for (const seat of seats) connect(seat, 500);
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.page === "lobby") lobby();
  else if (document.body.dataset.page === "table") table();
});
