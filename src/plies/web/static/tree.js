// The search tree as the lecture draws it (the SVG of `plies tree`), zoomable, with a
// step-by-step replay of the search and the "does move ordering matter?" comparison.

const $ = (id) => document.getElementById(id);

const view = {
  scale: 1, // zoom of the picture
  steps: [], // the search, one narrated event at a time: {node, kind, text}
  reached: [], // reached[i]: the highest node id entered by step i
  parents: new Map(), // node id -> parent id
  at: -1, // the step shown; -1: the whole tree
};

// --- the picture -----------------------------------------------------------------------

export function drawPicture(answer) {
  const box = $("tree-picture");
  box.innerHTML = answer.svg; // plies' own drawing (escaped when drawn)
  box.hidden = false;
  view.parents = new Map();
  const walk = (node) => {
    for (const child of node.children || []) {
      view.parents.set(child.id, node.id);
      walk(child);
    }
  };
  walk(answer.tree.root);
  view.steps = answer.steps || [];
  let high = -1;
  view.reached = view.steps.map((s) => {
    if (s.node !== null && s.node > high) high = s.node;
    return high;
  });
  view.at = -1;
  $("tree-tools").hidden = false;
  zoom(fitScale(box));
  showStep();
}

function svgOf(box) {
  return box.querySelector("svg");
}

function naturalWidth(svg) {
  const w = Number.parseFloat(svg.getAttribute("width"));
  return Number.isFinite(w) ? w : svg.viewBox.baseVal.width;
}

function fitScale(box) {
  const svg = svgOf(box);
  if (!svg) return 1;
  const room = box.clientWidth - 8;
  return Math.min(1, room > 0 ? room / naturalWidth(svg) : 1);
}

function zoom(scale) {
  const svg = svgOf($("tree-picture"));
  if (!svg) return;
  view.scale = Math.max(0.1, Math.min(4, scale));
  const w = naturalWidth(svg);
  const h = Number.parseFloat(svg.getAttribute("height")) || svg.viewBox.baseVal.height;
  svg.style.width = `${w * view.scale}px`;
  svg.style.height = `${h * view.scale}px`;
  $("tree-zoom-level").textContent = `${Math.round(view.scale * 100)}%`;
}

// --- stepping through the search --------------------------------------------------------

function showStep() {
  const svg = svgOf($("tree-picture"));
  if (!svg) return;
  const n = view.steps.length;
  for (const g of svg.querySelectorAll("g.node")) g.classList.remove("current", "line", "future");
  const text = $("tree-step-text");
  if (view.at < 0 || n === 0) {
    $("tree-step-count").textContent = n ? `the whole search (${n} steps)` : "no steps";
    text.textContent = n ? "Step through the search to see it grow, one event at a time." : "";
    return;
  }
  const step = view.steps[view.at];
  $("tree-step-count").textContent = `step ${view.at + 1} of ${n}`;
  text.textContent = step.text.trim();
  const reached = view.reached[view.at];
  for (const g of svg.querySelectorAll("g.node")) {
    const id = Number.parseInt(g.id.replace("node-", ""), 10);
    if (id > reached) g.classList.add("future");
  }
  let id = step.node;
  const current = id === null ? null : svg.querySelector(`#node-${id}`);
  if (current) {
    current.classList.add("current");
    current.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }
  while (id !== null && view.parents.has(id)) {
    id = view.parents.get(id);
    svg.querySelector(`#node-${id}`)?.classList.add("line");
  }
}

function go(to) {
  const n = view.steps.length;
  view.at = Math.max(-1, Math.min(n - 1, to));
  showStep();
}

// --- does move ordering matter? -----------------------------------------------------------

export async function compareOrdering(api, body) {
  const out = $("ordering");
  out.hidden = false;
  out.replaceChildren(note("searching the position four ways..."));
  try {
    const answer = await api("ordering", body);
    const panels = answer.orders.map((o) => {
      const panel = document.createElement("figure");
      panel.className = "order-panel";
      panel.dataset.order = o.label;
      const caption = document.createElement("figcaption");
      caption.innerHTML = "";
      const title = document.createElement("strong");
      title.textContent = o.label;
      const facts = document.createElement("span");
      facts.className = "order-facts";
      facts.textContent = `${o.nodes.toLocaleString("en")} nodes, ${o.pruned.toLocaleString("en")} `
        + `pruned, value ${typeof o.value === "number" ? o.value : o.value}`;
      caption.append(title, document.createElement("br"), facts);
      const picture = document.createElement("div");
      picture.className = "order-picture";
      picture.innerHTML = o.svg;
      panel.append(caption, picture);
      return panel;
    });
    const counts = answer.orders.map((o) => o.nodes);
    const summary = note(`Same value every time; the work is what changes: from `
      + `${Math.min(...counts).toLocaleString("en")} to ${Math.max(...counts).toLocaleString("en")} `
      + `nodes. Best first is the ideal order (each node's children sorted by their true `
      + `value), which a real engine approaches with its move ordering.`);
    out.replaceChildren(summary, ...panels);
  } catch (err) {
    out.replaceChildren(note(`Cannot compare the orders: ${err.message}`));
  }
}

function note(text) {
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent = text;
  return p;
}

// --- wiring --------------------------------------------------------------------------------

export function wireTree() {
  $("tree-zoom-in").addEventListener("click", () => zoom(view.scale * 1.25));
  $("tree-zoom-out").addEventListener("click", () => zoom(view.scale / 1.25));
  $("tree-zoom-fit").addEventListener("click", () => zoom(fitScale($("tree-picture"))));
  $("tree-step-first").addEventListener("click", () => go(0));
  $("tree-step-back").addEventListener("click", () => go(view.at - 1));
  $("tree-step-next").addEventListener("click", () => go(view.at + 1));
  $("tree-step-last").addEventListener("click", () => go(-1));
  $("tree-picture").addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(view.at + 1);
    else if (e.key === "ArrowLeft") go(view.at - 1);
  });
}
