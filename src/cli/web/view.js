"use strict";
// How a board is put on screen, for the drawing of board.js (embedded before it in every
// page): a big grid seen through a window that follows the player, which the user zooms
// (buttons, wheel, + and -) and pans (drag); how much of each place to draw at the window's
// scale; and the SVG's layers, where each place's part of each layer is a group kept with the
// markup it was built from, so that a step repaints only the places whose drawing changed.
// It knows geometry and the DOM, never the game: what to draw comes from board.js.
const WumpusView = (() => {
  // A grid with a side over BIG_SIDE is seen through a window BIG_SPAN cells across
  // (BIG_SPAN_NARROW on a screen under 600 px) until zoomed. Seen from afar (a cell under
  // LOD_FULL_PX pixels across) a place shows its mark and no label; under LOD_MID_PX only its
  // colour. The window recentres on the player when it comes within EDGE_CELLS of its edge.
  const BIG_SIDE = 16, BIG_SPAN = 16, BIG_SPAN_NARROW = 9, LOD_FULL_PX = 44, LOD_MID_PX = 18;
  const EDGE_CELLS = 2.5;
  // The keys that zoom a big board.
  const ZOOM_KEYS = {"+": "in", "=": "in", "-": "out", "0": "fit", ".": "player"};
  // The SVG's layers, bottom to top.
  const LAYERS = ["edges", "shapes", "over", "target", "you", "texts", "badges", "move", "tags"];

  // The window on a board of `geo` ({W, H, PAD, CELL, rows, cols, big}, in the SVG's units);
  // `redraw` is set by the drawing to draw again after a zoom or a pan.
  function Window(geo) {
    const {W, H, PAD, CELL, big} = geo;
    const view = {span: null, cx: null, cy: null, follow: true, aspect: null, redraw: null};

    // The part of the board in view, shaped as the SVG is on screen, recentred on `focus` (the
    // player's centre) when following; null for a big board out of sight (another tab of the
    // page), which waits until it is shown.
    view.at = (svg, focus) => {
      const full = {x: 0, y: 0, w: W + 2 * PAD, h: H + 2 * PAD};
      const cw = svg.clientWidth, ch = svg.clientHeight;
      if (!big) return {...full, cw, ch};
      if (!cw || !ch) return null;
      view.aspect = cw / ch;
      if (view.span === null) view.span = Math.min(geo.cols, cw < 600 ? BIG_SPAN_NARROW : BIG_SPAN);
      const w = view.span * CELL, h = w * ch / cw;
      const edge = EDGE_CELLS * CELL;
      if (focus && (view.cx === null || (view.follow &&
          (Math.abs(focus[0] - view.cx) > w / 2 - edge || Math.abs(focus[1] - view.cy) > h / 2 - edge)))) {
        view.cx = focus[0];
        view.cy = focus[1];
      }
      if (view.cx === null) { view.cx = full.w / 2; view.cy = full.h / 2; }
      const clamp = (c, size, room) => size >= room ? room / 2 : Math.max(size / 2, Math.min(room - size / 2, c));
      view.cx = clamp(view.cx, w, full.w);
      view.cy = clamp(view.cy, h, full.h);
      return {x: view.cx - w / 2, y: view.cy - h / 2, w, h, cw, ch};
    };

    // How much of each place to draw in window `win`: "full", "mid" (its mark) or "tiny" (its
    // colour), so that labels never spill over marks.
    view.detail = (win) => {
      if (!big) return "full";
      const px = CELL * win.cw / win.w;
      return px >= LOD_FULL_PX ? "full" : px >= LOD_MID_PX ? "mid" : "tiny";
    };

    // True when the place centred at `pos` is in window `win` or a cell around it.
    view.holds = (win, pos) => !big || (pos[0] > win.x - CELL && pos[0] < win.x + win.w + CELL &&
      pos[1] > win.y - CELL && pos[1] < win.y + win.h + CELL);

    // Says in `bar` which rows and columns are in view, and whether it follows the player.
    view.say = (bar, win) => {
      const col = (x) => Math.max(0, Math.min(geo.cols - 1, Math.floor((x - PAD) / CELL)));
      const row = (y) => Math.max(0, Math.min(geo.rows - 1, geo.rows - 1 - Math.floor((y - PAD) / CELL)));
      bar.querySelector(".shown").textContent = "rows " + row(win.y + win.h) + " to " + row(win.y) +
        ", columns " + col(win.x) + " to " + col(win.x + win.w) + " of " + geo.rows + "x" + geo.cols +
        (view.follow ? "; following the player" : "");
      bar.querySelector("[data-zoom=player]").classList.toggle("on", view.follow);
    };

    // Zooms: "in", "out", "fit" (the whole board), "player" (follow the player again), or
    // anything else to draw again as it is (the SVG was resized).
    view.zoom = (how) => {
      if (!big || !view.redraw) return;
      // The span that shows the whole board, however the SVG is shaped.
      const most = Math.max(W + 2 * PAD, (H + 2 * PAD) * (view.aspect || 1)) / CELL;
      if (view.span === null) view.span = BIG_SPAN;
      if (how === "in") view.span = Math.max(4, view.span / 1.5);
      else if (how === "out") view.span = Math.min(most, view.span * 1.5);
      else if (how === "fit") view.span = most;
      else if (how === "player") { view.follow = true; view.cx = null; }
      view.redraw();
    };

    // Pans by (dx, dy) screen pixels of `svg`; the window stops following the player.
    view.pan = (svg, dx, dy) => {
      if (!svg.clientWidth || view.cx === null) return;
      const r = (view.span * CELL) / svg.clientWidth;
      view.follow = false;
      view.cx -= dx * r;
      view.cy -= dy * r;
      if (view.redraw) view.redraw();
    };
    view.big = big;
    return view;
  }

  // The board's own controls (zoom and follow), the wheel and dragging: set up once per SVG.
  function controls(svg, big) {
    let bar = svg.previousElementSibling;
    if (!bar || !bar.classList.contains("zoombar")) {
      bar = document.createElement("div");
      bar.className = "zoombar";
      bar.innerHTML = "<span>zoom</span><button type=\"button\" data-zoom=\"out\" title=\"zoom out (-)\">&minus;</button>" +
        "<button type=\"button\" data-zoom=\"in\" title=\"zoom in (+)\">+</button>" +
        "<button type=\"button\" data-zoom=\"fit\" title=\"the whole board (0)\">whole board</button>" +
        "<button type=\"button\" data-zoom=\"player\" title=\"follow the player (.)\">follow the player</button>" +
        "<span class=\"shown\"></span>";
      svg.before(bar);
      bar.addEventListener("click", (e) => {
        const b = e.target.closest("[data-zoom]");
        if (b && svg._wumpus) svg._wumpus.view.zoom(b.dataset.zoom);
      });
      svg.addEventListener("wheel", (e) => {
        if (!svg._wumpus || !svg._wumpus.view.big) return;
        e.preventDefault();
        svg._wumpus.view.zoom(e.deltaY < 0 ? "in" : "out");
      }, {passive: false});
      let drag = null;
      svg.addEventListener("pointerdown", (e) => {
        if (!svg._wumpus || !svg._wumpus.view.big || e.button !== 0) return;
        drag = {x: e.clientX, y: e.clientY, moved: false, id: e.pointerId};
      });
      window.addEventListener("pointermove", (e) => {
        if (!drag || e.pointerId !== drag.id || !svg._wumpus) return;
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) < 6) return;
        drag.moved = true;
        svg._wumpus.view.pan(svg, dx, dy);
        drag.x = e.clientX;
        drag.y = e.clientY;
      });
      // A drag is not a click on the place it ends on.
      let dragged = -Infinity;
      window.addEventListener("pointerup", (e) => {
        if (!drag || e.pointerId !== drag.id) return;
        if (drag.moved) dragged = performance.now();
        drag = null;
      });
      svg.addEventListener("click", (c) => {
        if (performance.now() - dragged < 400) c.stopPropagation();
      }, {capture: true});
      if (typeof ResizeObserver === "function") {
        new ResizeObserver(() => { if (svg._wumpus && svg._wumpus.view.big) svg._wumpus.view.zoom("same"); }).observe(svg);
      }
    }
    bar.hidden = !big;
    svg.classList.toggle("zoomable", big);
    return bar;
  }

  // The SVG's layers, built once per board (`owner`: the drawing's token), after `defs`; kept
  // on the SVG with the window `view` its controls act on.
  function frame(svg, owner, defs, view) {
    const f = svg._wumpus;
    if (f && f.owner === owner && f.layer.shapes.parentNode === svg) return f;
    svg.innerHTML = "<defs>" + defs + "</defs>" + LAYERS.map((l) => "<g class=\"layer-" + l + "\"></g>").join("");
    const g = {owner, uid: svg.id || "board", view, layer: {}, kept: {}, bar: controls(svg, view.big)};
    for (const l of LAYERS) {
      g.layer[l] = svg.querySelector(".layer-" + l);
      g.kept[l] = new Map();
    }
    svg._wumpus = g;
    return g;
  }

  // Puts `parts` (place index, or "all", to markup) into a layer, touching only what changed.
  function paint(f, layer, parts) {
    const kept = f.kept[layer], g = f.layer[layer];
    for (const [i, rec] of kept) {
      if (!parts.has(i)) { rec.el.remove(); kept.delete(i); }
    }
    // Parts come in place order, and the groups stay in it: a new one goes after the last
    // group before it, so a board drawn step by step is the board drawn at once.
    let last = null;
    for (const [i, html] of parts) {
      const rec = kept.get(i);
      if (rec) {
        if (rec.html !== html) { rec.el.innerHTML = html; rec.html = html; }
        last = rec.el;
      } else {
        const el = document.createElementNS(g.namespaceURI, "g");
        el.innerHTML = html;
        if (last) last.after(el);
        else g.prepend(el);
        kept.set(i, {el, html});
        last = el;
      }
    }
  }

  return {BIG_SIDE, ZOOM_KEYS, LAYERS, Window, frame, paint};
})();
