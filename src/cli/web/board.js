"use strict";
// The one drawing of a game for every page: the replay page `trace --html` writes and the live
// page `wumpus serve` serves both embed this file. A grid board is drawn as its grid, a cave or
// maze board as a graph at the positions the library computed ([`game::Board`]), with what the
// player (or agent) knows at a step of a list of trace events (`docs/trace-json.md`): percepts,
// proven places, the odds as a heat map, the places proven in the step, the last move, a dead
// wumpus crossed out, and the hidden world once revealed.
//
// Every place drawn has one mark: a text element whose only attributes are its class (the
// status, then " dead", then " agent" for the player's place) and then data-cell (the place's
// label); tests look for it. Each place's shape carries data-place (its label) for clicks. A
// big grid draws only the places in its window, and seen from afar no marks (its unknown cells
// one patterned shape). It must never draw what the steps do not say the player knows, save
// the hidden world at the end.
//
// `WumpusDraw.Drawing(board, rules)` draws; `WumpusDraw.Replay(drawing, data, elements, options)`
// replays a whole traced game with a step slider, play and pause, and the keyboard.
const WumpusDraw = (() => {
  const esc = (s) => String(s).replace(/[&<>"]/g,
    (ch) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"})[ch]);
  const pct = (p) => {
    if (p === null || p === undefined) return "";
    const v = 100 * p;
    if (v > 0 && v < 1) return "<1%";
    if (v < 100 && v > 99) return ">99%";
    return Math.round(v) + "%";
  };
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  // The one risk number of a place where logic runs out, as the board, its tips, the legend
  // and the hints name it: the library's chance of dying on stepping in (`death` of the odds,
  // `risk` of a choice), the same routine's output the agent's reasons quote as "to die".
  const RISK = "to die on stepping in";
  const risk = (o) => o.death;

  // The library's layout, kept as it is unless places crowd together (a map that is not planar,
  // like the maze's); then a force-directed relaxation from it gives each place room for its name.
  function spread(pts, edges, rounds) {
    const n = pts.length;
    if (n < 3) return pts;
    const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
    const ideal = 0.75 / Math.sqrt(n);
    let least = Infinity;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) least = Math.min(least, dist(pts[i], pts[j]));
    if (!rounds && least >= 0.45 * ideal) return pts;
    const p = pts.map((q) => [q[0], q[1]]);
    rounds = rounds || 400;
    for (let round = 0; round < rounds; round++) {
      const heat = 0.06 * (1 - round / rounds) + 0.002;
      const d = p.map(() => [0, 0]);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
        let dx = p[i][0] - p[j][0], dy = p[i][1] - p[j][1];
        let l = Math.hypot(dx, dy);
        if (l < 1e-6) { dx = 1e-3 * (i - j); dy = 1e-3; l = Math.hypot(dx, dy); }
        const f = ideal * ideal / l;
        d[i][0] += dx / l * f; d[i][1] += dy / l * f;
        d[j][0] -= dx / l * f; d[j][1] -= dy / l * f;
      }
      for (const e of edges) {
        const a = p[e.from], b = p[e.to];
        const dx = a[0] - b[0], dy = a[1] - b[1], l = Math.hypot(dx, dy) || 1e-6;
        const f = l * l / ideal;
        d[e.from][0] -= dx / l * f; d[e.from][1] -= dy / l * f;
        d[e.to][0] += dx / l * f; d[e.to][1] += dy / l * f;
      }
      for (let i = 0; i < n; i++) {
        const l = Math.hypot(d[i][0], d[i][1]) || 1;
        const step = Math.min(l, heat);
        p[i][0] += d[i][0] / l * step; p[i][1] += d[i][1] / l * step;
      }
    }
    // Into the unit square, then apart until no two names overlap (names are wide, so places
    // need more room across than down).
    const fit = () => {
      const xs = p.map((q) => q[0]), ys = p.map((q) => q[1]);
      const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
      for (const q of p) {
        q[0] = 0.05 + 0.9 * (q[0] - x0) / Math.max(x1 - x0, 1e-9);
        q[1] = 0.05 + 0.9 * (q[1] - y0) / Math.max(y1 - y0, 1e-9);
      }
    };
    fit();
    const room = Math.min(0.16, 0.62 / Math.sqrt(n)), wide = 2.2;
    for (let round = 0; round < 300; round++) {
      let moved = false;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
        const dx = (p[i][0] - p[j][0]) / wide, dy = p[i][1] - p[j][1];
        const l = Math.hypot(dx, dy);
        if (l >= room) continue;
        moved = true;
        const ux = l > 1e-9 ? dx / l : 1, uy = l > 1e-9 ? dy / l : 0, push = (room - l) / 2 + 1e-4;
        p[i][0] += ux * push * wide; p[i][1] += uy * push;
        p[j][0] -= ux * push * wide; p[j][1] -= uy * push;
      }
      if (!moved) break;
      fit();
    }
    return p;
  }


  const PERCEPT = {
    breeze: ["breeze", "#2f78c4", "≈"], draft: ["draft", "#2f78c4", "D"],
    stench: ["stench", "#5d7a1f", "S"], glitter: ["glitter", "#c99a00", "G"],
    bats: ["bats", "#7a4fa0", "B"], bump: ["bump", "#6a7385", "!"], scream: ["scream", "#6a7385", "!"],
  };
  const FILL = {unknown: "#e7e9ee", visited: "#bcd3f5", safe: "#cdeccd", pit: "#f2a9a9",
    wumpus: "#dcb6ec", bats: "#f5d9a0", odds: "#fff"};
  const MARK = {unknown: "?", visited: "", safe: "✓", pit: "P", wumpus: "W", bats: "B"};
  const ENDING = {won: "won", climbed_out: "climbed out without the gold", pit: "fell into a pit",
    wumpus: "eaten by a wumpus", own_arrow: "shot by your own arrow", out_of_arrows: "out of arrows",
    out_of_grenades: "out of grenades", exhaustion: "exhausted after 100 moves",
    unfinished: "unfinished (stopped by the runner)"};
  const FACT = {safe: "is safe", pit: "holds a pit", wumpus: "holds the wumpus", bats: "holds bats"};

  // Heat: white to red by the chance of dying on stepping in.
  function heat(p) {
    // Pale yellow through orange to red: a low chance never reads as a proven pit's pink.
    const t = Math.pow(Math.max(0, Math.min(1, p)), 0.7);
    const stops = [[255, 246, 214], [247, 178, 76], [204, 40, 32]];
    const [a, b, u] = t < 0.5 ? [stops[0], stops[1], t * 2] : [stops[1], stops[2], t * 2 - 1];
    return "rgb(" + a.map((v, k) => Math.round(v + (b[k] - v) * u)).join(",") + ")";
  }

  // A long label split in two at the space nearest its middle.
  function wrap(label) {
    if (label.length <= 12) return [label];
    let best = -1;
    for (let i = 0; i < label.length; i++) {
      if (label[i] === " " && (best < 0 || Math.abs(i - label.length / 2) < Math.abs(best - label.length / 2))) best = i;
    }
    return best < 0 ? [label] : [label.slice(0, best), label.slice(best + 1)];
  }

  // The mark of a place: only class and data-cell on the text, in that order.
  function mark(x, y, size, cls, label, body) {
    return "<g transform=\"translate(" + x.toFixed(1) + "," + y.toFixed(1) + ")\" font-size=\"" +
      size.toFixed(1) + "\"><text class=\"" + cls + "\" data-cell=\"" + esc(label) + "\">" + body + "</text></g>";
  }

  function text(x, y, size, cls, body, extra) {
    return "<text class=\"" + cls + "\" x=\"" + x.toFixed(1) + "\" y=\"" + y.toFixed(1) +
      "\" font-size=\"" + size.toFixed(1) + "\"" + (extra || "") + ">" + body + "</text>";
  }

  // Small coloured tags in a row centred on x.
  function pills(items, x, y, size, room) {
    if (!items.length) return "";
    const wide = (z) => items.reduce((a, it) => a + it.text.length * z * 0.62 + z * 1.0, 0) - z * 0.3;
    if (room && wide(size) > room) size = size * room / wide(size);
    const h = size * 1.35, gap = size * 0.3;
    const widths = items.map((it) => it.text.length * size * 0.62 + size * 0.7);
    const total = widths.reduce((a, b) => a + b, 0) + gap * (items.length - 1);
    let left = x - total / 2, out = "";
    items.forEach((it, k) => {
      const w = widths[k];
      out += "<g class=\"pill\"><title>" + esc(it.title) + "</title><rect x=\"" + left.toFixed(1) +
        "\" y=\"" + (y - h / 2).toFixed(1) + "\" width=\"" + w.toFixed(1) + "\" height=\"" +
        h.toFixed(1) + "\" rx=\"" + (h / 3).toFixed(1) + "\" fill=\"" + it.color + "\"/>" +
        text(left + w / 2, y, size, "", esc(it.text)) + "</g>";
      left += w + gap;
    });
    return out;
  }

  // Marker ids carry the board's own id (`uid`): a page with two boards holds two sets.
  function arrowLine(a, b, shortenA, shortenB, cls, uid) {
    const dx = b[0] - a[0], dy = b[1] - a[1], d = Math.hypot(dx, dy) || 1;
    const ux = dx / d, uy = dy / d;
    const x1 = a[0] + ux * shortenA, y1 = a[1] + uy * shortenA;
    const x2 = b[0] - ux * shortenB, y2 = b[1] - uy * shortenB;
    return "<line class=\"" + cls + "\" x1=\"" + x1.toFixed(1) + "\" y1=\"" + y1.toFixed(1) +
      "\" x2=\"" + x2.toFixed(1) + "\" y2=\"" + y2.toFixed(1) + "\" marker-end=\"" +
      (cls.startsWith("movehalo") ? "none" : "url(#" + (cls.startsWith("move") ? "head-move-" : "head-edge-") + uid + ")") + "\"/>";
  }

  function percepts(list) {
    return list.length ? list.map((p) => {
      const d = PERCEPT[p] || [p, "#6a7385"];
      return "<span class=\"pill\" style=\"background:" + d[1] + ";color:#fff;padding:0 .4em;" +
        "border-radius:4px;font-weight:600\">" + esc(d[0]) + "</span>";
    }).join(" ") : "<span class=\"none\">nothing</span>";
  }

  // The game's ending in words, with its score and shots.
  function outcomeText(end, rules) {
    let said = "Outcome: " + (ENDING[end.outcome] || end.outcome.replace(/_/g, " ")) + " after " +
      plural(end.moves, "move", "moves");
    said += end.score === null ? "." : "; score " + end.score + ".";
    if (end.shots) {
      said += " " + plural(end.shots, rules === "maze" ? "grenade" : "arrow",
        rules === "maze" ? "grenades" : "arrows") + (rules === "maze" ? " tossed" : " shot");
      // What the shots did is read off the hidden world's dead wumpi, never off the ending:
      // a grid game is won by climbing out with the gold, hit or miss, and a maze's win may
      // owe its wumpi to several grenades.
      const killed = ((end.hidden && end.hidden.dead_wumpus) || []).length;
      if (rules === "maze") {
        said += killed ? ", killing " + plural(killed, "wumpus", "wumpi") : ", killing none";
      } else if (rules === "cave") {
        said += end.outcome === "won" ? ", the last one hitting" : ", none hitting";
      } else {
        said += killed ? ", killing the wumpus" : ", missing";
      }
      said += ".";
    }
    return said;
  }
  const outcomeClass = (end) => end.outcome === "won" ? "won"
    : (["climbed_out", "unfinished"].includes(end.outcome) ? "" : "lost");

  // The drawing of one board: `rules` is "grid", "cave" or "maze".
  function Drawing(board, rules) {
    const places = board.places;
    const isGrid = board.shape === "grid";
    // Places are named by label; a label may name several places (the maze repeats names).
    const byLabel = new Map();
    places.forEach((p, i) => {
      if (!byLabel.has(p.label)) byLabel.set(p.label, []);
      byLabel.get(p.label).push(i);
    });
    const indices = (label) => (label === null || label === undefined) ? [] : (byLabel.get(label) || []);
    const setOf = (labels) => {
      const s = new Set();
      for (const l of labels || []) for (const i of indices(l)) s.add(i);
      return s;
    };

    // Geometry: the centre of each place and the size of things, in the SVG's units.
    let W, H, PAD, CELL = 200, R = 30, FONT;
    const pos = [];
    if (isGrid) {
      PAD = 10;
      W = board.cols * CELL; H = board.rows * CELL;
      for (const p of places) pos.push([PAD + p.x * W, PAD + p.y * H]);
      // Labels grow with the board (its cells are smaller on screen) up to what a cell holds
      // beside its mark; a big board is seen through a window, its cells never small.
      const grow = Math.sqrt(Math.min(WumpusView.BIG_SIDE, Math.max(5, board.rows, board.cols)) / 5);
      const longest = String(board.rows - 1).length + 1 + String(board.cols - 1).length;
      FONT = {label: Math.min(34 * grow, 0.76 * (CELL - 32) / (0.62 * longest)), mark: 76, small: 25 * Math.min(grow, 1.2)};
    } else {
      const S = 1000;
      PAD = 90;
      W = S; H = S;
      for (const p of spread(places.map((p) => [p.x, p.y]), board.edges)) {
        pos.push([PAD + p[0] * S, PAD + p[1] * S]);
      }
      let least = Infinity;
      for (let i = 0; i < pos.length; i++) for (let j = i + 1; j < pos.length; j++) {
        least = Math.min(least, Math.hypot(pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]));
      }
      // A narrow screen (a phone) shrinks the drawing: bigger rooms and labels there.
      const narrow = typeof matchMedia === "function" && matchMedia("(max-width: 700px)").matches;
      R = Math.max(18, Math.min(narrow ? 62 : 46, (narrow ? 0.4 : 0.3) * least));
      FONT = {label: Math.max(21, Math.min(29, R * 0.75)) * (narrow ? 1.6 : 1), mark: R * 1.05,
        small: Math.max(16, R * 0.5)};
    }

    // What the agent knows at step n (1-based), and what it has perceived where.
    function knowledge(steps, n) {
      const s = steps[n - 1];
      const k = {
        s, visited: setOf(s.visited), safe: setOf(s.proven_safe), pit: setOf(s.proven_pit),
        wumpus: setOf(s.proven_wumpus), bats: setOf(s.proven_bats), odds: new Map(),
        dead: new Set(), percepts: new Map(), changed: setOf(s.learned.map((l) => l.place)),
        at: setOf(s.at === null ? [] : [s.at]), where: new Map(),
      };
      for (const o of s.odds) for (const i of indices(o.place)) k.odds.set(i, o);
      // Odds the agent gave only with its choices (the grid's frontier cells).
      for (const c of s.choices) {
        if (c.place === null || (c.pit === null && c.wumpus === null)) continue;
        for (const i of indices(c.place)) {
          if (!k.odds.has(i)) k.odds.set(i, {place: c.place, pit: c.pit || 0, wumpus: c.wumpus || 0, bats: 0, death: c.risk || 0, because: c.because});
        }
      }
      for (const w of s.whereabouts || []) for (const i of indices(w.place)) k.where.set(i, w.chance);
      for (let j = 0; j < n; j++) {
        const t = steps[j];
        const seen = t.percepts.filter((p) => p !== "bump" && p !== "scream");
        for (const i of indices(t.at)) k.percepts.set(i, seen);
        // A place the player stood in and lived is visited, whatever the agent's lists say
        // (the maze's agent keeps none); the place of a fatal move (`final`) is not.
        if (!t.final) for (const i of indices(t.at)) k.visited.add(i);
      }
      // A wumpus the agent proved and then killed: the last place it was proven.
      if (!s.wumpus_alive) {
        for (let j = n - 1; j >= 0; j--) {
          if (steps[j].proven_wumpus.length) {
            for (const i of setOf(steps[j].proven_wumpus)) if (!k.wumpus.has(i)) k.dead.add(i);
            break;
          }
        }
      }
      return k;
    }

    // What the board asserts of place i at this step, from this step's knowledge only: a place
    // once stood in or proven safe that this step's odds give a chance of death (a cave's
    // wumpus woke and may have walked in) is drawn by its odds, not as safe.
    function status(k, i) {
      if (k.wumpus.has(i) || k.dead.has(i)) return "wumpus";
      if (k.pit.has(i)) return "pit";
      if (k.bats.has(i)) return "bats";
      if (k.odds.has(i) && risk(k.odds.get(i)) > 0) return "odds";
      if (k.visited.has(i)) return "visited";
      if (k.safe.has(i)) return "safe";
      if (k.odds.has(i)) return "odds";
      return "unknown";
    }

    function truthAt(hidden, i) {
      const label = places[i].label, out = [];
      const has = (list) => (list || []).includes(label);
      if (has(hidden.pits)) out.push("pit");
      if (has(hidden.wumpus)) out.push("wumpus");
      if (has(hidden.dead_wumpus)) out.push(isGrid ? "dead W" : "dead wumpus");
      if (has(hidden.bats)) out.push("bats");
      if (has(hidden.gold)) out.push("gold");
      if (hidden.start === label) out.push("start");
      return out;
    }

    function tip(k, i, st) {
      const p = places[i];
      let t = p.label + ": " + ({unknown: "unknown", visited: "visited", safe: "proven safe",
        pit: "proven pit", wumpus: k.dead.has(i) ? "the wumpus, dead" : "proven wumpus",
        bats: "proven bats", odds: "not proven either way"})[st];
      const o = k.odds.get(i);
      if (o) t += "\n" + pct(risk(o)) + " " + RISK + " (a pit " + pct(o.pit) + ", a live wumpus " + pct(o.wumpus) +
        (isGrid ? "" : ", bats " + pct(o.bats)) + ")";
      const seen = k.percepts.get(i);
      if (seen && seen.length) t += "\nperceived here: " + seen.join(", ");
      else if (seen) t += "\nperceived here: nothing";
      return t;
    }

    // A big grid is seen through a window (view.js); a small grid or a graph is drawn whole.
    const big = isGrid && Math.max(board.rows, board.cols) > WumpusView.BIG_SIDE;
    const view = WumpusView.Window({W, H, PAD, CELL, rows: board.rows, cols: board.cols, big});
    const token = {};

    // The SVG's layers, built once per board, with its markers (and, for a big grid, the tile
    // that paints its unknown cells from afar).
    function frame(svg) {
      const uid = svg.id || "board";
      const defs = "<marker id=\"head-edge-" + uid + "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" " +
        "markerHeight=\"5\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#b06a2b\"/></marker>" +
        "<marker id=\"head-move-" + uid + "\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"3.2\" " +
        "markerHeight=\"3.2\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f3fbf\"/></marker>" +
        (big ? "<pattern id=\"cells-" + uid + "\" width=\"" + CELL + "\" height=\"" + CELL + "\" x=\"" + PAD + "\" y=\"" + PAD +
          "\" patternUnits=\"userSpaceOnUse\"><rect class=\"shape\" x=\"4\" y=\"4\" width=\"" + (CELL - 8) + "\" height=\"" +
          (CELL - 8) + "\" rx=\"12\" fill=\"" + FILL.unknown + "\"/></pattern>" : "");
      return WumpusView.frame(svg, token, defs, view);
    }

    // `target`: a place to ring (the live page's hint names it); `route`: the places of the
    // walk the hint plans there, from the player's place, to draw as a line.
    // Where each place is drawn when the map is not fogged; under fog, the places shown at
    // step n are drawn where `fogged` lays them out.
    const truePos = pos.map((q) => q.slice());
    const fogCache = new Map();
    // The places and tunnels the player has been shown by step n, and where to draw each:
    // each place first seen through a tunnel starts beside the place it was seen from, then
    // the drawing is relaxed, all from what was shown alone.
    function fogged(steps, n) {
      const key = n + ":" + steps.length;
      if (fogCache.has(key)) return fogCache.get(key);
      const seed = new Map(), from = new Map(), knownTunnels = new Set();
      const place = (i, a, tunnel) => {
        if (seed.has(i)) return;
        if (a === null || !seed.has(a)) { seed.set(i, [0.5 + 0.01 * seed.size, 0.5]); return; }
        const [ax, ay] = seed.get(a);
        const back = from.get(a);
        const base = back === undefined ? -Math.PI / 2 : Math.atan2(ay - seed.get(back)[1], ax - seed.get(back)[0]);
        const angle = base + (tunnel - 2) * (Math.PI / 3);
        seed.set(i, [ax + 0.2 * Math.cos(angle), ay + 0.2 * Math.sin(angle)]);
        from.set(i, a);
      };
      for (let j = 0; j < n; j++) {
        const t = steps[j];
        const here = indices(t.at);
        for (const i of here) place(i, null, 0);
        for (const x of t.exits || []) {
          if (x.to === null) continue;
          for (const b of indices(x.to)) {
            for (const a of here) { place(b, a, x.tunnel); knownTunnels.add(a + ">" + b); }
            if (!here.length) place(b, null, 0);
          }
        }
      }
      const order = Array.from(seed.keys());
      const at = new Map(order.map((i, j) => [i, j]));
      const edges = [];
      for (const e of knownTunnels) {
        const [a, b] = e.split(">").map(Number);
        if (a !== b) edges.push({from: at.get(a), to: at.get(b)});
      }
      let pts = order.map((i) => seed.get(i));
      if (pts.length >= 3) pts = spread(pts, edges, 150);
      else pts = pts.map((q, j) => [0.3 + 0.4 * j, 0.5]);
      const S = 1000, shownPlaces = new Map();
      order.forEach((i, j) => shownPlaces.set(i, [PAD + pts[j][0] * S, PAD + pts[j][1] * S]));
      const out = {shownPlaces, knownTunnels};
      fogCache.set(key, out);
      return out;
    }

    function drawBoard(svg, steps, n, hidden, showTruth, picked, target, route) {
      view.redraw = () => drawBoard(svg, steps, n, hidden, showTruth, picked, target, route);
      const f = frame(svg);
      // A map the player is never shown (the maze's), while the game goes on: only the places
      // the player has been shown (stood in, or seen named through a tunnel) and the tunnels
      // seen to join them, laid out from those alone.
      const fog = board.fog && !(showTruth && hidden);
      const {shownPlaces, knownTunnels} = fog ? fogged(steps, n) : {shownPlaces: null, knownTunnels: null};
      for (let i = 0; i < pos.length; i++) pos[i] = fog && shownPlaces.has(i) ? shownPlaces.get(i) : truePos[i];
      const k = knowledge(steps, n);
      // Once the world is shown, a wumpus killed is crossed out where it lies, proven or not.
      if (showTruth && hidden) for (const i of setOf(hidden.dead_wumpus)) { k.wumpus.delete(i); k.dead.add(i); }
      const s = k.s;
      const prev = n > 1 ? steps[n - 2] : null;
      const at = Array.from(k.at);
      const win = view.at(svg, at.length === 1 ? pos[at[0]] : null);
      if (!win) return;
      svg.setAttribute("viewBox", win.x.toFixed(1) + " " + win.y.toFixed(1) + " " + win.w.toFixed(1) + " " + win.h.toFixed(1));
      // How much of each place is drawn: all of it, or on a big board seen from afar only its
      // mark ("mid") or only its colour ("tiny"), so that labels never spill over marks.
      const lod = view.detail(win);
      const hiddenPlace = (i) => fog && !shownPlaces.has(i);
      svg.dataset.detail = lod;
      if (big) view.say(f.bar, win);
      const uid = f.uid;
      const layer = {};
      for (const l of WumpusView.LAYERS) layer[l] = new Map();
      const put = (l, i, html) => { if (html) layer[l].set(i, (layer[l].get(i) || "") + html); };
      // Edges of a graph.
      if (!isGrid) {
        let edges = "";
        for (const e of board.edges) {
          if (fog && !knownTunnels.has(e.from + ">" + e.to) &&
              !(e.both_ways && knownTunnels.has(e.to + ">" + e.from))) continue;
          const a = pos[e.from], b = pos[e.to];
          if (e.both_ways) {
            edges += "<line class=\"edge\" x1=\"" + a[0].toFixed(1) + "\" y1=\"" + a[1].toFixed(1) +
              "\" x2=\"" + b[0].toFixed(1) + "\" y2=\"" + b[1].toFixed(1) + "\"/>";
          } else {
            edges += arrowLine(a, b, R, R + 3, "edge oneway", uid).replace("<line", "<line data-oneway=\"" +
              esc(places[e.from].label) + " to " + esc(places[e.to].label) + "\"");
          }
        }
        put("edges", "all", edges);
      }
      if (lod === "tiny") {
        put("edges", "all", "<rect class=\"unknowns\" x=\"" + PAD + "\" y=\"" + PAD + "\" width=\"" + W + "\" height=\"" + H +
          "\" fill=\"url(#cells-" + uid + ")\"/>");
      }
      places.forEach((p, i) => {
        if (hiddenPlace(i) || !view.holds(win, pos[i])) return;
        const [x, y] = pos[i];
        const st = status(k, i);
        // From afar an unknown cell is the background's tile (thousands of them, one shape).
        if (lod === "tiny" && st === "unknown" && !(showTruth && hidden) && picked !== p.label) return;
        const o = k.odds.get(i);
        const danger = o ? risk(o) : 0;
        const fill = st === "odds" ? heat(danger) : FILL[st];
        const cls = "shape" + (k.changed.has(i) ? " changed" : "") + (picked === p.label ? " picked" : "");
        const title = lod === "tiny" ? "" : "<title>" + esc(tip(k, i, st)) + "</title>";
        const dead = k.dead.has(i);
        const sign = st === "odds" ? pct(danger) : MARK[st];
        const markCls = st + (dead ? " dead" : "") + (k.at.has(i) ? " agent" : "");
        const seen = (k.percepts.get(i) || []).map((q) => {
          const d = PERCEPT[q] || [q, "#6a7385", q[0].toUpperCase()];
          return {text: isGrid ? d[0] : d[2], color: d[1], title: d[0]};
        });
        const truth = showTruth && hidden ? truthAt(hidden, i) : [];
        if (isGrid) {
          const h = CELL / 2 - 4;
          put("shapes", i, "<rect class=\"" + cls + "\" data-place=\"" + esc(p.label) + "\" x=\"" + (x - h) + "\" y=\"" + (y - h) + "\" width=\"" +
            2 * h + "\" height=\"" + 2 * h + "\" rx=\"12\" fill=\"" + fill + "\">" + title + "</rect>");
          if (truth.length) put("over", i, "<rect class=\"truthring\" x=\"" + (x - h + 8) + "\" y=\"" +
            (y - h + 8) + "\" width=\"" + (2 * h - 16) + "\" height=\"" + (2 * h - 16) + "\" rx=\"8\"/>");
          if (lod === "full") put("texts", i, text(x - h + 12, y - h + 12 + FONT.label * 0.8, FONT.label, "label", esc(p.label)));
          if (lod !== "tiny") put("texts", i, mark(x, y + 2, st === "odds" ? FONT.mark * 0.62 : FONT.mark, markCls, p.label, esc(sign)));
          if (o && lod === "full") {
            const parts = [];
            if (o.pit > 0) parts.push("pit " + pct(o.pit));
            if (o.wumpus > 0) parts.push("W " + pct(o.wumpus));
            if (o.bats > 0) parts.push("bats " + pct(o.bats));
            if (parts.length && st === "odds") put("texts", i, text(x, y + FONT.mark * 0.55, FONT.small * 0.9, "chance", esc(parts.join("  "))));
          }
          if (lod === "full") put("badges", i, pills(seen, x, y + h - FONT.small * 1.0, FONT.small, 2 * h - 16));
          else if (seen.length) {
            // From afar a percept is a stripe along the cell's foot, in its colour.
            const w = (2 * h - 16) / seen.length;
            put("badges", i, seen.map((q, j) => "<rect x=\"" + (x - h + 8 + j * w) + "\" y=\"" + (y + h - 34) +
              "\" width=\"" + (w - 4) + "\" height=\"26\" fill=\"" + q.color + "\"/>").join(""));
          }
          if (lod === "full") truth.forEach((t, j) => {
            const z = FONT.small * 0.75, ty = y - h + 24 + j * z * 1.55, tw = t.length * z * 0.62 + 12;
            put("tags", i, "<g class=\"truth\"><rect x=\"" + (x + h - 8 - tw) + "\" y=\"" + (ty - z * 0.7) +
              "\" width=\"" + tw + "\" height=\"" + z * 1.4 + "\" rx=\"6\"/>" +
              text(x + h - 8 - tw / 2, ty, z, "", esc(t)) + "</g>");
          });
          if (dead) put("over", i, "<line class=\"cross\" x1=\"" + (x - 40) + "\" y1=\"" + (y - 40) + "\" x2=\"" +
            (x + 40) + "\" y2=\"" + (y + 40) + "\"/><line class=\"cross\" x1=\"" + (x + 40) + "\" y1=\"" +
            (y - 40) + "\" x2=\"" + (x - 40) + "\" y2=\"" + (y + 40) + "\"/>");
        } else {
          put("shapes", i, "<circle class=\"" + cls + "\" data-place=\"" + esc(p.label) + "\" cx=\"" + x.toFixed(1) + "\" cy=\"" + y.toFixed(1) +
            "\" r=\"" + R.toFixed(1) + "\" fill=\"" + fill + "\">" + title + "</circle>");
          if (truth.length) put("over", i, "<circle class=\"truthring\" cx=\"" + x.toFixed(1) + "\" cy=\"" +
            y.toFixed(1) + "\" r=\"" + (R + 9).toFixed(1) + "\"/>");
          put("texts", i, mark(x, y + 1, st === "odds" ? FONT.mark * 0.55 : FONT.mark * 0.85, markCls, p.label, esc(sign)));
          const lines = wrap(p.label);
          lines.forEach((line, j) => {
            const ly = y + R + FONT.label * (0.95 + 1.0 * j);
            put("texts", i, text(x, ly, FONT.label, "label halo", esc(line), " text-anchor=\"middle\""));
            put("texts", i, text(x, ly, FONT.label, "label", esc(line), " text-anchor=\"middle\""));
          });
          if (o && st === "odds" && o.bats >= 0.1 && o.bats > danger) {
            seen.push({text: "B " + pct(o.bats), color: "#b48ad6", title: "chance of bats " + pct(o.bats)});
          }
          put("badges", i, pills(seen, x, y - R - FONT.small * 0.9, FONT.small));
          truth.forEach((t, j) => {
            const tw = t.length * FONT.small * 0.6 + 10, tx = x + R + 6, ty = y - R * 0.5 + j * FONT.small * 1.3;
            put("tags", i, "<g class=\"truth\"><rect x=\"" + tx.toFixed(1) + "\" y=\"" + (ty - FONT.small * 0.6).toFixed(1) +
              "\" width=\"" + tw.toFixed(1) + "\" height=\"" + (FONT.small * 1.2).toFixed(1) + "\" rx=\"5\"/>" +
              text(tx + tw / 2, ty, FONT.small * 0.85, "", esc(t)) + "</g>");
          });
          if (dead) {
            const c = R * 0.75;
            put("over", i, "<line class=\"cross\" x1=\"" + (x - c) + "\" y1=\"" + (y - c) + "\" x2=\"" + (x + c) +
              "\" y2=\"" + (y + c) + "\"/><line class=\"cross\" x1=\"" + (x + c) + "\" y1=\"" + (y - c) +
              "\" x2=\"" + (x - c) + "\" y2=\"" + (y + c) + "\"/>");
          }
          const w = k.where.get(i);
          if (w !== undefined && !k.at.has(i)) put("over", i, "<circle class=\"where\" cx=\"" + x.toFixed(1) +
            "\" cy=\"" + y.toFixed(1) + "\" r=\"" + (R + 8).toFixed(1) + "\"><title>may be here: " +
            pct(w) + "</title></circle>");
        }
      });
      let ring = "";
      for (const i of indices(target)) {
        if (hiddenPlace(i)) continue;
        const [x, y] = pos[i];
        const h = isGrid ? CELL / 2 - 14 : R + 14;
        ring += (isGrid
          ? "<rect class=\"hinttarget\" x=\"" + (x - h) + "\" y=\"" + (y - h) + "\" width=\"" + 2 * h +
            "\" height=\"" + 2 * h + "\" rx=\"10\""
          : "<circle class=\"hinttarget\" cx=\"" + x.toFixed(1) + "\" cy=\"" + y.toFixed(1) + "\" r=\"" + h.toFixed(1) + "\"") +
          " data-target=\"" + esc(places[i].label) + "\"><title>the hint's target</title>" + (isGrid ? "</rect>" : "</circle>");
      }
      const walk = (route || []).flatMap((l) => indices(l)).filter((i) => !hiddenPlace(i));
      if (walk.length > 1) {
        ring = "<polyline class=\"hintroute\" data-route=\"" + esc(route.join(" ")) + "\" points=\"" +
          walk.map((i) => pos[i][0].toFixed(1) + "," + pos[i][1].toFixed(1)).join(" ") +
          "\"><title>the hint's route: " + esc(route.join(", ")) + "</title></polyline>" + ring;
      }
      put("target", "all", ring);
      // The move into this step.
      if (prev && prev.at !== null && s.at !== null && prev.at !== s.at) {
        const from = indices(prev.at), to = indices(s.at);
        if (from.length === 1 && to.length === 1) {
          const a = pos[from[0]], b = pos[to[0]];
          const joined = isGrid || board.edges.some((e) =>
            (e.from === from[0] && e.to === to[0]) || (e.from === to[0] && e.to === from[0]));
          const gap = isGrid ? CELL * 0.24 : R + 12;
          put("move", "all", arrowLine(a, b, gap, gap + 14, "movehalo", uid) + arrowLine(a, b, gap, gap + 14, "move" + (joined ? "" : " jump"), uid));
        }
      }
      // The player.
      let you = "";
      for (const i of k.at) {
        const [x, y] = pos[i];
        if (isGrid) {
          const h = CELL / 2 - 4;
          // From afar the player is also ringed wide, so that it is found at a glance.
          if (lod !== "full") you += "<circle class=\"youfar\" cx=\"" + x + "\" cy=\"" + y + "\" r=\"" + CELL * 1.6 + "\"/>";
          you += "<rect class=\"youring\" x=\"" + (x - h + 2) + "\" y=\"" + (y - h + 2) + "\" width=\"" +
            (2 * h - 4) + "\" height=\"" + (2 * h - 4) + "\" rx=\"12\"/>";
          you += "<circle class=\"token\" cx=\"" + x + "\" cy=\"" + y + "\" r=\"" + CELL * 0.2 + "\"/>";
          const face = (s.facing || "").toLowerCase()[0];
          const turn = {n: 0, e: 90, s: 180, w: 270}[face];
          if (turn !== undefined) {
            you += "<path class=\"facing\" d=\"M0,-26 L15,6 L-15,6 z\" transform=\"translate(" + x + "," +
              y + ") rotate(" + turn + ")\"/>";
          } else if (lod === "full") {
            you += text(x, y + 1, CELL * 0.13, "you", "you",
              " fill=\"#fff\" text-anchor=\"middle\" dominant-baseline=\"central\" font-weight=\"700\"");
          }
        } else {
          you += "<circle class=\"youring\" cx=\"" + x.toFixed(1) + "\" cy=\"" + y.toFixed(1) + "\" r=\"" +
            (R + 7).toFixed(1) + "\"/>";
          you += "<circle class=\"token\" cx=\"" + x.toFixed(1) + "\" cy=\"" + y.toFixed(1) + "\" r=\"" +
            (R * 0.55).toFixed(1) + "\"/>";
        }
      }
      put("you", "all", you);
      for (const l of WumpusView.LAYERS) WumpusView.paint(f, l, layer[l]);
    }

    function drawPanel(steps, n, opts) {
      opts = opts || {};
      const s = steps[n - 1];
      const shot = rules === "maze" ? ["grenade", "grenades"] : ["arrow", "arrows"];
      let h = "<h2>Step " + n + "</h2>";
      const where = [];
      if (s.at !== null) where.push("At <b>" + esc(s.at) + "</b>" + (s.facing ? ", facing " + esc(s.facing) : ""));
      else where.push("Where the player is is not certain");
      if (s.arrows !== null) where.push(plural(s.arrows, shot[0], shot[1]) + " left");
      where.push(plural(s.moves, "move", "moves") + " so far");
      h += "<div>" + where.join("; ") + ".</div>";
      if (s.exits.length) {
        h += "<div>Tunnels: " + s.exits.map((e) => e.tunnel + " &rarr; " +
          (e.to === null ? "?" : esc(e.to))).join(", ") + "</div>";
      }
      if (s.entries.length) h += "<div>One-way tunnels in from: " + s.entries.map(esc).join(", ") + "</div>";
      if (s.whereabouts && s.whereabouts.length) {
        h += "<div>May be in: " + s.whereabouts.map((w) => esc(w.place) + " " + pct(w.chance)).join(", ") + "</div>";
      }
      h += "<div>Perceives: " + percepts(s.percepts) + "</div>";
      if (s.messages.length && opts.messages !== false) {
        h += "<h2>The game said</h2><div class=\"said\">" + s.messages.map(esc).join("<br>") + "</div>";
      }
      if (opts.action !== false && s.action !== null && s.action !== undefined) {
      h += "<h2>The agent's action</h2><div class=\"action\"><b>" + esc(s.action) + "</b> <span class=\"rule\">(" +
        esc(s.rule.replace(/_/g, " ")) + ")</span></div>";
      h += "<div class=\"why\">Why: " + esc(s.reason) + "</div>";
      if (s.depth !== null && s.depth !== undefined) h += "<div class=\"none\">searched " + plural(s.depth, "action", "actions") + " deep</div>";
      }
      h += "<h2>Proved this step</h2>";
      if (s.learned.length) {
        h += "<ul>" + s.learned.map((l) => "<li><b>" + esc(l.place) + "</b> " + esc(FACT[l.fact] || l.fact) +
          (l.because.length ? "<div class=\"because\">because " + l.because.map(esc).join("; ") + "</div>" : "") +
          "</li>").join("") + "</ul>";
      } else h += "<div class=\"none\">nothing new</div>";
      if (s.proven_ways && s.proven_ways.length) {
        // The maze without its map: what is proven of each way on from here.
        h += "<h2>Proven of the ways on</h2><ul class=\"ways\">" +
          s.proven_ways.map((w) => "<li>" + esc(w) + "</li>").join("") + "</ul>";
      }
      if (opts.action !== false && s.choices.length) {
        const cols = [["expected", "expected"], ["risk", "to die"], ["pit", "pit"], ["wumpus", "wumpus"], ["kill", "kill"]]
          .filter((c) => s.choices.some((x) => x[c[0]] !== null && x[c[0]] !== undefined));
        h += "<h2>Choices weighed</h2><table class=\"choices\"><tr><th>choice</th>" +
          cols.map((c) => "<th>" + c[1] + "</th>").join("") + "</tr>";
        for (const c of s.choices) {
          h += "<tr" + (c.chosen ? " class=\"chosen\"" : "") + "><td>" + (c.chosen ? "&#9654; " : "") + esc(c.what) + "</td>" +
            cols.map((col) => {
              const v = c[col[0]];
              if (v === null || v === undefined) return "<td></td>";
              if (col[0] === "expected") return "<td>" + (c.expected_is_bound ? "&le; " : "") + v.toFixed(1) + "</td>";
              return "<td>" + pct(v) + "</td>";
            }).join("") + "</tr>";
        }
        h += "</table>";
      }
      if (s.odds.length) {
        const top = s.odds.slice().sort((a, b) => risk(b) - risk(a));
        const grid = isGrid;
        h += "<details><summary>Odds at " + plural(s.odds.length, "place", "places") + " logic leaves open</summary>" +
          "<table class=\"choices\"><tr><th>place</th><th>to die</th><th>pit</th><th>wumpus</th>" + (grid ? "" : "<th>bats</th>") + "</tr>" +
          top.map((o) => "<tr><td>" + esc(o.place) + "</td><td>" + pct(risk(o)) + "</td><td>" + pct(o.pit) + "</td><td>" + pct(o.wumpus) + "</td>" +
            (grid ? "" : "<td>" + pct(o.bats) + "</td>") + "</tr>").join("") + "</table></details>";
      }
      if (opts.end && n === steps.length && !s.final && opts.end.messages.length) {
        h += "<h2>Then the game said</h2><div class=\"said\">" + opts.end.messages.map(esc).join("<br>") + "</div>";
      }
      return h;
    }

    function legend() {
      const sw = (c, t) => "<span><span class=\"sw\" style=\"background:" + c + "\"></span>" + t + "</span>";
      const grid = isGrid;
      let l = "<span><b style=\"color:#1f3fbf\">&#11044;</b> the player (blue ring), arrow: the last move</span>";
      l += sw(FILL.visited, "visited") + sw(FILL.safe, "proven safe &#10003;") + sw(FILL.pit, "proven pit P") +
        sw(FILL.wumpus, "proven wumpus W (crossed out: dead)") + (grid ? "" : sw(FILL.bats, "proven bats B")) +
        sw(FILL.unknown, "unknown ?") +
        "<span><span class=\"sw\" style=\"background:linear-gradient(90deg," + heat(0.05) + "," + heat(0.5) + "," + heat(1) +
        ")\"></span>where logic runs out: the chance " + RISK + "</span>" +
        "<span><span class=\"sw\" style=\"border:3px solid #f0a400\"></span>proved this step</span>" +
        "<span><span class=\"sw\" style=\"border:3px dashed #c99a00\"></span>the hint's target, and a gold line: " +
        "the walk it plans there</span>";
      const ps = grid ? ["breeze", "stench", "glitter"] : ["draft", "stench", "bats"];
      l += "<span>perceived: " + ps.map((p) => "<span class=\"pill\" style=\"background:" + PERCEPT[p][1] + "\">" +
        (grid ? PERCEPT[p][0] : PERCEPT[p][2]) + "</span>" + (grid ? "" : p)).join(" ") + "</span>";
      l += "<span><span class=\"sw\" style=\"border:2px dashed #c01818\"></span>the hidden world (revealed)</span>";
      if (!grid && board.edges.some((e) => !e.both_ways)) l += "<span style=\"color:#8f5220\">- - &#9654; one-way tunnel</span>";
      return l;
    }

    // Why a place is what the board shows at step n: the proof (the observations it rests
    // on, from the step that proved it), or its odds, and what was perceived there.
    function explain(steps, n, label) {
      const is = indices(label);
      if (!is.length || !steps.length) return "";
      n = Math.max(1, Math.min(steps.length, n));
      const k = knowledge(steps, n), i = is[0], st = status(k, i);
      let h = "<h2>" + esc(label) + "</h2><div>" + esc(tip(k, i, st)).replace(/\n/g, "<br>") + "</div>";
      // The proof of what this step asserts: the latest step that proved this very fact of
      // this place (a proof of safety made before the wumpus woke is not shown once the
      // place is open again).
      const fact = {safe: "safe", visited: "safe", pit: "pit", wumpus: "wumpus", bats: "bats"}[st];
      let proof = null;
      for (let j = n - 1; j >= 0 && !proof && fact; j--) {
        for (const l of steps[j].learned) if (l.place === label && l.fact === fact) { proof = {l, step: j + 1}; break; }
      }
      if (proof && (st !== "visited" || k.safe.has(i))) {
        const l = proof.l;
        h += "<div class=\"why\">Proved at step " + proof.step + ": " + esc(label) + " " +
          esc(FACT[l.fact] || l.fact) + (l.because.length ? ", because " + l.because.map(esc).join("; ") : "") + ".</div>";
      } else if (st === "visited") {
        h += "<div class=\"why\">Safe: the player has stood here.</div>";
      } else if (st === "odds") {
        const o = k.odds.get(i);
        h += "<div class=\"why\" data-risk=\"" + pct(risk(o)) + "\">Logic leaves this place open: " + pct(risk(o)) + " " + RISK +
          ", counted exactly over every hazard layout that fits what was perceived.";
        if (o.because && o.because.length) {
          h += " <span class=\"drivers\">Driven by: " + o.because.map(esc).join("; ") + ".</span>";
        } else if (o.because) {
          h += " <span class=\"drivers\">No percept reaches it: its odds follow from how the game deals hazards and from what was ruled out elsewhere.</span>";
        }
        h += "</div>";
      } else if (st === "unknown") {
        h += "<div class=\"why\">Nothing is known of this place yet.</div>";
      }
      return h;
    }

    return {
      draw: drawBoard, panel: drawPanel, legend, explain, isGrid, places, zoom: view.zoom, big,
      knowledge: (steps, n) => knowledge(steps, n),
    };
  }

  // A whole traced game replayed: `data` is {start, board, steps, end}; `el` holds the page's
  // elements (svg, slider, counter, reveal, first, prev, play, next, last, now, outcome,
  // legend, explain); `opts.hash` keeps #step=N in the address; `opts.active()` says whether
  // the keyboard is this replay's.
  function Replay(drawing, data, el, opts) {
    opts = opts || {};
    const steps = data.steps, end = data.end, hidden = end.hidden;
    let picked = null;
    const current = () => parseInt(el.slider.value, 10);
    function render(n) {
      n = Math.max(1, Math.min(steps.length, n || 1));
      el.slider.value = n;
      const ended = el.reveal.checked || n === steps.length;
      drawing.draw(el.svg, steps, n, hidden, ended, picked);
      el.now.innerHTML = drawing.panel(steps, n, {end});
      if (el.explain) el.explain.innerHTML = picked === null ? "" : drawing.explain(steps, n, picked);
      // How the game ends is shown with its last step (or once the hidden world is revealed).
      el.outcome.hidden = !ended;
      el.outcome.textContent = ended ? outcomeText(end, data.start.game.rules) : "";
      el.outcome.className = "outcome " + outcomeClass(end);
      el.counter.textContent = "Step " + n + " of " + steps.length;
      document.body.dataset.step = String(n);
      if (opts.hash && location.hash !== "#step=" + n) history.replaceState(null, "", "#step=" + n);
    }
    let timer = null;
    // Steps a second while playing: the speed control's (`el.speed`, a select of numbers, 0
    // for as fast as the board repaints), or one a second.
    const speed = () => (el.speed ? Number(el.speed.value) : 1);
    function play(on) {
      if (timer) { timer.stop(); timer = null; }
      if (on) {
        if (current() >= steps.length) render(1);
        const next = () => {
          if (current() >= steps.length) { play(false); return false; }
          render(current() + 1);
          return true;
        };
        if (speed() > 0) {
          const id = setInterval(next, 1000 / speed());
          timer = {stop: () => clearInterval(id)};
        } else {
          // As fast as the board repaints: one step a frame.
          let frame = 0, running = true;
          const loop = () => { if (running && next()) frame = requestAnimationFrame(loop); };
          frame = requestAnimationFrame(loop);
          timer = {stop: () => { running = false; cancelAnimationFrame(frame); }};
        }
      }
      el.play.textContent = timer ? "pause" : "play";
      el.play.setAttribute("aria-pressed", timer ? "true" : "false");
    }
    if (el.speed) el.speed.onchange = () => { if (timer) { play(false); play(true); } };
    el.slider.min = 1;
    el.slider.max = steps.length;
    el.slider.oninput = () => { play(false); render(current()); };
    el.first.onclick = () => { play(false); render(1); };
    el.prev.onclick = () => { play(false); render(current() - 1); };
    el.next.onclick = () => { play(false); render(current() + 1); };
    el.last.onclick = () => { play(false); render(steps.length); };
    el.play.onclick = () => play(!timer);
    el.reveal.onchange = () => render(current());
    el.svg.onclick = (e) => {
      const shape = e.target.closest && e.target.closest("[data-place]");
      picked = shape ? shape.getAttribute("data-place") : null;
      render(current());
    };
    document.addEventListener("keydown", (e) => {
      if (opts.active && !opts.active()) return;
      if (e.target.tagName === "INPUT" && e.target.type !== "checkbox" && e.key !== " ") return;
      if (e.target.tagName === "SELECT" || e.target.tagName === "BUTTON" && e.key === " ") return;
      if (e.key === "ArrowLeft") { play(false); render(current() - 1); e.preventDefault(); }
      else if (e.key === "ArrowRight") { play(false); render(current() + 1); e.preventDefault(); }
      else if (e.key === "Home") { play(false); render(1); e.preventDefault(); }
      else if (e.key === "End") { play(false); render(steps.length); e.preventDefault(); }
      else if (e.key === " ") { play(!timer); e.preventDefault(); }
      else if (WumpusView.ZOOM_KEYS[e.key] && drawing.big) { drawing.zoom(WumpusView.ZOOM_KEYS[e.key]); e.preventDefault(); }
    });
    el.legend.innerHTML = drawing.legend();
    return {render, play, current, stop: () => play(false)};
  }

  // The game in a line: the rule set, where it came from, the agent, its setup.
  function subtitle(st) {
    return [
      st.described,
      st.seed === null ? "a game from a file" : "seed " + st.seed,
      "the " + st.game.agent + " agent playing",
    ].filter((x) => x).join(" · ");
  }

  return {Drawing, Replay, subtitle, outcomeText, outcomeClass, esc, pct, plural, PERCEPT, ZOOM_KEYS: WumpusView.ZOOM_KEYS, RISK, risk};
})();
