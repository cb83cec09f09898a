import { hideQuiz, wireQuiz } from "./quiz.js";
import { compareOrdering, drawPicture, wireTree } from "./tree.js";
// plies web: the page.  Plain ES module, no build step.
//
// The server is stateless: the page keeps the game (a built-in name with its options, or
// the text of a tree or GDL file) and the moves from the start, and sends them with every
// request.  The server replays and checks them (see plies/web/api.py).

import { finishBoard, markShape, paintGround, swatch } from "./board.js";

const $ = (id) => document.getElementById(id);

const ENGINE_DELAY_MS = 350; // pause between two engine moves, so a game can be watched

const app = {
  catalogue: null,
  source: "game", // "game" | "tree" | "gdl"
  moves: [],
  spec: null, // the game being played, as the requests name it (see newGame)
  view: null, // the last position the server described
  roles: [], // per player: "human" | "engine"
  paused: false,
  busy: false,
  generation: 0, // bumped by every new game or undo: stale answers are dropped
  loads: 0, // bumped by every position asked for: only the latest answer is shown
  lastDecider: 0, // the last player (not chance) to move: whose value to show at chance nodes
  lastSearch: null, // {moves, settings, extra}: the search the tree view shows
  tree: null,
  selected: null, // the cell of the piece picked on a two-click board (chess)
  promotion: "q", // what a pawn becomes
  values: null, // {moves, byMove: move -> its row of move_values, best}: the last analysis
};

// --- talking to the server -------------------------------------------------------------

// Chess numbers moves, not plies: "1. e4 e5 2. Nf3" ("1... e5" when Black moved first).
function moveNumber(v, i) {
  if (!v.board || v.board.kind !== "chess" || !v.to_move_name) return `${i + 1}.`;
  // Who moved first: the side to move now if an even number of plies were played.
  const whiteFirst = (v.to_move_name === "White") === (v.moves.length % 2 === 0);
  const ply = whiteFirst ? i : i + 1;
  if (ply % 2 === 0) return `${ply / 2 + 1}.`;
  return i === 0 ? "1..." : "";
}

async function api(path, body) {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

function gameSpec() {
  if (app.source === "tree") return { tree: $("tree-text").value, name: app.treeName || "tree" };
  if (app.source === "gdl") return { gdl: $("gdl-text").value, name: app.gdlName || "gdl" };
  const options = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const value = input.type === "checkbox" ? input.checked : input.value.trim();
    if (value !== "") options[input.dataset.option] = value;
  }
  return { game: $("game-select").value, options };
}

function searchSettings() {
  const settings = {
    algorithm: $("algorithm").value, engine: $("engine").checked, quiescence: $("quiescence").checked,
  };
  if ($("strict-cutoffs").checked && !$("strict-cutoffs").disabled) settings.strict_cutoffs = true;
  const byDepth = document.querySelector("input[name=limit]:checked").value === "depth";
  if (byDepth) settings.depth = Number.parseInt($("depth").value, 10);
  else settings.time = Number.parseFloat($("time").value);
  settings.unit = $("unit").value;
  return settings;
}

function viewpoint() {
  // At a chance node nobody is to move: report values for the last player who moved.
  return app.view && app.view.to_move !== null && app.view.to_move < 0
    ? { player: app.lastDecider } : {};
}

function request(extra = {}) {
  return { ...app.spec, moves: app.moves, ...viewer(), ...extra };
}

// Who sits at the page: a game with hidden cards is shown as this player sees it (the
// human to move, else the first human; nobody when engines play each other).
function viewer() {
  const humans = app.roles.flatMap((r, i) => (r === "human" ? [i] : []));
  if (!humans.length) return {};
  const mover = app.view ? app.view.to_move : null;
  return { viewer: humans.includes(mover) ? mover : humans[0] };
}

// --- formatting ----------------------------------------------------------------------------

function num(value) {
  if (value === null || value === undefined) return "–";
  if (value === "+inf") return "+∞";
  if (value === "-inf") return "−∞";
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toFixed(4)));
}

function short(value) {
  // A number that fits on a square: whole from 10 up, else two significant digits.
  if (typeof value !== "number") return num(value);
  return String(Math.abs(value) >= 10 ? Math.round(value) : Number(value.toPrecision(2)));
}

// A move's value on a square: "M2" for a mate in 2 ("-M1" mated), else short(value).
function shortScore(row) {
  if (row.mate !== null && row.mate !== undefined) {
    return row.mate === 0 ? short(row.value) : `${row.mate < 0 ? "-" : ""}M${Math.abs(row.mate)}`;
  }
  return short(row.value);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// --- the game panel ----------------------------------------------------------------------

function fillCatalogue() {
  const select = $("game-select");
  for (const game of app.catalogue.games) {
    select.append(el("option", { value: game.name, text: game.name }));
  }
  select.value = "tictactoe";
  for (const name of app.catalogue.algorithms) {
    $("algorithm").append(el("option", { value: name, text: name }));
  }
  const limits = app.catalogue.limits;
  $("time").max = limits.max_time;
  $("depth").max = limits.max_depth;
  $("tree-nodes").max = limits.max_tree_nodes;
  $("cap-time").textContent = num(limits.max_time);
  $("cap-nodes").textContent = limits.max_nodes.toLocaleString("en");
  fillOptions();
}

// The search a game starts with, where the server suggests one (chess: a time budget and
// engine craft, since a depth that suits tic-tac-toe runs into the server's cap).
function applyGameSearch() {
  const suggested = currentGameInfo().search || {};
  for (const kind of ["time", "depth"]) {
    if (suggested[kind] === undefined) continue;
    $(kind).value = suggested[kind];
    document.querySelector(`input[name=limit][value=${kind}]`).checked = true;
  }
  if (suggested.engine !== undefined && !$("engine").disabled) $("engine").checked = suggested.engine;
  if (suggested.quiescence !== undefined) $("quiescence").checked = suggested.quiescence;
  updateCraft();  // a suggested depth does not apply to an algorithm without one
}

function currentGameInfo() {
  return app.catalogue.games.find((g) => g.name === $("game-select").value);
}

function fillOptions() {
  const info = currentGameInfo();
  $("game-description").textContent = info.description;
  const box = $("options");
  box.replaceChildren();
  for (const option of info.options) {
    let input;
    if (option.input === "bool") {
      input = el("input", { type: "checkbox" });
      input.checked = option.default === "true";
    } else if (option.input === "choice") {
      input = el("select", {}, ...option.choices.map((c) => el("option", { value: c, text: c })));
      input.value = option.default;
    } else {
      input = el("input", { type: "text", value: option.default, size: 8 });
    }
    input.dataset.option = option.name;
    const label = option.input === "bool"
      ? el("label", { class: "check", title: option.help }, input, ` ${option.name}`)
      : el("label", { class: "field inline", title: option.help }, `${option.name} `, input);
    box.append(label);
  }
  if (!info.options.length) box.append(el("span", { class: "hint", text: "no options" }));
}

function fillRoles(players) {
  const box = $("roles");
  if (app.roles.length !== players.length) {
    app.roles = players.map((_, i) => (i === 0 ? "human" : "engine"));
  }
  box.replaceChildren();
  players.forEach((name, i) => {
    const select = el(
      "select", { "data-role": i, "aria-label": `${name} is played by` },
      el("option", { value: "human", text: "human" }),
      el("option", { value: "engine", text: "engine" }),
    );
    select.value = app.roles[i];
    select.addEventListener("change", () => {
      app.roles[i] = select.value;
      load(); // whose cards a game with hidden cards shows may have changed
    });
    box.append(el("label", { class: "field inline role" }, swatch(app.view && app.view.board, i),
      `${name} `, select));
  });
}

function setSource(source) {
  app.source = source;
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.source === source));
  }
  for (const name of ["game", "tree", "gdl"]) $(`source-${name}`).hidden = name !== source;
  // The position on the board belongs to the previous source: start from this one.
  if (source === "game" || $(`${source}-text`).value.trim()) {
    app.roles = [];
    newGame();
  }
}

function readFileInto(input, textarea, key) {
  const file = input.files[0];
  if (!file) return;
  app[key] = file.name;
  file.text().then((text) => {
    textarea.value = text;
    newGame();
  });
}

// --- the position panel ------------------------------------------------------------------

const CHANCE = -1;
const SIMULTANEOUS = -2;

function isHumanTurn() {
  const v = app.view;
  if (!v || v.terminal) return false;
  // Where every player moves at once, each human picks an own move; the engine plays
  // the others from its mixed strategy.
  if (v.to_move === SIMULTANEOUS) return app.roles.includes("human");
  return v.to_move >= 0 && app.roles[v.to_move] === "human";
}

function renderPosition() {
  const v = app.view;
  if (!v) return;
  if (app.shownMoves !== app.moves) { // a new position: a quiz was about the old one
    app.shownMoves = app.moves;
    hideQuiz();
  }
  let status;
  if (v.terminal) status = `Game over: ${v.result}`;
  else if (v.to_move === CHANCE) status = "Chance to move";
  else if (v.to_move === SIMULTANEOUS) {
    const humans = v.players.filter((_, i) => app.roles[i] === "human");
    status = humans.length
      ? `Every player moves at once: ${humans.join(" and ")}, pick your move`
      : "Every player moves at once";
  }
  else status = `${v.to_move_name} to move (${app.roles[v.to_move] || "?"})`;
  const statusBox = $("status");
  statusBox.textContent = status;
  const own = v.to_move >= 0 ? swatch(v.board, v.to_move) : null;
  if (own) statusBox.prepend(own);
  statusBox.className = v.terminal ? "status over" : "status";
  if (v.hidden) {
    statusBox.append(el("span", { class: "scores", text: ` (you see ${v.players[viewer().viewer]}'s`
      + " cards only; the engine plays by determinization)" }));
  }
  if (v.terminal) {
    const scores = v.players.map((p, i) => `${p} ${num(v.utilities[i])}`).join(", ");
    statusBox.append(el("span", { class: "scores", text: ` (${scores})` }));
  }

  renderBoard(v);
  if (app.analyzed !== undefined && app.analyzed.join("\u0000") !== v.moves.join("\u0000")) {
    $("analysis").hidden = true; // the values were of another position
    app.analyzed = undefined;
  }
  const render = $("render");
  render.textContent = v.render;
  render.hidden = v.board !== null;
  const position = $("position");
  position.hidden = !v.position;
  position.textContent = v.position ? `position: ${v.position}` : "";

  const human = isHumanTurn() && !app.busy;
  const legal = $("legal");
  legal.replaceChildren();
  if (v.own_moves) {
    // One row of own moves per human player; the engine chooses for everyone else.
    v.own_moves.forEach((moves, p) => {
      if (app.roles[p] !== "human") return;
      const row = el("span", { class: "own-moves", text: `${v.players[p]}: ` });
      for (const move of moves) {
        row.append(el("button", {
          type: "button", class: "chip", "data-move": move, "data-player": p,
          disabled: !human, onclick: () => ownMove(p, move), text: move,
        }));
      }
      legal.append(row);
    });
  } else {
    for (const move of v.legal) {
      legal.append(el("button", {
        type: "button", class: "chip", "data-move": move, disabled: !human,
        onclick: () => humanMove(move), text: move,
      }));
    }
  }
  if (v.chance) {
    legal.replaceChildren(...v.chance.map((c) => el("span", {
      class: "chip static", text: `${c.move} (${num(c.p)})`,
    })));
  }
  // A board plays every legal move by clicks; the list is for games without one.
  $("legal-wrap").hidden = v.terminal || playableBoard(v.board);

  const history = $("history");
  history.replaceChildren(...(v.shown_moves || v.moves).map((m, i) => el(
    "span", { class: "ply" }, el("span", { class: "ply-number", text: moveNumber(v, i) }), ` ${m}`,
  )));
  $("undo").disabled = app.moves.length === 0;
  $("engine-move").disabled = v.terminal || app.busy;
}

// The board is drawn from the server's generic description (plies/web/view.py): cells
// with marks (each drawn as its look says: text, a disc, a dot or a block in a colour),
// labels, and the moves a click plays: one cell (cell_moves), a column (column_moves),
// or two cells in turn, a piece and its target (from_to).  A look the stylesheet knows
// (b.kind) styles the board; any other board is drawn from its marks alone ("generic").
function renderBoard(v) {
  const box = $("board");
  box.replaceChildren();
  const b = v.board;
  if (!b) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const human = isHumanTurn() && !app.busy;
  const values = boardValues(v);
  const pairs = b.from_to;
  const sources = new Set(pairs.map((m) => m.from));
  if (!human || !sources.has(app.selected)) app.selected = null;
  const targets = new Map(); // cell -> the moves of the selected piece that end there
  for (const m of pairs) {
    if (m.from === app.selected) targets.set(m.to, [...(targets.get(m.to) || []), m]);
  }
  const bestCells = new Set();
  if (values && values.best) {
    for (const m of pairs) if (m.move === values.best) bestCells.add(m.from).add(m.to);
    b.cell_moves.forEach((m, i) => { if (m === values.best) bestCells.add(i); });
    b.column_moves.forEach((m, column) => { if (m === values.best) bestCells.add(column); });
  }
  const look = b.kind || "generic";
  const grid = el("div", { class: `grid ${look}${b.checkered ? " checkered" : ""}`, role: "grid" });
  grid.style.gridTemplateColumns = `repeat(${b.columns}, var(--cell))`;
  if (b.background) grid.style.setProperty("--ground", b.background);
  // A rotatable board (chess) is turned round when people play only the second side.
  const turned = Boolean(b.rotatable) && app.roles[1] === "human" && app.roles[0] !== "human";
  const order = b.cells.map((_, i) => i);
  if (turned) order.reverse();
  for (const i of order) {
    const mark = b.cells[i];
    const drawn = mark ? b.marks[mark] || { shape: "text", text: mark, color: "" } : null;
    const row = Math.floor(i / b.columns);
    const column = i % b.columns;
    const move = b.cell_moves.length ? b.cell_moves[i]
      : b.column_moves.length ? b.column_moves[column] : null;
    const name = b.files.length && b.ranks.length ? `${b.files[column]}${b.ranks[row]}` : null;
    const classes = ["cell", mark ? `mark-${mark}` : "empty"];
    if (drawn) classes.push(`shape-${drawn.shape}`);
    if (b.checkered) classes.push((row + column) % 2 ? "dark" : "light");
    if (b.last.includes(i)) classes.push("last");
    if (b.alert.includes(i)) classes.push("alert");
    if (i === app.selected) classes.push("selected");
    if (targets.has(i)) classes.push("target");
    if (bestCells.has(i)) classes.push("best");
    const playable = sources.has(i) || targets.has(i) || Boolean(move);
    const text = b.labels.length ? b.labels[i] : "";
    const label = [name, mark && (drawn.plain || mark), text].filter(Boolean).join(" ")
      || (b.column_moves.length ? `column ${column + 1}` : `cell ${i + 1}`);
    const cell = el("button", {
      type: "button", class: classes.join(" "), "data-cell": i, "data-column": column,
      "data-square": name, disabled: !(human && playable), "aria-label": label,
      onclick: () => clickCell(i, move, targets),
    });
    if (drawn && drawn.color) cell.style.setProperty("--mark", drawn.color);
    paintGround(cell, b, i);
    if (drawn && drawn.shape === "text") cell.append(el("span", { class: "piece", text: drawn.text }));
    else cell.append(markShape(drawn));
    if (text) cell.append(el("span", { class: "cell-label", text }));
    // The engine's value of the move a click here plays, once the position is analyzed.
    // (A column's value goes on its top cell.)
    const shown = targets.has(i) ? pickPromotion(targets.get(i)).move
      : b.cell_moves.length || row === 0 ? move : null;
    if (values && shown && values.byMove.has(shown)) {
      const row = values.byMove.get(shown);
      cell.append(el("span", { class: "cell-value", title: row.score || num(row.value),
        "data-move": shown, text: shortScore(row) }));
    }
    grid.append(cell);
  }
  box.append(b.files.length || b.ranks.length ? framed(b, grid, turned) : grid);
  if (b.caption) box.append(el("p", { class: "caption", text: b.caption }));
  const below = el("div", { class: "board-extra" });
  for (const move of b.extra_moves) {
    below.append(el("button", {
      type: "button", class: "chip", "data-move": move, disabled: !human,
      onclick: () => humanMove(move), text: move,
    }));
  }
  if (pairs.some((m) => m.promotion)) {
    const select = el("select", { id: "promotion", "aria-label": "a pawn promotes to" },
      ...[["q", "queen"], ["r", "rook"], ["b", "bishop"], ["n", "knight"]].map(
        ([value, text]) => el("option", { value, text }),
      ));
    select.value = app.promotion;
    select.addEventListener("change", () => { app.promotion = select.value; renderBoard(app.view); });
    below.append(el("label", { class: "field inline" }, "promote to ", select));
  }
  if (below.childElementCount) box.append(below);
  finishBoard(box, values);
}

// A board on which a click (or a button beside it) plays a move; the list of legal moves
// is for the games without one.
function playableBoard(b) {
  return Boolean(b) && (b.cell_moves.some((m) => m !== null) || b.column_moves.some((m) => m !== null)
    || b.from_to.length > 0 || b.extra_moves.length > 0);
}

// Rank labels left of the board and file labels below it.
function framed(b, grid, turned) {
  const side = (labels) => (turned ? [...labels].reverse() : labels);
  const ranks = el("div", { class: "ranks" }, ...side(b.ranks).map((r) => el("span", { text: r })));
  const files = el("div", { class: "files" }, ...side(b.files).map((f) => el("span", { text: f })));
  files.style.gridTemplateColumns = `repeat(${b.columns}, var(--cell))`;
  return el("div", { class: `frame ${b.kind || "generic"}` }, ranks, grid, el("span"), files);
}

function pickPromotion(moves) {
  // Several moves between two squares differ only by the promoted piece.
  return moves.find((m) => m.promotion === app.promotion) || moves[0];
}

// A click plays the move the board names there.  Where a cell also starts from-to moves
// (a piece with targets), the first click picks it and shows its targets; a click on a
// target plays that move, and a second click on the picked cell plays the cell's own move.
function clickCell(i, move, targets) {
  const b = app.view.board;
  if (targets.has(i)) {
    app.selected = null;
    humanMove(pickPromotion(targets.get(i)).move);
    return;
  }
  const source = b.from_to.some((m) => m.from === i);
  if (move && (!source || app.selected === i)) {
    app.selected = null;
    humanMove(move);
    return;
  }
  app.selected = app.selected === i ? null : i;
  renderBoard(app.view);
}

// The values of the last analysis, if it was of the position on the board.
function boardValues(v) {
  const last = app.values;
  if (!last || last.moves.join("\u0000") !== v.moves.join("\u0000")) return null;
  return last;
}

// --- playing -----------------------------------------------------------------------------

async function newGame() {
  app.generation += 1;
  // The game is read from the form once: a later edit (a tree being typed) is another
  // game, which starts with the next "New game", not in the middle of this one.
  app.spec = gameSpec();
  app.busy = false; // an engine move still in flight belongs to the old game
  app.analyzeQueued = false;
  $("analyze").textContent = "Analyze position";
  app.moves = [];
  app.stale = true; // the board on the page is the old game's until this one loads
  app.tree = null;
  app.lastSearch = null;
  app.values = null;
  app.selected = null;
  app.paused = false;
  $("pause").setAttribute("aria-pressed", "false");
  $("pause").textContent = "Pause";
  $("last-search").hidden = true;
  $("analysis").hidden = true;
  clearTree();
  await load();
}

async function load() {
  const generation = app.generation;
  // Only the latest request counts: an answer that another load, a move or a new game
  // overtook while it was on its way is dropped, whatever order the answers come in.
  app.loads += 1;
  const ticket = app.loads;
  const moves = app.moves;
  const current = () =>
    generation === app.generation && ticket === app.loads && moves === app.moves;
  showError("");
  try {
    const view = await api("state", request());
    if (!current()) return;
    setView(view);
  } catch (err) {
    if (current()) {
      showError(err.message);
      if (app.stale) clearPosition(); // never an error over another game's board
      else if (app.view) app.moves = app.view.moves; // not made: the board stays as it was
    }
    return;
  }
  step();
}

// No position: what the page showed belonged to the game before the one that failed.
function clearPosition() {
  app.view = null;
  for (const id of ["board", "render", "status", "history"]) $(id).replaceChildren();
  $("position").hidden = true;
}

// The board on the page is the position the game's moves lead to (no load on its way).
function showsCurrent() {
  return app.view !== null && app.view !== undefined && app.view.moves === app.moves;
}

function setView(view) {
  app.view = view;
  app.stale = false;
  app.moves = view.moves;
  fillRoles(view.players);
  renderPosition();
}

// A human's own move where every player moves at once: the engine completes the joint
// move (a seeded sample from its mixed strategy for each other player).
async function ownMove(player, move) {
  const v = app.view;
  if (!isHumanTurn() || app.busy || v.to_move !== SIMULTANEOUS) return;
  const own = {};
  v.own_moves.forEach((_, p) => {
    if (app.roles[p] === "human" && p !== player) own[p] = app.pendingOwn?.[p];
  });
  own[player] = move;
  const missing = v.own_moves.some((_, p) => app.roles[p] === "human" && own[p] === undefined);
  if (missing) { // another human still has to choose
    app.pendingOwn = own;
    return;
  }
  app.pendingOwn = undefined;
  const generation = app.generation;
  const settings = searchSettings();
  const body = request({ ...settings, own, seed: Math.floor(Math.random() * 2 ** 31) });
  app.busy = true;
  renderPosition();
  showError("");
  try {
    const answer = await api("move", body);
    if (generation !== app.generation) return;
    if (answer.search) {
      app.lastSearch = { moves: v.moves, settings, extra: {}, analysis: false,
        depth: answer.search.stats.depth, exact: answer.search.exact };
      showSearch(answer.search, `Last search: ${answer.search.player} mixed, played ${answer.move}`);
    }
    app.view = answer.state;
    app.moves = answer.state.moves;
  } catch (err) {
    if (generation === app.generation) showError(err.message);
  } finally {
    if (generation === app.generation) {
      app.busy = false;
      renderPosition();
      step();
    }
  }
}

async function humanMove(move) {
  // While a position loads (a new game, a move, an undo), the board on the page is not
  // the position the moves lead to: a click on it is not a move there.
  if (!showsCurrent() || !isHumanTurn() || app.busy || move === null || move === undefined) return;
  if (app.view.to_move >= 0) app.lastDecider = app.view.to_move;
  app.moves = [...app.moves, move];
  await load();
}

// Engines (and chance) move by themselves, one move per call, until a human is to move.
async function step(delay = 0) {
  const v = app.view;
  const generation = app.generation;
  if (!v || v.terminal || app.busy || app.paused) {
    if (v && !app.busy) afterMove();
    return;
  }
  const engineTurn = v.to_move === CHANCE || !isHumanTurn();
  if (!engineTurn) {
    afterMove();
    return;
  }
  if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
  // A new game (or undo) while waiting ends this game's engine moves, even when its
  // position failed to load and the old one is still on the board.
  if (app.paused || app.view !== v || app.generation !== generation) return;
  await engineMove();
  if (app.generation === generation) step(ENGINE_DELAY_MS);
}

async function engineMove() {
  const v = app.view;
  if (!v || v.terminal || app.busy) return;
  const generation = app.generation;
  const settings = searchSettings();
  const body = request({ ...settings, ...viewpoint(), seed: Math.floor(Math.random() * 2 ** 31) });
  app.busy = true;
  renderPosition();
  showError("");
  try {
    const answer = await api("move", body);
    if (generation !== app.generation) return;
    if (answer.search) {
      app.lastDecider = v.to_move;
      app.lastSearch = { moves: v.moves, settings, extra: {}, analysis: false,
        depth: answer.search.stats.depth, exact: answer.search.exact };
      showSearch(answer.search, `Last search: ${answer.mover} played ${answer.move}`);
    }
    app.view = answer.state;
    app.moves = answer.state.moves;
  } catch (err) {
    if (generation === app.generation) {
      showError(err.message);
      app.paused = true;
      $("pause").setAttribute("aria-pressed", "true");
      $("pause").textContent = "Resume";
    }
  } finally {
    if (generation === app.generation) {
      app.busy = false;
      renderPosition();
      if (app.analyzeQueued) {
        app.analyzeQueued = false;
        $("analyze").textContent = "Analyze position";
        analyze();
      }
    }
  }
}

function afterMove() {
  if ($("auto-analyze").checked && app.view && !app.view.terminal && !app.busy) analyze();
}

async function undo() {
  if (!app.moves.length) return;
  app.generation += 1;
  app.busy = false;
  let moves = app.moves.slice(0, -1);
  // Back to the last position where a human was to move (engine replies are undone too).
  if (app.roles.includes("human")) {
    const humans = new Set(app.roles.flatMap((r, i) => (r === "human" ? [i] : [])));
    while (moves.length) {
      const view = await api("state", { ...app.spec, moves });
      if (view.to_move !== null && humans.has(view.to_move)) break;
      moves = moves.slice(0, -1);
    }
  } else {
    setPaused(true);
  }
  app.moves = moves;
  await load();
}

function setPaused(paused) {
  app.paused = paused;
  $("pause").setAttribute("aria-pressed", String(paused));
  $("pause").textContent = paused ? "Resume" : "Pause";
  if (!paused) step();
}

// --- search results ----------------------------------------------------------------------

async function analyze() {
  const v = app.view;
  if (!v || v.terminal) return;
  if (app.busy) {
    // The engine is thinking: analyze the position its move leads to, as soon as it is in.
    app.analyzeQueued = true;
    $("analyze").textContent = "Analyze position (queued: after the engine's move)";
    return;
  }
  const generation = app.generation;
  const moves = app.moves;
  const settings = searchSettings();
  const extra = viewpoint();
  $("analyze").disabled = true;
  showError("");
  try {
    const answer = await api("analyze", request({ ...settings, ...extra }));
    if (generation !== app.generation || moves !== app.moves) return;
    app.lastSearch = { moves, settings, extra, analysis: true,
      depth: answer.search.stats.depth, exact: answer.search.exact,
      nodes: answer.search.stats.nodes };
    showSearch(answer.search, `Analysis: ${answer.search.to_move || "chance"} to move`);
    if (answer.strategies) { // no pure move is best: the mixed strategies are the answer
      $("r-move").textContent = "none alone: play the mixed strategy below";
      $("r-pv").textContent = "–";
      showStrategies(answer.strategies);
    } else showValues(answer.search);
    app.analyzed = moves;
    app.values = { moves, best: answer.strategies ? null : answer.search.action,
      byMove: new Map(answer.search.move_values.map((r) => [r.move, r])) };
    renderBoard(app.view);
  } catch (err) {
    showError(err.message);
  } finally {
    $("analyze").disabled = false;
  }
}

function showSearch(search, title) {
  $("last-search").hidden = false;
  $("last-title").textContent = title;
  $("r-move").textContent = search.action || "none";
  const kind = search.exact ? "exact" : "heuristic";
  const early = search.stopped_early ? ", stopped early by the server's cap" : "";
  $("r-value-label").textContent = `value for ${search.player}`;
  $("r-value").textContent = `${search.score || num(search.value)} (${kind}, ${search.algorithm}`
    + `${search.engine ? " + engine craft" : ""}${search.quiescence ? " + quiescence" : ""}${early})`;
  $("r-pv").replaceChildren(...search.pv.map((m) => el("span", { class: "chip static", text: m })));
  if (!search.pv.length) $("r-pv").textContent = "–";
  const s = search.stats;
  const cells = [
    ["nodes", s.nodes.toLocaleString("en")], ["leaves", s.leaves.toLocaleString("en")],
    ["evals", s.evals.toLocaleString("en")], ["cutoffs", s.cutoffs.toLocaleString("en")],
    ["tt hits", s.tt_hits.toLocaleString("en")], ["depth", String(s.depth)],
    ["seldepth", String(s.seldepth)], ["time", `${s.elapsed.toFixed(3)} s`], ["nodes/s", Math.round(s.nps).toLocaleString("en")],
  ];
  if (s.quiescence_nodes !== undefined) {
    cells.splice(1, 0, ["q nodes", s.quiescence_nodes.toLocaleString("en")]);
  }
  // Five to a row: a card is too narrow for nine columns of numbers.
  const rows = [];
  for (let i = 0; i < cells.length; i += 5) {
    const chunk = cells.slice(i, i + 5);
    rows.push(
      el("tr", {}, ...chunk.map(([k]) => el("th", { text: k }))),
      el("tr", {}, ...chunk.map(([k, v]) => el("td", { "data-stat": k, text: v }))),
    );
  }
  $("r-stats").replaceChildren(...rows);
}

// Where everyone moves at once there is no best move: each player's optimal mixed
// strategy (the probability of every move) and the value it secures, whatever the others do.
function showStrategies(strategies) {
  $("analysis").hidden = false;
  $("analysis-title").textContent = "Mixed strategies: everyone moves at once";
  const rows = [];
  for (const s of strategies) {
    rows.push(el("tr", { class: "strategy-head" },
      el("th", { text: s.player }),
      el("th", { class: "num", text: "probability" }),
      el("th", { text: `secures ${num(s.value)}${s.exact ? "" : " (heuristic)"}` }),
      el("th", { text: "" })));
    for (const m of s.strategy) {
      const bar = el("span", { class: "bar good" });
      bar.style.width = `${Math.max(100 * m.probability, 0.6)}%`;
      bar.style.left = "0%";
      rows.push(el("tr", { "data-move": m.move, "data-player": s.player },
        el("td", { text: m.move }),
        el("td", { class: "num", text: `${(100 * m.probability).toFixed(1)}%` }),
        el("td", { class: "barcell" }, el("span", { class: "track" }, bar)),
        el("td", { class: "tagcell" })));
    }
  }
  $("values").replaceChildren(...rows);
}

function showValues(search) {
  $("analysis").hidden = false;
  $("analysis-title").textContent = `Value of every move for ${search.player}`;
  const rows = search.move_values;
  const table = $("values");
  if (!rows.length) {
    table.replaceChildren(el("tr", {}, el("td", { text: "no moves to compare here" })));
    return;
  }
  // A mate is a full bar: it would dwarf every other value on the scale.
  const mated = (r) => r.mate !== null && r.mate !== undefined;
  const finite = rows.filter((r) => !mated(r)).map((r) => r.value)
    .filter((x) => typeof x === "number");
  const scale = Math.max(...finite.map(Math.abs), 0) || 1;
  const human = isHumanTurn();
  table.replaceChildren(
    el("tr", {}, el("th", { text: "move" }), el("th", { class: "num", text: "value" }),
      el("th", { text: "" }), el("th", { text: "" })),
    ...rows.map((row) => {
      const best = row.move === search.action;
      // A bar from the middle: right and green for a gain, left and red for a loss.
      const high = mated(row) ? row.mate > 0 || (row.mate === 0 && row.value > 0)
        : row.value === "+inf";
      const value = typeof row.value === "number" && !mated(row) ? row.value : high ? scale : -scale;
      const bar = el("span", { class: `bar ${value > 0 ? "good" : value < 0 ? "bad" : "even"}` });
      bar.style.width = `${Math.max((50 * Math.abs(value)) / scale, 0.6)}%`;
      bar.style.left = value < 0 ? `${50 - (50 * Math.abs(value)) / scale}%` : "50%";
      const moveCell = human
        ? el("td", {}, el("button", {
          type: "button", class: "chip", text: row.move, onclick: () => humanMove(row.move),
        }))
        : el("td", { text: row.move });
      return el(
        "tr", { class: best ? "best" : null, "data-move": row.move },
        moveCell,
        el("td", { class: "num", text: row.score || num(row.value) }),
        el("td", { class: "barcell" }, el("span", { class: "track" }, bar)),
        el("td", { class: "tagcell" }, best ? el("span", { class: "tag", text: "best" }) : null),
      );
    }),
  );
}

// --- the tree view -----------------------------------------------------------------------

function clearTree() {
  $("tree").replaceChildren();
  $("tree-legend").hidden = true;
  $("tree-picture").hidden = true;
  $("tree-tools").hidden = true;
  $("tree-note").hidden = true;
  $("ordering").hidden = true;
  $("tree-step-text").textContent = "";
  $("tree-summary").textContent =
    "Search a position first (Analyze, or let the engine move); then show its tree.";
}

async function showTree() {
  const last = app.lastSearch;
  if (!last) {
    $("tree-summary").textContent = "No search yet: analyze the position or let the engine move.";
    return;
  }
  const caps = app.catalogue.capabilities[last.settings.algorithm];
  if (caps && !caps.traceable) {
    const traceable = Object.keys(app.catalogue.capabilities)
      .filter((name) => app.catalogue.capabilities[name].traceable);
    $("tree-summary").textContent = `${last.settings.algorithm} reports no trace, so its `
      + `tree cannot be drawn: analyze with ${traceable.join(" or ")} to see one.`;
    $("tree").replaceChildren();
    return;
  }
  // After Analyze too, the tree is that of the search that chooses the move (one window
  // for every move, so it prunes); the analysis's exact values are shown beside it.
  const body = {
    ...app.spec, moves: last.moves, ...last.extra,
    algorithm: last.settings.algorithm, unit: last.settings.unit,
    tie: last.settings.tie, analysis: false,
    max_nodes: Number.parseInt($("tree-nodes").value, 10) || 2000,
  };
  if (last.settings.strict_cutoffs) body.strict_cutoffs = true;
  // The same search: an analysis or a move's search, to the depth it reached (a time
  // budget is not a picture: the tree shows the last depth the search completed).
  const depthText = $("tree-depth").value.trim();
  if (depthText !== "") body.depth = Number.parseInt(depthText, 10);
  else if (last.settings.depth !== undefined) body.depth = last.settings.depth;
  else if (last.depth !== undefined && !last.exact) body.depth = last.depth;
  $("show-tree").disabled = true;
  $("tree-summary").textContent = "capturing the search...";
  try {
    const answer = await api("tree", body);
    app.tree = answer.tree;
    app.treeBody = body;
    drawTree(answer.tree, body.depth);
    drawPicture(answer);
    explainAnalysis(answer.tree, last);
  } catch (err) {
    $("tree-summary").textContent = `Cannot show the tree: ${err.message}`;
    $("tree").replaceChildren();
  } finally {
    $("show-tree").disabled = false;
  }
}

// Beside the tree of the search that chose the move, the analysis's exact value of every
// move, and why the two differ.
function explainAnalysis(tree, last) {
  const box = $("tree-note");
  if (!last.analysis || !app.values || app.values.moves !== last.moves) {
    box.hidden = true;
    return;
  }
  const exact = [...app.values.byMove].map(([m, r]) => `${m} ${r.score || num(r.value)}`)
    .join(", ");
  const pruned = tree.stats.pruned;
  box.textContent = `Exact value of every move (the analysis): ${exact}. The tree is the `
    + `${tree.algorithm} search that chooses the move: all moves share one window, so once a `
    + `good move is found the others only need to be shown no better, and ${pruned} `
    + `branch${pruned === 1 ? " is" : "es are"} pruned; its values for those moves are bounds. `
    + `The analysis searches every move with a full window to get each exact value, so it `
    + `visits more nodes (${last.nodes.toLocaleString("en")} there, `
    + `${tree.stats.nodes.toLocaleString("en")} here).`;
  box.hidden = false;
}

function drawTree(tree, depth) {
  const s = tree.stats;
  const reach = depth === undefined ? "to the end of the game" : `to depth ${depth}`;
  $("tree-summary").textContent = `${tree.algorithm} ${reach}, values for ${tree.player}: `
    + `value ${num(tree.value)}${tree.exact ? "" : " (heuristic)"}, `
    + `principal variation ${tree.pv.join(" ") || "–"}; `
    + `${s.nodes.toLocaleString("en")} nodes searched, ${s.pruned.toLocaleString("en")} pruned, `
    + `${s.cutoffs.toLocaleString("en")} cutoffs.`;
  $("tree-legend").hidden = false;
  const root = $("tree");
  root.replaceChildren(treeItem(tree.root, true));
}

function treeItem(node, open) {
  const kids = node.children || [];
  const item = el("li", {
    role: "treeitem", "data-id": node.id, "data-kind": node.kind,
    class: ["node", node.pv ? "on-pv" : "", node.pruned ? "pruned" : ""].join(" ").trim(),
  });
  const toggle = el("button", {
    type: "button", class: "toggle", "aria-label": "expand or collapse",
    disabled: kids.length === 0,
  });
  toggle.textContent = kids.length ? "▸" : "·";
  const row = el("div", { class: "row" }, toggle);
  row.append(el("span", { class: "action", text: node.action === null ? "root" : node.action }));
  if (node.probability !== null) {
    row.append(el("span", { class: "prob", text: `p=${num(node.probability)}` }));
  }
  if (node.label) row.append(el("span", { class: "label", text: node.label }));
  row.append(el("span", { class: `badge ${badgeClass(node.kind)}`, text: node.kind }));
  if (node.pruned) {
    row.append(el("span", { class: "why", text: `pruned: ${prettyBound(node.pruned_by)}` }));
  } else {
    const values = node.values ? ` (${node.values.map(num).join(", ")})` : "";
    row.append(el("span", { class: "value", "data-value": num(node.value),
      text: `${num(node.value)}${values}` }));
    if (node.alpha !== null || node.beta !== null) {
      row.append(el("span", { class: "window", text: `α ${num(node.alpha)}  β ${num(node.beta)}` }));
    }
  }
  if (kids.length) {
    const count = `${kids.length} ${kids.length === 1 ? "child" : "children"}`;
    row.append(el("span", { class: "count", text: count }));
  }
  item.append(row);
  const list = el("ul", { role: "group" });
  item.append(list);
  let built = false;
  const setOpen = (wanted) => {
    const value = wanted && kids.length > 0;
    if (value && !built) {
      list.append(...kids.map((k) => treeItem(k, false)));
      built = true;
    }
    item.classList.toggle("open", value);
    item.setAttribute("aria-expanded", String(value));
    toggle.textContent = kids.length ? (value ? "▾" : "▸") : "·";
  };
  item.setOpen = setOpen;
  toggle.addEventListener("click", () => setOpen(!item.classList.contains("open")));
  setOpen(kids.length > 0 && (open || node.pv));
  return item;
}

function prettyBound(text) {
  // "beta=2 <= alpha=3" as the lecture notes write it: "β=2 ≤ α=3".
  if (!text) return "cut off";
  return text.replace(/\balpha\b/g, "α").replace(/\bbeta\b/g, "β")
    .replace(/<=/g, "≤").replace(/>=/g, "≥");
}

function badgeClass(kind) {
  return ["max", "min", "chance", "simultaneous", "terminal", "cutoff"].includes(kind) ? kind : "player";
}

function expandAll() {
  const limit = 3000; // DOM nodes: a bigger tree stays collapsed below this many
  let count = 0;
  const queue = [...document.querySelectorAll("#tree > li")];
  while (queue.length && count < limit) {
    const item = queue.shift();
    if (item.setOpen) item.setOpen(true);
    count += 1;
    queue.push(...item.querySelectorAll(":scope > ul > li"));
  }
}

function collapseToPv() {
  for (const item of document.querySelectorAll("#tree li")) {
    if (item.setOpen) item.setOpen(item.classList.contains("on-pv"));
  }
}

// --- wiring ------------------------------------------------------------------------------

function updateCraft() {
  const name = $("algorithm").value;
  // What the registry says the algorithm can do (none for "auto", which can do it all):
  // engine craft where it has engine switches, a depth unless it has none (mcts: a time
  // budget only).
  const caps = app.catalogue.capabilities[name];
  const ok = !caps || caps.engine.length > 0;
  $("engine").disabled = !ok;
  if (!ok) $("engine").checked = false;
  // The strict cut rule, for the algorithms that declare it (alpha-beta and paranoid).
  const strictOk = !caps || caps.options.includes("strict_cutoffs");
  $("strict-cutoffs").disabled = !strictOk;
  if (!strictOk) $("strict-cutoffs").checked = false;
  const depthOk = !caps || caps.depth;
  const byDepth = document.querySelector("input[name=limit][value=depth]");
  for (const input of [byDepth, $("depth"), $("unit")]) input.disabled = !depthOk;
  if (!depthOk && byDepth.checked) {
    document.querySelector("input[name=limit][value=time]").checked = true;
  }
}

async function main() {
  try {
    app.catalogue = await api("games");
  } catch (err) {
    showError(`cannot reach the server: ${err.message}`);
    return;
  }
  fillCatalogue();
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => setSource(tab.dataset.source));
  }
  $("game-select").addEventListener("change", () => {
    fillOptions();
    applyGameSearch();
    app.roles = [];
    newGame();
  });
  // A new game when the options say another game; a change event that leaves them as
  // they were (a field left after its edit was already taken) keeps the game going.
  $("options").addEventListener("change", () => {
    if (JSON.stringify(gameSpec()) !== JSON.stringify(app.spec)) newGame();
  });
  $("tree-file").addEventListener("change", (e) => readFileInto(e.target, $("tree-text"), "treeName"));
  $("gdl-file").addEventListener("change", (e) => readFileInto(e.target, $("gdl-text"), "gdlName"));
  $("new-game").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", () => undo());
  $("engine-move").addEventListener("click", async () => {
    await engineMove();
    step(ENGINE_DELAY_MS);
  });
  $("pause").addEventListener("click", () => setPaused(!app.paused));
  $("analyze").addEventListener("click", () => analyze());
  $("algorithm").addEventListener("change", updateCraft);
  $("show-tree").addEventListener("click", () => showTree());
  wireTree();
  wireQuiz(api, () => request({ ...searchSettings() }));
  $("tree-ordering").addEventListener("click", () => {
    if (app.treeBody) compareOrdering(api, app.treeBody);
  });
  $("tree-expand").addEventListener("click", expandAll);
  $("tree-collapse").addEventListener("click", collapseToPv);
  for (const id of ["time", "depth"]) {
    $(id).addEventListener("focus", () => {
      document.querySelector(`input[name=limit][value=${id}]`).checked = true;
    });
  }
  updateCraft();
  await newGame();
  document.body.dataset.ready = "true";
}

main();
