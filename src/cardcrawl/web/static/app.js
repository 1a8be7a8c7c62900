// cardcrawl serve: the lobby and the table, in plain JavaScript (no build step).
// The server sends each seat only its own view, and each spectator the public one;
// this script draws it and sends the actions chosen. Text from the server is always
// set as text, never as markup, but for the board, which is the library's own SVG.
"use strict";

const $ = (id) => document.getElementById(id);

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (error) {
    throw new ApiError("the server cannot be reached; trying again…", 0);
  }
  let data = null;
  try {
    data = await answer.json();
  } catch (error) {
    data = { error: `the server answered ${answer.status}` };
  }
  if (!answer.ok) throw new ApiError(data && data.error ? data.error : `error ${answer.status}`, answer.status);
  return data;
}

// ------------------------------------------------------------------ the lobby
function lobby() {
  const state = { games: {}, record: null };
  const gameBox = $("game");
  const problem = (text) => { $("lobby-error").textContent = text || ""; };

  // The options form, built from the game's options class: numbers, switches, and
  // the rest as JSON under "More options".
  function drawOptions(game) {
    const box = $("options-form");
    const more = $("options-more");
    box.replaceChildren();
    more.replaceChildren();
    for (const field of game.form) {
      const id = `option-${field.name}`;
      const words = field.name.replace(/_/g, " ");
      let input;
      if (field.kind === "bool") {
        const label = element("label", null, { class: "check", for: id });
        input = element("input", null, { type: "checkbox", id, "data-option": field.name, "data-kind": field.kind });
        input.checked = Boolean(field.value);
        label.append(input, document.createTextNode(words));
        box.append(label);
      } else if (field.kind === "int" || field.kind === "optional-int") {
        box.append(element("label", words, { for: id }));
        input = element("input", null, { type: "number", id, step: "1", min: "0", "data-option": field.name, "data-kind": field.kind });
        if (field.value !== null) input.value = String(field.value);
        if (field.kind === "optional-int") input.placeholder = "none";
        box.append(input);
      } else {
        more.append(element("label", `${words} (JSON)`, { for: id }));
        input = element("input", null, { type: "text", id, class: "option-json", spellcheck: "false", "data-option": field.name, "data-kind": field.kind });
        input.value = JSON.stringify(field.value);
        input.dataset.initial = input.value;
        more.append(input);
      }
      input.addEventListener("change", refresh);
    }
    $("more-options").hidden = !more.children.length;
  }

  function readOptions() {
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      const name = input.dataset.option;
      const kind = input.dataset.kind;
      if (kind === "bool") options[name] = input.checked;
      else if (kind === "int" || kind === "optional-int") {
        const text = input.value.trim();
        if (text === "") {
          if (kind === "int") throw new Error(`${name.replace(/_/g, " ")} is a whole number`);
          options[name] = null;
        } else if (/^[0-9]+$/.test(text)) options[name] = Number(text);
        else throw new Error(`${name.replace(/_/g, " ")} is a whole number, not ${text}`);
      } else if (input.value !== input.dataset.initial) {
        try {
          options[name] = JSON.parse(input.value);
        } catch (error) {
          throw new Error(`${name.replace(/_/g, " ")} is not JSON: ${error.message}`);
        }
      }
    }
    return options;
  }

  function drawSeats(players, bots) {
    const box = $("seats");
    const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
    box.replaceChildren();
    const choices = [["person", "a person, here"], ["open", "a person who joins from the start page"], ...bots.map((b) => [b, `the ${b} bot`])];
    for (let seat = 0; seat < players; seat += 1) {
      const label = element("label", `Seat ${seat} `, { for: `seat-${seat}` });
      const select = element("select", null, { id: `seat-${seat}`, "data-seat": String(seat) });
      for (const [value, text] of choices) select.append(element("option", text, { value }));
      if (before[seat] && choices.some(([value]) => value === before[seat])) select.value = before[seat];
      const line = element("div", null, { class: "seat-choice" });
      line.append(label, select);
      box.append(line);
    }
  }

  // Checks may be answered out of order (the server checks them in threads): only
  // the answer to the last one asked is drawn.
  let checks = 0;
  async function refresh() {
    problem("");
    const asked = ++checks;
    try {
      const body = state.record !== null ? { record: state.record } : { game: gameBox.value, options: readOptions() };
      const found = await api("POST", "/api/check", body);
      if (asked !== checks) return;
      drawSeats(found.players, found.bots);
      $("start").disabled = false;
      if (state.record !== null) {
        $("record-line").textContent = `A record of ${found.title}` + (found.over ? ", already over: its replay and record are there at once." : ": play goes on from its last step.");
      }
    } catch (error) {
      if (asked !== checks) return;
      $("start").disabled = true;
      problem(error.message);
    }
  }

  function describe() {
    const game = state.games[gameBox.value];
    if (!game) return;
    $("game-description").textContent = game.description;
    $("game-rules").hidden = !game.rules;
    $("game-rules").href = `/rules/${encodeURIComponent(game.name)}`;
    drawOptions(game);
  }

  $("new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    problem("");
    const chosen = Array.from($("seats").querySelectorAll("select")).map((s) => s.value);
    const seats = chosen.map((c) => (c === "open" ? "person" : c));
    const open = chosen.map((c, i) => (c === "open" ? i : null)).filter((i) => i !== null);
    let body;
    try {
      body = state.record !== null
        ? { record: state.record, seats, open }
        : { game: gameBox.value, options: readOptions(), seed: $("seed").value.trim() || null, seats, open };
    } catch (error) {
      problem(error.message);
      return;
    }
    try {
      showTable(await api("POST", "/api/tables", body));
      listTables();
    } catch (error) {
      problem(error.message);
    }
  });

  function showTable(made) {
    $("table-id").textContent = `${made.table} · ${made.title}`;
    $("table-id").dataset.table = made.table;
    const held = made.seats.filter((s) => s.token !== null);
    const people = held.filter((s) => s.player === "person");
    const here = (people.length ? people : held.slice(0, 1))
      .map((s) => `s${s.seat}=${encodeURIComponent(s.token)}`).join("&");
    $("play-here").href = here ? `${made.url}#${here}` : `${made.url}#watch=${encodeURIComponent(made.watch)}`;
    const list = $("seat-links");
    list.replaceChildren();
    for (const seat of made.seats) {
      if (seat.token === null) {
        list.append(element("li", `Seat ${seat.seat}: open, for whoever takes it from the start page`));
        continue;
      }
      const item = element("li", `Seat ${seat.seat} (${seat.player === "person" ? "a person" : `the ${seat.player} bot: watch it`}): `);
      const href = `${made.url}#s${seat.seat}=${encodeURIComponent(seat.token)}`;
      item.append(element("a", new URL(href, location.href).href, { href, class: "seat-link", "data-seat": String(seat.seat) }));
      list.append(item);
    }
    const watch = `${made.url}#watch=${encodeURIComponent(made.watch)}`;
    $("watch-link").href = watch;
    $("watch-link").textContent = new URL(watch, location.href).href;
    $("created").hidden = false;
  }

  async function take(table, seat) {
    try {
      const taken = await api("POST", `/api/tables/${encodeURIComponent(table)}/join`, { seat });
      location.href = `${taken.url}#s${taken.seat}=${encodeURIComponent(taken.token)}`;
    } catch (error) {
      $("joined").textContent = error.message;
      listTables();
    }
  }

  async function listTables() {
    let found;
    try {
      found = await api("GET", "/api/tables");
    } catch (error) {
      return;
    }
    const list = $("table-list");
    list.replaceChildren();
    for (const table of found.tables) {
      const item = element("li", `${table.title} · table ${table.table} · `, { "data-table": table.table });
      const taken = table.seats.filter((s) => !s.free).map((s) => `seat ${s.seat}: ${s.player === "person" ? "a person" : `the ${s.player} bot`}`);
      if (taken.length) item.append(document.createTextNode(taken.join(", ") + " "));
      for (const seat of table.seats.filter((s) => s.free)) {
        const button = element("button", `Take seat ${seat.seat}`, { type: "button", class: "take", "data-seat": String(seat.seat) });
        button.addEventListener("click", () => take(table.table, seat.seat));
        item.append(button);
      }
      item.append(document.createTextNode(" "));
      item.append(element("a", "watch", { href: `${table.url}#watch=${encodeURIComponent(table.watch)}` }));
      list.append(item);
    }
    $("no-tables").hidden = found.tables.length > 0;
  }

  gameBox.addEventListener("change", () => { describe(); refresh(); });
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    state.record = await file.text();
    gameBox.disabled = $("seed").disabled = true;
    $("record-clear").hidden = false;
    refresh();
  });
  $("record-clear").addEventListener("click", () => {
    state.record = null;
    $("record-file").value = "";
    $("record-line").textContent = "";
    gameBox.disabled = $("seed").disabled = false;
    $("record-clear").hidden = true;
    refresh();
  });

  api("GET", "/api/games").then((data) => {
    for (const game of data.games) {
      state.games[game.name] = game;
      gameBox.append(element("option", game.label, { value: game.name }));
    }
    describe();
    return Promise.all([refresh(), listTables()]);
  }).then(() => { document.body.dataset.ready = "1"; })
    .catch((error) => problem(error.message));
  setInterval(listTables, 5000);
}

// ------------------------------------------------------------------ the table
function applyPatch(pieces, patch) {
  const out = [];
  for (const op of patch) {
    if (typeof op === "string") out.push(...op.split(">"));
    else for (let k = 0; k < op[1]; k += 1) out.push(pieces[op[0] + k]);
  }
  return out;
}

function table() {
  const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
  const held = {};
  let watch = null;
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const found = /^s(\d+)=(.+)$/.exec(part);
    if (found) held[Number(found[1])] = decodeURIComponent(found[2]);
    const watching = /^watch=(.+)$/.exec(part);
    if (watching) watch = decodeURIComponent(watching[1]);
  }
  const seats = Object.keys(held).map(Number).sort((a, b) => a - b);
  // A view per seat held here ("watch" for a spectator), each with its whole story.
  const views = {};
  const keys = seats.length ? seats : (watch !== null ? ["watch"] : []);
  let chosenCell = null;
  let shownKey = null;
  let drawnSvg = null;
  let drawnKey = null;
  let logKeys = [];
  let waitingFor = null;

  const problem = (text) => {
    $("problem").hidden = !text;
    $("problem").textContent = text || "";
  };
  const connection = (text) => {
    $("connection").hidden = !text;
    $("connection").textContent = text || "";
  };

  if (!keys.length) {
    problem("This address holds no seat: open the link the start page gave for your seat, or its spectator link.");
    return;
  }

  const query = (key) => (key === "watch"
    ? `watch=${encodeURIComponent(watch)}`
    : `seat=${key}&token=${encodeURIComponent(held[key])}`);

  function who(view, number) {
    const seat = view.seats[number];
    if (!seat) return `seat ${number}`;
    if (seat.player === "person") return held[number] !== undefined ? `seat ${number} (you)` : `seat ${number}`;
    return `seat ${number} (the ${seat.player} bot)`;
  }

  function chooseView() {
    const loaded = keys.filter((k) => views[k] && views[k].board);
    if (!loaded.length) return null;
    // The newest news decides: the seat to play, if it is held here; else the one shown.
    const newest = loaded.reduce((a, b) => (views[b].version > views[a].version ? b : a));
    const current = views[newest].current;
    if (current !== null && views[current] && views[current].board && views[current].legal.length) return current;
    return keys.includes(shownKey) && views[shownKey] && views[shownKey].board ? shownKey : loaded[0];
  }

  async function change(what, body) {
    const key = shownKey;
    const view = views[key];
    if (key === "watch" || !view) return;
    problem("");
    try {
      const answer = await api("POST", `/api/tables/${tableId}/${what}`, { seat: key, token: held[key], version: view.version, ...body });
      // The answer has no picture: the websocket brings it. Ask for the view if it is late.
      waitingFor = answer.version;
      setTimeout(() => {
        if (waitingFor !== null && (!views[key] || views[key].version < waitingFor)) {
          api("GET", `/api/tables/${tableId}/view?${query(key)}`).then(receiveWhole).catch(() => {});
        }
      }, 1500);
    } catch (error) {
      problem(error.message);
    }
  }

  function onCell(cell, view) {
    const choices = view.legal.filter((a) => a.cell === cell);
    if (choices.length === 1) {
      change("act", { action: choices[0].text });
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
      button.addEventListener("click", () => change("act", { action: action.text }));
      box.append(button);
    }
  }

  function drawPlayers(view) {
    const box = $("players");
    box.replaceChildren();
    for (const seat of view.seats) {
      const item = element("li", null, { "data-seat": String(seat.seat) });
      item.classList.toggle("current", !view.over && view.current === seat.seat);
      item.classList.toggle("mine", held[seat.seat] !== undefined);
      item.append(element("strong", `Seat ${seat.seat}`));
      const kind = seat.player === "person" ? (seat.free ? "a free seat" : "a person") : `the ${seat.player} bot`;
      const mark = !view.over && view.current === seat.seat ? " · to play" : "";
      item.append(element("span", kind + mark, { class: "who" }));
      box.append(item);
    }
  }

  function drawTakeback(view) {
    const info = view.takeback || { can_ask: false, asked: null };
    $("takeback-ask").hidden = !info.can_ask;
    const asked = info.asked;
    $("takeback").hidden = asked === null;
    if (asked === null) return;
    const mine = typeof shownKey === "number";
    const askedHere = mine && asked.seat === shownKey;
    const toAnswer = mine && asked.waiting.includes(shownKey);
    const waiting = asked.waiting.map((s) => `seat ${s}`).join(", ");
    $("takeback-text").textContent = askedHere
      ? `You asked to take back ${asked.actions.join(", ")}; waiting for ${waiting} to accept.`
      : `${who(view, asked.seat)} asks to take back ${asked.actions.join(", ")}.`
        + (toAnswer ? " Do you accept?" : (waiting ? ` Waiting for ${waiting}.` : ""));
    $("takeback-accept").hidden = !toAnswer;
    $("takeback-refuse").hidden = !(toAnswer || askedHere);
    $("takeback-refuse").textContent = askedHere ? "Withdraw" : "Refuse";
  }

  function drawLog(view) {
    const keysNow = view.log.map((e) => `${e.step}|${e.action}|${e.events.join("\n")}`);
    const list = $("log");
    let same = 0;
    while (same < keysNow.length && same < logKeys.length && keysNow[same] === logKeys[same]) same += 1;
    // An undo or a take-back took steps back: the story is told again from there.
    while (list.children.length > same) list.lastChild.remove();
    for (const entry of view.log.slice(same)) {
      const item = element("li", null, { "data-step": String(entry.step) });
      item.append(element("strong", `${who(view, entry.player)}: ${entry.action}`));
      const events = element("ul");
      for (const line of entry.events) events.append(element("li", line));
      item.append(events);
      list.append(item);
      item.scrollIntoView({ block: "nearest" });
    }
    logKeys = keysNow;
    const last = view.log[view.log.length - 1];
    $("latest").textContent = last ? last.events.join(" ") : "";
  }

  function draw() {
    const key = chooseView();
    if (key === null) return;
    if (key !== shownKey) chosenCell = null;
    shownKey = key;
    const view = views[key];
    document.title = `${view.title} · cardcrawl`;
    $("title").textContent = view.title;
    const mine = seats.filter((s) => view.seats[s]);
    const role = key === "watch" ? "you are watching" : (mine.length > 1 ? `seats ${mine.join(", ")} play here; showing seat ${key}` : `you are seat ${key}`);
    $("seat-line").textContent = `Table ${view.table} · ${role}`;
    if (view.rules) {
      $("rules-link").href = view.rules;
      $("rules-link").hidden = false;
    }
    drawPlayers(view);
    $("status").textContent = view.status;
    const turn = $("turn");
    turn.classList.toggle("yours", Boolean(view.legal.length));
    turn.classList.toggle("over", view.over);
    turn.textContent = view.over ? view.status : (view.legal.length ? `Your move, ${who(view, key)}.` : (view.current === null ? "" : `Waiting for ${who(view, view.current)}…`));
    if (view.board.svg !== undefined) {
      if (drawnSvg !== view.board.svg || drawnKey !== key) {
        $("board").innerHTML = view.board.svg;
        drawnSvg = view.board.svg;
        drawnKey = key;
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
    drawTakeback(view);
    drawLog(view);
    if (view.problem) problem(view.problem);
    $("ending").hidden = !view.over;
    if (view.over) {
      $("record-link").href = `/api/tables/${tableId}/record?${query(key)}`;
      $("record-link").setAttribute("download", `${view.game}-${view.table}.json`);
      $("replay-link").href = `/table/${tableId}/replay?${query(key)}`;
    }
    document.body.dataset.version = String(view.version);
    document.body.dataset.over = view.over ? "1" : "0";
    document.body.dataset.seat = String(key);
    document.body.dataset.turn = view.legal.length ? "1" : "0";
    if (waitingFor !== null && view.version >= waitingFor) waitingFor = null;
  }

  function store(key, view) {
    const old = views[key];
    if (old && old.version > view.version) return;
    views[key] = view;
    draw();
  }

  function receiveWhole(view) {
    store(view.seat === null ? "watch" : view.seat, view);
  }

  $("board").addEventListener("click", (event) => {
    const view = views[shownKey];
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
  $("undo").addEventListener("click", () => change("undo", {}));
  $("takeback-ask").addEventListener("click", () => change("takeback", { answer: "ask" }));
  $("takeback-accept").addEventListener("click", () => change("takeback", { answer: "accept" }));
  $("takeback-refuse").addEventListener("click", () => change("takeback", { answer: "refuse" }));

  // One websocket per seat held (or one to watch). It sends the whole view, then what
  // changed; a lost connection (a restarted server) is opened again by itself.
  function connect(key, delay) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?${query(key)}`);
    let opened = false;
    let pieces = null;
    let log = [];
    socket.addEventListener("open", () => {
      opened = true;
      connection("");
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.board && message.board.patch !== undefined) {
        pieces = applyPatch(pieces || [], message.board.patch);
        message.board = { svg: pieces.join(">") };
      } else if (message.board && message.board.svg !== undefined) {
        pieces = message.board.svg.split(">");
      }
      log = log.slice(0, message.log_from || 0).concat(message.log);
      message.log = log;
      store(key, message);
    });
    socket.addEventListener("close", () => {
      if (opened) {
        connection("The connection to the server was lost; reconnecting…");
        setTimeout(() => connect(key, 500), 300);
        return;
      }
      // Refused, or the server is away: ask for the view to learn which.
      api("GET", `/api/tables/${tableId}/view?${query(key)}`)
        .then((view) => {
          receiveWhole(view);
          setTimeout(() => connect(key, Math.min(delay * 2, 8000)), delay);
        })
        .catch((error) => {
          if (error.status === 0 || error.status >= 500) {
            connection("The server cannot be reached; reconnecting…");
            setTimeout(() => connect(key, Math.min(delay * 2, 4000)), delay);
          } else {
            problem(error.message);
          }
        });
    });
  }
  for (const key of keys) connect(key, 500);
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.page === "lobby") lobby();
  else if (document.body.dataset.page === "table") table();
});
