// plies web: fitting a drawn board into its card, and the values of moves on small cells.
//
// app.js draws the board from the server's description (plies/web/view.py); these helpers
// run once it is in the page.  A board wider than its card (Pacman's maze, a big Empire
// map) is scaled down to fit instead of being clipped.  Where the cells are then too
// small to carry a value without covering what is on them (Pacman's maze, Pacman himself),
// the values move out of the cells into a row of chips under the board, each ringing its
// cell when pointed at; the cells of the moves keep a thin ring.

const MIN_CELL = 14; // px: smaller than this a board scrolls rather than shrinks
const VALUE_CELL = 34; // px: a cell smaller than this shows no value inside it

// The size a cell of `grid` is drawn at (its --cell), in px.
function cellSize(grid) {
  return Number.parseFloat(getComputedStyle(grid).getPropertyValue("--cell")) || 40;
}

// Scale the board in `box` so that it fits the box's width; returns the cell size.
function fit(box) {
  const grid = box.querySelector(".grid");
  const frame = box.querySelector(".frame") || grid;
  if (!grid) return 0;
  let size = cellSize(grid);
  const over = frame.scrollWidth - box.clientWidth;
  if (over > 0) {
    const columns = grid.style.gridTemplateColumns.match(/repeat\((\d+)/);
    const n = columns ? Number(columns[1]) : 1;
    size = Math.max(MIN_CELL, Math.floor(size - over / n - 1));
    frame.style.setProperty("--cell", `${size}px`);
    grid.style.setProperty("--cell", `${size}px`);
  }
  return size;
}

// The values drawn on cells too small for them, moved to a row of chips under the board.
function valuesOutside(box, values) {
  const best = values ? values.best : null;
  const rank = values ? [...values.byMove.keys()] : []; // best first, as the server sorted
  const labels = [...box.querySelectorAll(".cell-value")]
    .sort((x, y) => rank.indexOf(x.dataset.move) - rank.indexOf(y.dataset.move));
  if (!labels.length) return;
  const strip = document.createElement("div");
  strip.className = "value-strip";
  strip.setAttribute("aria-label", "the value of every move");
  for (const label of labels) {
    const cell = label.closest(".cell");
    const move = label.dataset.move;
    label.remove();
    cell.classList.add("valued");
    const chip = document.createElement("span");
    chip.className = `chip static value-chip${move === best ? " best" : ""}`;
    chip.dataset.move = move;
    chip.title = label.title;
    chip.textContent = `${move} ${label.title}`;
    chip.addEventListener("mouseenter", () => cell.classList.add("pointed"));
    chip.addEventListener("mouseleave", () => cell.classList.remove("pointed"));
    strip.append(chip);
  }
  const grid = box.querySelector(".grid");
  (grid.parentElement.classList.contains("frame") ? grid.parentElement : grid).after(strip);
}

// After app.js has drawn a board into `box`: fit it, and move the values of small cells.
export function finishBoard(box, values) {
  const size = fit(box);
  if (size && size < VALUE_CELL) valuesOutside(box, values);
}

// The shape of a mark that is not text: a disc, a dot, a block or a square, with the
// small disc inside it that some marks have (a unit in its city).
export function markShape(drawn) {
  const shape = drawn ? drawn.shape : "";
  const span = document.createElement("span");
  span.className = shape === "dot" ? "disc dot" : shape === "square" ? "disc square" : "disc";
  if (drawn && drawn.inner) {
    const inner = document.createElement("span");
    inner.className = "inner";
    inner.style.background = drawn.inner;
    span.append(inner);
  }
  return span;
}

// A cell's own ground (terrain) and the tint laid over it (a territory), if the board has them.
export function paintGround(cell, b, i) {
  if (b.grounds && b.grounds[i]) cell.style.setProperty("--ground", b.grounds[i]);
  if (b.tints && b.tints[i]) {
    cell.classList.add("tinted");
    cell.style.setProperty("--tint", b.tints[i]);
  }
}

// The mark that stands for `player` (Connect Four's red stone for X), drawn small beside
// the player's name; null when the board names none.
export function swatch(b, player) {
  const mark = b && b.player_marks ? b.player_marks[player] : "";
  const drawn = mark ? b.marks[mark] : null;
  if (!drawn) return null;
  const span = document.createElement("span");
  span.className = `swatch shape-${drawn.shape}`;
  span.style.setProperty("--mark", drawn.color || "currentColor");
  span.setAttribute("aria-hidden", "true");
  if (drawn.shape === "text") span.textContent = drawn.text;
  return span;
}
