"use strict";
// The Wall Game page (src/wall/html.rs). Part 1 is the oracle query, pure functions with no
// DOM, also run by tests/wall_html.rs under node; part 2 draws the board and handles events.
// Schema and formula: docs/PROTOCOLS.md section 4.10.

// ---------- Part 1: the oracle query ----------
var WallPage = (function () {
  const NONE = 0xffffffff; // u32::MAX: "not a blue candidate"

  // One pair's per-edge query arrays, derived from its public tables exactly as
  // PairCutBuilder::build_into fills PairCut::query (double.rs).
  function queryTable(p, m) {
    const lo = new Uint32Array(m);
    const len = new Uint32Array(m);
    const blue = new Uint32Array(m).fill(NONE);
    const bridge = new Uint32Array(m);
    for (const e of p.bridges) bridge[e] = 1;
    for (let i = 0; i < p.red.length; i++) {
      lo[p.red[i]] = p.red_lo[i];
      len[p.red[i]] = p.red_hi[i] - p.red_lo[i];
    }
    for (let j = 0; j < p.blue.length; j++) blue[p.blue[j]] = j;
    return { lo: lo, len: len, blue: blue, bridge: bridge };
  }

  // PairCut::cuts, line by line: does removing edges a and b (possibly equal) disconnect the
  // pair? `(x - y) >>> 0` is u32::wrapping_sub.
  function cuts(q, a, b) {
    return ((q.bridge[a] | q.bridge[b]) !== 0) ||
      (((q.blue[b] - q.lo[a]) >>> 0) < q.len[a]) ||
      (((q.blue[a] - q.lo[b]) >>> 0) < q.len[b]);
  }

  // Whether slot s exists on a rows x cols board (not on the border).
  function exists(d, s) {
    const cell = s >> 1, r = Math.floor(cell / d.cols), c = cell % d.cols;
    return (s & 1) ? c + 1 < d.cols : r + 1 < d.rows;
  }

  // A step ready for queries: edge id of each slot (-1: walled or not on the board; free
  // slots are numbered in slot order, as Position::graph numbers edges) and the query arrays.
  function prepare(d, st) {
    const nslots = 2 * d.rows * d.cols;
    const edge = new Int32Array(nslots).fill(-1);
    const walled = new Uint8Array(nslots);
    for (const s of st.walls) walled[s] = 1;
    let m = 0;
    for (let s = 0; s < nslots; s++) {
      if (exists(d, s) && !walled[s]) edge[s] = m++;
    }
    const q = st.valid ? st.pairs.map(function (p) { return queryTable(p, m); }) : [];
    // a finished game (st.result set) offers no walls: the page shows the result instead
    return { edge: edge, walled: walled, m: m, q: q, valid: st.valid, over: !!st.result };
  }

  // A single wall on slot s: {free, legal, cut: [pair indices]}; legal is null when the
  // position is invalid (no wall is legal then; the page says why).
  function single(P, s) {
    const e = P.edge[s];
    if (e < 0) return { free: false, legal: false, cut: [] };
    if (!P.valid) return { free: true, legal: null, cut: [] };
    const cut = [];
    for (let k = 0; k < P.q.length; k++) if (P.q[k].bridge[e] !== 0) cut.push(k);
    return { free: true, legal: cut.length === 0, cut: cut };
  }

  // Two walls on slots s1 and s2 (MoveOracle::is_legal_double): distinct free slots, each
  // legal alone, and no pair cut by the two together. `alone` names a slot illegal alone.
  function pair(P, s1, s2) {
    for (const s of [s1, s2]) {
      const v = single(P, s);
      if (!v.free || v.legal !== true) {
        return { legal: v.legal === null ? null : false, alone: s, free: v.free, cut: v.cut };
      }
    }
    if (s1 === s2) return { legal: false, same: true, cut: [] };
    const a = P.edge[s1], b = P.edge[s2], cut = [];
    for (let k = 0; k < P.q.length; k++) if (cuts(P.q[k], a, b)) cut.push(k);
    return { legal: cut.length === 0, cut: cut };
  }

  // Standard notation: column letter, rank counted from the bottom.
  function cellName(d, r, c) { return String.fromCharCode(97 + c) + (d.rows - r); }
  function slotName(d, s) {
    const cell = s >> 1, r = Math.floor(cell / d.cols), c = cell % d.cols;
    return (s & 1) ? ">" + cellName(d, r, c) : "^" + cellName(d, r + 1, c);
  }

  return { queryTable: queryTable, cuts: cuts, exists: exists, prepare: prepare,
           single: single, pair: pair, cellName: cellName, slotName: slotName };
})();

// ---------- Part 2: the page ----------
if (typeof document !== "undefined") (function () {
  const W = WallPage;
  const D = JSON.parse(document.getElementById("data").textContent);
  const CELL = 40, MARGIN = 28;
  const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"];
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("board");
  const wrap = document.getElementById("boardwrap");
  const statusEl = document.getElementById("status");
  const captionEl = document.getElementById("caption");
  const X = function (c) { return MARGIN + c * CELL; };
  const Y = function (r) { return MARGIN + r * CELL; };
  const MID = function (v) { return MARGIN + v * CELL + CELL / 2; };

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  // ----- Tags -----
  const tagsEl = document.getElementById("tags");
  tagsEl.hidden = D.tags.length === 0;
  for (const t of D.tags) {
    const dt = document.createElement("dt"); dt.textContent = t[0];
    const dd = document.createElement("dd"); dd.textContent = t[1];
    tagsEl.appendChild(dt); tagsEl.appendChild(dd);
  }

  // ----- The static board: background, grid, coordinates, border, slot lines -----
  const w = 2 * MARGIN + D.cols * CELL, h = 2 * MARGIN + D.rows * CELL;
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  el("rect", { x: 0, y: 0, width: w, height: h, fill: "white" }, svg);
  const grid = el("g", { stroke: "#cccccc", "stroke-width": 1 }, svg);
  for (let r = 1; r < D.rows; r++) el("line", { x1: X(0), y1: Y(r), x2: X(D.cols), y2: Y(r) }, grid);
  for (let c = 1; c < D.cols; c++) el("line", { x1: X(c), y1: Y(0), x2: X(c), y2: Y(D.rows) }, grid);
  const coords = el("g", { "font-family": "sans-serif", "font-size": 12, fill: "#555555",
                           "text-anchor": "middle", "dominant-baseline": "central" }, svg);
  for (let c = 0; c < D.cols; c++) {
    el("text", { x: MID(c), y: Y(D.rows) + MARGIN / 2 + 2 }, coords, String.fromCharCode(97 + c));
    el("text", { x: MID(c), y: MARGIN / 2 - 2 }, coords, String.fromCharCode(97 + c));
  }
  for (let r = 0; r < D.rows; r++) {
    el("text", { x: MARGIN / 2 - 1, y: MID(r) }, coords, String(D.rows - r));
    el("text", { x: X(D.cols) + MARGIN / 2 + 1, y: MID(r) }, coords, String(D.rows - r));
  }
  const wallsG = el("g", { class: "walls", stroke: "black", "stroke-width": 6, "stroke-linecap": "round" }, svg);
  el("rect", { x: X(0), y: Y(0), width: D.cols * CELL, height: D.rows * CELL, fill: "none",
               stroke: "black", "stroke-width": 6 }, svg);
  const piecesG = el("g", { class: "pieces" }, svg);
  const slotsG = el("g", { class: "slots" }, svg);

  function seg(s) { // the slot's full segment
    const cell = s >> 1, r = Math.floor(cell / D.cols), c = cell % D.cols;
    return (s & 1) ? [X(c + 1), Y(r), X(c + 1), Y(r + 1)] : [X(c), Y(r + 1), X(c + 1), Y(r + 1)];
  }
  const slotEl = {}; // slot number -> <line>
  const centres = []; // [slot, x, y] of every slot on the board
  for (let s = 0; s < 2 * D.rows * D.cols; s++) {
    if (!W.exists(D, s)) continue;
    const p = seg(s);
    const horiz = !(s & 1);
    const line = el("line", {
      class: "slot", "data-slot": s, "data-name": W.slotName(D, s),
      x1: p[0] + (horiz ? 5 : 0), y1: p[1] + (horiz ? 0 : 5),
      x2: p[2] - (horiz ? 5 : 0), y2: p[3] - (horiz ? 0 : 5)
    }, slotsG);
    slotEl[s] = line;
    centres.push([s, (p[0] + p[2]) / 2, (p[1] + p[3]) / 2]);
  }

  // ----- Per-step drawing -----
  function text(parent, cx, cy, size, fill, label) {
    el("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
                 "font-family": "sans-serif", "font-size": size, fill: fill }, parent, label);
  }
  function drawPieces(st) {
    piecesG.textContent = "";
    if (D.kind === "pairs") {
      for (const mk of st.marks) {
        const i = mk[1], color = COLORS[i % 4];
        el("line", { x1: MID(mk[3]), y1: MID(mk[2]), x2: MID(mk[5]), y2: MID(mk[4]), stroke: color,
                     "stroke-width": 2, "stroke-dasharray": "4 3" }, piecesG);
        for (const rc of [[mk[2], mk[3]], [mk[4], mk[5]]]) {
          el("circle", { cx: MID(rc[1]), cy: MID(rc[0]), r: 12, fill: color }, piecesG);
          text(piecesG, MID(rc[1]), MID(rc[0]), 12, "white", String(i + 1));
        }
      }
      return;
    }
    // Pieces sharing a cell (a cat on the mouse it caught) are drawn side by side, smaller,
    // without overlapping, so that every one of them stays visible; homes first, then cats,
    // then mice.
    const count = {}, seen = {};
    for (const mk of st.marks) if (mk[0] !== "G") count[mk[2] + "," + mk[3]] = (count[mk[2] + "," + mk[3]] || 0) + 1;
    const place = function (r, c) { // [cx, scale]
      const key = r + "," + c, k = seen[key] || 0, n = count[key];
      seen[key] = k + 1;
      if (n === 1) return [MID(c), 1];
      const w = (CELL - 4) / n; // each piece gets its own slice of the cell
      return [X(c) + 2 + w * k + w / 2, Math.min(1, w / 32)];
    };
    const order = { G: 0, C: 1, M: 2 };
    const marks = st.marks.slice().sort(function (a, b) { return order[a[0]] - order[b[0]]; });
    for (const mk of marks) {
      const kind = mk[0], i = mk[1], r = mk[2], c = mk[3], color = COLORS[i % 4];
      if (kind === "G") {
        el("rect", { x: X(c) + 6, y: Y(r) + 6, width: CELL - 12, height: CELL - 12, fill: "none",
                     stroke: color, "stroke-width": 3 }, piecesG);
        text(piecesG, MID(c), MID(r), 13, color, "G" + (i + 1));
      } else if (kind === "C") {
        const p = place(r, c);
        el("circle", { class: "piece", "data-piece": "C" + (i + 1), cx: p[0], cy: MID(r), r: 15 * p[1], fill: color }, piecesG);
        text(piecesG, p[0], MID(r), 13 * p[1], "white", "C" + (i + 1));
      } else {
        const p = place(r, c);
        el("circle", { class: "piece", "data-piece": "M" + (i + 1), cx: p[0], cy: MID(r), r: 10 * Math.max(p[1], 0.8), fill: "white", stroke: color, "stroke-width": 3 }, piecesG);
        text(piecesG, p[0], MID(r), 10 * Math.max(p[1], 0.8), color, "M" + (i + 1));
      }
    }
  }

  // ----- State -----
  let stepIx = 0, st = null, P = null;
  let cur = null;  // slot under the pointer or the keyboard cursor
  let sel = null;  // selected first wall
  let pin = null;  // pinned second wall
  const cache = {};
  let painted = [];

  function name(s) { return W.slotName(D, s); }
  function why(cut) {
    return cut.map(function (k) { return st.pairs[k].text; }).join("; and ");
  }
  function singleText(s, v) {
    if (!v.free) return name(s) + ": a wall is already there";
    if (v.legal === null) return name(s) + ": " + st.invalid;
    if (v.legal) return name(s) + ": legal";
    return name(s) + ": illegal: it would cut " + why(v.cut);
  }
  function pairText(a, b, v) {
    if (v.legal === null) return name(b) + ": " + st.invalid;
    if (v.alone !== undefined) {
      if (!v.free) return name(a) + " + " + name(b) + ": illegal: " + name(v.alone) + " already holds a wall";
      return name(a) + " + " + name(b) + ": illegal: " + name(v.alone) + " alone would cut " + why(v.cut);
    }
    if (v.same) return name(a) + ": the selected first wall (Enter or click to unselect)";
    if (v.legal) return name(a) + " + " + name(b) + ": legal together";
    return name(a) + " + " + name(b) + ": illegal together: they would cut " + why(v.cut);
  }
  function cls(v) { return v.legal === null ? "na" : (v.legal ? "legal" : "illegal"); }

  function paint(s, c) {
    slotEl[s].classList.add(c);
    painted.push([s, c]);
  }
  function update() {
    for (const p of painted) slotEl[p[0]].classList.remove(p[1]);
    painted = [];
    if (P.over) { // the game is over: the result, and no walls offered
      statusEl.textContent = "Game over: " + st.result + ". No more moves.";
      statusEl.className = "over";
      return;
    }
    let msg = "", mood = "";
    if (sel !== null) paint(sel, "sel");
    if (pin !== null) {
      const v = W.pair(P, sel, pin);
      paint(pin, cls(v));
      msg = "pair " + pairText(sel, pin, v);
      mood = cls(v);
    } else if (cur !== null) {
      const v = sel === null ? W.single(P, cur) : W.pair(P, sel, cur);
      if (!(sel !== null && v.same)) paint(cur, v.free === false && sel === null ? "na" : cls(v));
      msg = sel === null ? singleText(cur, v) : pairText(sel, cur, v);
      mood = v.same ? "" : cls(v);
    } else if (!st.valid) {
      msg = st.invalid;
      mood = "illegal";
    } else if (sel !== null) {
      msg = name(sel) + " selected: hover or move to a second slot (Escape clears)";
    } else {
      msg = "Hover a wall slot: green = legal, red = illegal. Click to select a first wall.";
    }
    if (cur !== null) paint(cur, "cursor");
    statusEl.textContent = msg;
    statusEl.className = mood;
  }

  function show(i) {
    stepIx = Math.max(0, Math.min(D.steps.length - 1, i));
    st = D.steps[stepIx];
    P = cache[stepIx] || (cache[stepIx] = W.prepare(D, st));
    wallsG.textContent = "";
    for (const s of st.walls) {
      const p = seg(s);
      el("line", { x1: p[0], y1: p[1], x2: p[2], y2: p[3] }, wallsG);
    }
    for (const s in slotEl) slotEl[s].classList.toggle("walled", P.walled[s] === 1);
    drawPieces(st);
    svg.classList.toggle("sealed", st.sealed);
    svg.classList.toggle("over", P.over);
    let cap = st.caption;
    if (D.steps.length > 1) cap = "step " + stepIx + " of " + (D.steps.length - 1) + ": " + cap;
    if (st.result) cap += (cap ? " \u2014 " : "") + "game over, " + st.result;
    else if (st.to_move !== null) cap += (cap ? " \u2014 " : "") + "player " + (st.to_move + 1) + " to move";
    captionEl.textContent = cap;
    captionEl.className = st.sealed ? "sealed" : "";
    sel = null; pin = null;
    if (movelist.selectedIndex !== stepIx) movelist.selectedIndex = stepIx;
    update();
  }

  // ----- Events: pointer -----
  function slotOf(t) {
    return t && t.dataset && t.dataset.slot !== undefined ? Number(t.dataset.slot) : null;
  }
  function choose(s) {
    if (P.over) return;
    if (pin !== null) { sel = null; pin = null; }
    if (sel === null) {
      const v = W.single(P, s);
      if (v.free && v.legal === true) sel = s;
    } else if (sel === s) {
      sel = null;
    } else {
      pin = s;
    }
    cur = s;
    update();
  }
  svg.addEventListener("mouseover", function (ev) {
    const s = slotOf(ev.target);
    if (s !== null && s !== cur) { cur = s; update(); }
  });
  svg.addEventListener("mouseleave", function () { cur = null; update(); });
  svg.addEventListener("click", function (ev) {
    const s = slotOf(ev.target);
    if (s !== null) choose(s);
    wrap.focus();
  });

  // ----- Events: keyboard -----
  const DIRS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  function move(dir) {
    if (cur === null) { cur = centres[0][0]; update(); return; }
    const c0 = centres.find(function (c) { return c[0] === cur; });
    let best = null, bestCost = Infinity, bestDist = Infinity;
    for (const c of centres) {
      const dx = c[1] - c0[1], dy = c[2] - c0[2];
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue;
      const cost = along + Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
      const dist = dx * dx + dy * dy;
      if (cost < bestCost || (cost === bestCost && dist < bestDist)) {
        best = c[0]; bestCost = cost; bestDist = dist;
      }
    }
    if (best !== null) { cur = best; update(); }
  }
  wrap.addEventListener("keydown", function (ev) {
    if (DIRS[ev.key]) { move(DIRS[ev.key]); ev.preventDefault(); ev.stopPropagation(); }
    else if (ev.key === "Enter" || ev.key === " ") { if (cur !== null) choose(cur); ev.preventDefault(); }
    else if (ev.key === "Escape") { sel = null; pin = null; update(); ev.preventDefault(); }
  });

  // ----- Steps -----
  const stepsEl = document.getElementById("steps");
  const movelist = document.getElementById("movelist");
  D.steps.forEach(function (s, i) {
    const o = document.createElement("option");
    o.textContent = i + ": " + (s.caption || "position");
    movelist.appendChild(o);
  });
  if (D.steps.length > 1) stepsEl.hidden = false;
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(stepIx - 1); };
  document.getElementById("next").onclick = function () { show(stepIx + 1); };
  document.getElementById("last").onclick = function () { show(D.steps.length - 1); };
  movelist.addEventListener("change", function () { show(movelist.selectedIndex); });
  document.addEventListener("keydown", function (ev) {
    if (ev.defaultPrevented || ev.target === movelist) return;
    const k = ev.key;
    let to = null;
    if (k === "PageDown" || (ev.target !== wrap && (k === "ArrowRight" || k === "ArrowDown"))) to = stepIx + 1;
    else if (k === "PageUp" || (ev.target !== wrap && (k === "ArrowLeft" || k === "ArrowUp"))) to = stepIx - 1;
    else if (k === "Home") to = 0;
    else if (k === "End") to = D.steps.length - 1;
    if (to !== null && D.steps.length > 1) { show(to); ev.preventDefault(); }
  });

  show(0);
})();
