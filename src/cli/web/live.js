"use strict";
// The live page's own code: the game form, the player's actions (compass keys and buttons,
// a heading's turns, clicks on rooms, tunnel numbers), hints, explanations of a clicked place,
// and the agent's own game replayed. Everything it draws goes through the shared drawing
// (WumpusDraw, from board.js); the server's API is in docs/live-page.md.
//
// It holds no rule set's name and no option of its own: the form, its menus and defaults, the
// goal and the controls come from the library's catalogue (GET /api/catalogue), each rule set
// naming how its player gives actions (its `input`: compass, heading, rooms or tunnels).
(() => {
  const $ = (id) => document.getElementById(id);
  const {esc} = WumpusDraw;
  const game = {id: null, rules: null, rule: null, start: null, drawing: null, steps: [],
    end: null, picked: null, aim: [], armed: null, busy: false, view: "play", replay: null,
    queue: []};
  // Seconds a closed tab's game is kept, in case the tab was only reloaded.
  const GRACE = 5;
  // The library's catalogue, with the server's part (`door`): files, refusals, limits.
  let catalogue = null;
  const ruleOf = (name) => catalogue && catalogue.rules.find((r) => r.name === name);
  const optionOf = (name) => catalogue.options.find((o) => o.name === name);
  // How the game's player gives actions: compass, heading, rooms or tunnels.
  const input = () => (game.rule ? game.rule.input : "");

  // The browser's key: the server hands it out with the first game and asks for it with
  // every request about a game, which is the key holder's alone. It lives in this origin's
  // storage, shared by this browser's tabs (and no other site's, or port's).
  const KEY = "wumpus-key";
  const key = () => { try { return localStorage.getItem(KEY) || ""; } catch (e) { return ""; } };
  const keep = (k) => { try { if (k) localStorage.setItem(KEY, k); } catch (e) { /* private mode */ } };
  let memoryKey = "";
  const keyHeader = () => (key() || memoryKey ? {"x-wumpus-key": key() || memoryKey} : {});

  async function api(method, path, body) {
    const init = {method, headers: keyHeader()};
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const data = res.status === 204 ? null : await res.json().catch(() => ({error: res.statusText}));
    if (data && data.key) { keep(data.key); memoryKey = data.key; }
    if (!res.ok) {
      const err = new Error((data && data.error) || ("HTTP " + res.status));
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function status(text) { $("status").textContent = text || ""; }

  // The controls shown are those of the game's input.
  function showInput(kind) {
    for (const el of document.querySelectorAll("[data-input]")) el.hidden = el.dataset.input !== kind;
  }

  // One field of the form for option `o` of rule set `r`, with its default there.
  function field(o, r, dflt) {
    const id = "opt-" + o.name;
    const label = "<label for=\"" + id + "\" title=\"" + esc(o.help) + "\">" +
      esc(o.name.replace(/_/g, " ")) + "</label> ";
    const select = (values, first) => "<select id=\"" + id + "\" data-option=\"" + esc(o.name) + "\">" +
      (first === undefined ? "" : "<option value=\"\">" + esc(first) + "</option>") +
      values.map((v) => "<option" + (v === dflt ? " selected" : "") + ">" + esc(v) + "</option>").join("") +
      "</select>";
    let control;
    if (o.name === "agent") control = select(r.agents);
    else if (o.kind === "choice") control = select(o.choices);
    else if (o.kind === "flag" && dflt === null) control = select(["true", "false"], "as the rules say");
    else if (o.kind === "flag") {
      control = "<input id=\"" + id + "\" type=\"checkbox\" data-option=\"" + esc(o.name) + "\"" +
        (dflt === "true" ? " checked" : "") + ">";
    } else if (o.kind === "file") {
      control = select((catalogue.door.files[o.holds] || []), "built in");
    } else {
      const most = o.kind === "count" ? (catalogue.door.limits[o.name] || o.max) : null;
      const hint = o.kind === "size" ? "rows x columns, up to " + catalogue.door.limits.max_side +
        "x" + catalogue.door.limits.max_side : o.kind === "count" ? o.min + " to " + most : "0 to 1";
      control = "<input id=\"" + id + "\" type=\"text\" data-option=\"" + esc(o.name) +
        "\" placeholder=\"" + esc(dflt || "") + "\" title=\"" + esc(hint) + "\">";
    }
    return "<span class=\"group\">" + label + control + "</span>";
  }

  // The form: the chosen rule set's options (each as its kind asks), and its files.
  function fillForm() {
    if (!catalogue) return;
    const r = ruleOf($("rules").value);
    const refused = catalogue.door.refused || [];
    $("options").innerHTML = r.options
      .filter((d) => !refused.includes(d.name))
      .map((d) => field(optionOf(d.name), r, d.default)).join("");
    const worlds = r.file === "world" ? (catalogue.door.files.world || []) : [];
    $("world").innerHTML = "<option value=\"\">random, from the seed</option>" +
      worlds.map((f) => "<option>" + esc(f) + "</option>").join("");
    $("world-group").hidden = r.file !== "world";
    $("upload-label").textContent = "or a " + r.file + " file";
  }

  // The options set in the form: those changed from their defaults.
  function formOptions() {
    const req = {};
    for (const el of $("options").querySelectorAll("[data-option]")) {
      const name = el.dataset.option, o = optionOf(name);
      if (el.type === "checkbox") { if (el.checked) req[name] = true; continue; }
      const v = el.value.trim();
      if (!v) continue;
      if (o.kind === "flag") req[name] = v === "true";
      else if (o.kind === "count" && /^\d+$/.test(v)) req[name] = Number(v);
      else if (o.kind === "probability" && !Number.isNaN(Number(v))) req[name] = Number(v);
      else req[name] = v;
    }
    return req;
  }

  async function newGame(ev) {
    if (ev) ev.preventDefault();
    if (!catalogue) return;
    const req = Object.assign({rules: $("rules").value}, formOptions());
    const seed = $("seed").value.trim();
    if (seed) {
      if (!/^\d+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
        status("The seed is a whole number below 2^53.");
        return;
      }
      req.seed = Number(seed);
    }
    if ($("world").value && !$("world-group").hidden) req.world = $("world").value;
    const file = $("upload").files[0];
    if (file) {
      req.upload = await file.text();
      req.upload_name = file.name;
      delete req.world;
    }
    try {
      status("starting…");
      // The game replaced ends, unless another tab of this browser still shows it.
      const old = game.id;
      const kept = old ? await shownElsewhere(old) : false;
      const view = await api("POST", "/api/games", req);
      if (old && !kept) api("DELETE", "/api/games/" + old).catch(() => {});
      load(view);
      status("");
      // The keys go to the board, not to the field last typed in.
      if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
    } catch (e) {
      status(e.message);
      if (!game.id) noGame(e.message);
      if (e.status === 429 || e.status === 503) { $("yourgames").hidden = false; showGames(); }
    }
  }

  // The tabs of this browser answer each other which game they show, so that one tab's new
  // game never ends a game another tab is playing.
  const tabs = typeof BroadcastChannel === "function" ? new BroadcastChannel("wumpus-tabs") : null;
  const tabId = Math.random().toString(36).slice(2);
  if (tabs) {
    tabs.addEventListener("message", (e) => {
      const m = e.data || {};
      if (m.ask && m.from !== tabId && m.ask === game.id && !game.end) tabs.postMessage({shown: m.ask, to: m.from});
    });
  }
  function shownElsewhere(id) {
    return new Promise((resolve) => {
      if (!tabs) { resolve(false); return; }
      let shown = false;
      const listen = (e) => { const m = e.data || {}; if (m.shown === id && m.to === tabId) shown = true; };
      tabs.addEventListener("message", listen);
      tabs.postMessage({ask: id, from: tabId});
      setTimeout(() => { tabs.removeEventListener("message", listen); resolve(shown); }, 250);
    });
  }

  // No game to play (the server is full, or out of reach): say why, and nothing plays.
  function noGame(why) {
    document.body.dataset.state = "none";
    $("board").innerHTML = "";
    $("now").innerHTML = "";
    $("playerstatus").textContent = "";
    const out = $("outcome");
    out.hidden = false;
    out.className = "outcome lost";
    out.textContent = "No game: " + why;
    for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
    $("tab-watch").disabled = true;
  }

  // A game from the server's view of it.
  function load(view) {
    Object.assign(game, {id: view.id, rules: view.start.game.rules, rule: ruleOf(view.start.game.rules),
      start: view.start,
      drawing: WumpusDraw.Drawing(view.board, view.start.game.rules), steps: view.steps,
      end: view.end, picked: null, aim: [], armed: null, replay: null, hintError: view.hint_error,
      queue: [], target: null, route: []});
    // The form shows this game's rule set, so that New game starts another of its kind.
    if ($("rules").value !== game.rules) {
      $("rules").value = game.rules;
      fillForm();
    }
    $("tab-watch").disabled = false;
    $("goal").textContent = game.rule ? "Goal: " + game.rule.goal + "." : "";
    if (location.hash !== "#game=" + view.id) history.replaceState(null, "", "#game=" + view.id);
    $("title").textContent = view.start.title;
    $("subtitle").textContent = WumpusDraw.subtitle(view.start).replace(" agent playing", " agent giving hints");
    $("log").innerHTML = "";
    for (const entry of view.log || []) say(entry.said, entry.command);
    listen(view.id);
    $("hintbox").innerHTML = "";
    $("explain").innerHTML = "";
    $("legend").innerHTML = game.drawing.legend();
    $("w-board").innerHTML = "";
    showInput(input());
    setView("play");
    render();
  }

  function say(lines, turn) {
    const log = $("log");
    if (turn) log.insertAdjacentHTML("beforeend", "<div class=\"turn\">&gt; " + esc(turn) + "</div>");
    log.insertAdjacentHTML("beforeend", lines.map((l) => "<div>" + esc(l) + "</div>").join(""));
    log.scrollTop = log.scrollHeight;
  }

  function render() {
    if (!game.drawing) return;
    const n = game.steps.length, over = game.end !== null;
    if (n) {
      game.drawing.draw($("board"), game.steps, n, over ? game.end.hidden : null, over, game.picked,
        over ? null : game.target, over ? null : game.route);
      $("now").innerHTML = game.drawing.panel(game.steps, n, {action: false, messages: false});
      $("playerstatus").textContent = playerStatus(game.steps[n - 1]);
    }
    $("explain").innerHTML = game.picked === null || !n ? "" : game.drawing.explain(game.steps, n, game.picked);
    const out = $("outcome");
    out.hidden = !over;
    if (over) {
      out.textContent = WumpusDraw.outcomeText(game.end, game.rules);
      out.className = "outcome " + WumpusDraw.outcomeClass(game.end);
    }
    document.body.dataset.state = over ? "over" : "playing";
    document.body.dataset.outcome = over ? game.end.outcome : "";
    document.body.dataset.steps = String(n);
    for (const b of $("actions").querySelectorAll("button")) b.disabled = over || game.busy;
    $("fire").disabled = over || !game.aim.length;
    $("cancel").disabled = over || (!game.aim.length && game.armed !== "aim");
    $("shoot").classList.toggle("armed", game.armed === "shoot");
    $("toss").classList.toggle("armed", game.armed === "toss");
    $("aim").classList.toggle("armed", game.armed === "aim");
    $("path").textContent = game.armed === "aim" ? "arrow: " + (game.aim.join(" → ") || "pick rooms") : "";
    if (game.hintError && !over) $("hintbox").innerHTML = "<div class=\"warn\">No hints: " + esc(game.hintError) + "</div>";
  }

  // The player's state in a line: score, arrows (or grenades), the gold.
  function playerStatus(s) {
    const parts = [];
    if (s.score !== null && s.score !== undefined) parts.push("Score: " + s.score);
    else if (s.score_so_far !== null && s.score_so_far !== undefined) parts.push("Score so far: " + s.score_so_far);
    else if (game.rule && game.rule.scored) parts.push("Score: counted at the end");
    if (s.arrows !== null && s.arrows !== undefined && game.rule) {
      const shots = game.rule.shot[1];
      parts.push(shots[0].toUpperCase() + shots.slice(1) + ": " + s.arrows);
    }
    if (s.gold !== null && s.gold !== undefined) parts.push("Gold: " + (s.gold ? "carried" : "not carried"));
    return parts.join(" · ");
  }

  // Plays an action in the player's words; one asked for while another is on its way waits
  // its turn (a few at most).
  async function act(words) {
    if (!game.id || game.end) return;
    if (game.busy) {
      if (game.queue.length < 4) game.queue.push(words);
      status("a move is in progress…");
      return;
    }
    game.busy = true;
    game.armed = null;
    game.aim = [];
    try {
      // The step this page is at: the server refuses an action from a stale view (another tab
      // on the same game played meanwhile) instead of playing it where it was not meant.
      const r = await api("POST", "/api/games/" + game.id + "/act", {action: words, step: game.steps.length});
      applied(r);
      status("");
    } catch (e) {
      game.queue = [];
      if (e.status === 409) {
        // The game moved on elsewhere: draw it as it is now, and say so.
        try {
          load(await api("GET", "/api/games/" + game.id));
          status(e.message + ". This page now shows the game as it is.");
        } catch (e2) {
          status(e2.message);
        }
      } else if (e.status === 404 || e.status === 410) gone(e);
      else status(e.message);
    } finally {
      game.busy = false;
      render();
    }
    const next = game.queue.shift();
    if (next !== undefined) act(next);
  }

  // An action's answer (this tab's, or another tab's pushed to this one): applied once, in
  // order; one that skips a step reloads the whole view.
  function applied(r) {
    if (r.steps !== undefined && r.steps <= game.steps.length) return;
    if (r.steps !== undefined && r.steps > game.steps.length + 1) { reload(); return; }
    say(r.said, r.command);
    if (r.step) {
      // Earlier steps keep only what the drawing reads of them (big grids stay light).
      const last = game.steps[game.steps.length - 1];
      if (last) for (const k of ["visited", "proven_safe", "proven_pit", "proven_bats", "odds",
        "whereabouts", "choices", "entries"]) delete last[k];
      game.steps.push(r.step);
    }
    game.end = r.end;
    game.hintError = r.hint_error;
    game.target = null;
    game.route = [];
    game.picked = null;
    $("hintbox").innerHTML = "";
    render();
  }

  async function reload() {
    if (!game.id) return;
    try { load(await api("GET", "/api/games/" + game.id)); } catch (e) { gone(e); }
  }

  // The game is gone (ended elsewhere, or after its idle minutes): say so, and nothing plays.
  function gone(e) {
    if (e.status === 404 || e.status === 410) {
      game.end = game.end || {outcome: "ended"};
      noGame(e.message);
      showGames();
    } else status(e.message);
  }

  // Listens to the game's changes (another tab's actions, its end) for as long as this page
  // shows it; a closed stream is opened again, a game gone says so.
  let listening = null;
  async function listen(id) {
    if (listening) listening.abort();
    const stop = new AbortController();
    listening = stop;
    while (game.id === id && !stop.signal.aborted) {
      try {
        const res = await fetch("/api/games/" + id + "/events", {headers: keyHeader(), signal: stop.signal});
        if (!res.ok) {
          const data = await res.json().catch(() => ({error: res.statusText}));
          const err = new Error(data.error || ("HTTP " + res.status));
          err.status = res.status;
          throw err;
        }
        const reader = res.body.getReader();
        const text = new TextDecoder();
        let buffer = "";
        for (;;) {
          const {value, done} = await reader.read();
          if (done) break;
          buffer += text.decode(value, {stream: true});
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const kind = (/^event: (.*)$/m.exec(block) || [])[1];
            const data = (/^data: (.*)$/m.exec(block) || [])[1];
            if (game.id !== id) return;
            if (kind === "act" && data) applied(JSON.parse(data));
            else if (kind === "stale") reload();
          }
        }
        // The stream ended: the game ended, or the server closed an old connection.
        if (game.id === id && !stop.signal.aborted) {
          try { await api("GET", "/api/games/" + id); } catch (e) { if (game.id === id) gone(e); return; }
        }
      } catch (e) {
        if (stop.signal.aborted || game.id !== id) return;
        if (e.status === 404 || e.status === 410) { gone(e); return; }
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  // "Your games": the games this browser holds here, to resume or end, so that a full server
  // or a closed tab is never a dead end.
  async function showGames() {
    let list;
    try { list = await api("GET", "/api/games"); } catch (e) { return; }
    const box = $("yourgames");
    if (!list.games.length) { box.innerHTML = "<div class=\"keys\">This browser holds no game here.</div>"; return; }
    box.innerHTML = "<b>Your games</b> (" + list.games.length + " of at most " + list.most + ")" +
      list.games.map((g) => "<div class=\"yourgame\" data-game=\"" + esc(g.id) + "\">" + esc(g.title) +
        (g.finished ? " (over)" : "") + (g.id === game.id ? " (this one)" : " (" + idleFor(g.idle_seconds) + ")") +
        " <button type=\"button\" data-resume=\"" + esc(g.id) + "\">resume</button>" +
        " <button type=\"button\" data-end=\"" + esc(g.id) + "\">end</button></div>").join("");
  }

  // How long a game has been left alone, in words.
  function idleFor(seconds) {
    const s = Math.max(0, Math.round(Number(seconds) || 0));
    const plural = WumpusDraw.plural;
    if (s < 60) return "idle " + plural(s, "second", "seconds");
    if (s < 3600) return "idle " + plural(Math.floor(s / 60), "minute", "minutes");
    return "idle " + plural(Math.floor(s / 3600), "hour", "hours");
  }

  // The place a hinted action goes to or aims at, if it names one.
  function hintTarget(s) {
    const w = s.action.split(" ");
    const step = (dir) => {
      const m = /^(\d+),(\d+)$/.exec(s.at || "");
      const d = {n: [1, 0], s: [-1, 0], e: [0, 1], w: [0, -1]}[(dir || "").toLowerCase()[0]];
      return m && d ? (Number(m[1]) + d[0]) + "," + (Number(m[2]) + d[1]) : null;
    };
    if (input() === "compass") return step(w[0] === "fire" ? w[1] : w[0]);
    if (input() === "heading") return ["forward", "shoot"].includes(w[0]) ? step(s.facing) : null;
    if (input() === "rooms") return w.length < 2 ? null : w[0] === "move" ? w.slice(1).join(" ") : w[1];
    if (input() === "tunnels" && w.length === 2) {
      const e = s.exits.find((x) => String(x.tunnel) === w[1]);
      return e ? e.to : null;
    }
    return null;
  }

  async function hint() {
    if (!game.id || game.end) return;
    try {
      const r = await api("GET", "/api/games/" + game.id + "/hint");
      const s = r.step;
      let h = "<div class=\"hint\" data-action=\"" + esc(s.action) + "\">Hint: <b>" + esc(s.action) +
        "</b> <span class=\"rule\">(" + esc(s.rule.replace(/_/g, " ")) + ")</span><br>" + esc(s.reason) + "</div>";
      if (s.choices.length) {
        h += "<details><summary>the choices it weighed</summary>" +
          game.drawing.panel([s], 1, {}).split("<h2>Choices weighed</h2>")[1].split("<details>")[0] + "</details>";
      }
      $("hintbox").innerHTML = h;
      // Where the hint heads: the end of the walk it plans, or the place its action is about.
      game.route = s.route || [];
      game.target = game.route.length ? game.route[game.route.length - 1] : (s.target || hintTarget(s));
      render();
    } catch (e) {
      $("hintbox").innerHTML = "<div class=\"warn\">" + esc(e.message) + "</div>";
    }
  }

  // The player's place's exits: tunnel number → label (or null).
  const exits = () => {
    const s = game.steps[game.steps.length - 1];
    return s ? s.exits : [];
  };

  function clickPlace(label, explainOnly) {
    if (!game.id) return;
    if (!explainOnly && !game.end && input() === "rooms") {
      if (game.armed === "aim") {
        if (game.aim.length < 5) game.aim.push(label);
        render();
        return;
      }
      if (exits().some((e) => e.to === label)) { act("move " + label); return; }
    }
    if (!explainOnly && !game.end && input() === "tunnels") {
      const e = exits().find((x) => x.to === label);
      if (e) { tunnel(e.tunnel); return; }
    }
    game.picked = game.picked === label ? null : label;
    render();
  }

  function tunnel(n) {
    if (game.armed === "toss") act("toss " + n);
    else act("move " + n);
  }

  function gridDirection(dir) {
    if (game.armed === "shoot") act("fire " + dir);
    else act(dir);
  }

  async function watch() {
    if (!game.id) return;
    if (game.replay) { setView("watch"); return; }
    try {
      status("the agent is playing…");
      const data = await api("GET", "/api/games/" + game.id + "/watch");
      status("");
      const w = (id) => $("w-" + id);
      fillCompacted(data.steps, data.compacted || 0);
      $("w-cut").textContent = data.compacted ? "steps 1 to " + data.compacted +
        " in brief: where the agent stood, what it perceived, proved and did" : "";
      const token = {};
      game.watching = token;
      game.replay = WumpusDraw.Replay(WumpusDraw.Drawing(data.board, data.start.game.rules), data, {
        svg: w("board"), slider: w("step"), counter: w("counter"), reveal: w("reveal"),
        first: w("first"), prev: w("prev"), play: w("play"), next: w("next"), last: w("last"),
        speed: w("speed"),
        now: w("now"), outcome: w("outcome"), legend: w("legend"), explain: w("explain"),
      }, {active: () => game.view === "watch" && game.watching === token});
      setView("watch");
      game.replay.render(1);
    } catch (e) {
      status(e.message);
    }
  }

  // The watched game's earlier steps come compacted (a long game stays small): what the
  // drawing reads of them is filled in, the proven places gathered from what each step learned.
  function fillCompacted(steps, n) {
    const proven = {safe: new Set(), pit: new Set(), wumpus: new Set(), bats: new Set()};
    for (let j = 0; j < n && j < steps.length; j++) {
      const s = steps[j];
      for (const l of s.learned || []) if (proven[l.fact]) proven[l.fact].add(l.place);
      const list = (k) => Array.from(proven[k]);
      Object.assign(s, {visited: [], proven_safe: list("safe"), proven_pit: list("pit"),
        proven_wumpus: s.proven_wumpus || list("wumpus"), proven_bats: list("bats"), odds: [],
        whereabouts: [], proven_ways: [], choices: [], entries: [], exits: s.exits || [],
        messages: s.messages || [], depth: null}, {});
    }
  }

  function setView(v) {
    game.view = v;
    if (v !== "watch" && game.replay) game.replay.stop();
    $("playview").hidden = v !== "play";
    $("watchview").hidden = v !== "watch";
    $("tab-play").classList.toggle("on", v === "play");
    $("tab-watch").classList.toggle("on", v === "watch");
    document.body.dataset.view = v;
  }

  // Wiring.
  $("setup").addEventListener("submit", newGame);
  $("tab-games").addEventListener("click", () => {
    const box = $("yourgames");
    box.hidden = !box.hidden;
    if (!box.hidden) showGames();
  });
  $("yourgames").addEventListener("click", async (e) => {
    const resume = e.target.getAttribute && e.target.getAttribute("data-resume");
    const end = e.target.getAttribute && e.target.getAttribute("data-end");
    if (resume) {
      try { load(await api("GET", "/api/games/" + resume)); status(""); } catch (err) { status(err.message); }
    } else if (end) {
      try { await api("DELETE", "/api/games/" + end); } catch (err) { status(err.message); }
      if (end === game.id) { game.id = null; noGame("you ended this game: start a new one"); }
      showGames();
    }
  });
  $("rules").addEventListener("change", fillForm);
  $("hint").addEventListener("click", hint);
  $("tab-play").addEventListener("click", () => setView("play"));
  $("tab-watch").addEventListener("click", watch);
  for (const b of document.querySelectorAll("[data-act]")) {
    b.addEventListener("click", () => {
      const a = b.dataset.act;
      if (["north", "south", "east", "west"].includes(a)) gridDirection(a);
      else act(a);
    });
  }
  for (const b of document.querySelectorAll("[data-tunnel]")) {
    b.addEventListener("click", () => tunnel(b.dataset.tunnel));
  }
  $("shoot").addEventListener("click", () => { game.armed = game.armed === "shoot" ? null : "shoot"; render(); });
  $("toss").addEventListener("click", () => { game.armed = game.armed === "toss" ? null : "toss"; render(); });
  $("aim").addEventListener("click", () => { game.armed = "aim"; game.aim = []; render(); });
  $("cancel").addEventListener("click", () => { game.armed = null; game.aim = []; render(); });
  $("fire").addEventListener("click", () => { if (game.aim.length) act("shoot " + game.aim.join(" ")); });
  const placeOf = (e) => {
    const shape = e.target.closest && e.target.closest("[data-place]");
    return shape ? shape.getAttribute("data-place") : null;
  };
  // A touch screen has no right-click: a long press on a place explains it, and so does a
  // tap while the explain toggle is on.
  let press = null, pressed = false;
  $("board").addEventListener("pointerdown", (e) => {
    const label = placeOf(e);
    clearTimeout(press);
    pressed = false;
    if (label === null || e.pointerType === "mouse") return;
    press = setTimeout(() => { pressed = true; clickPlace(label, true); }, 500);
  });
  for (const ev of ["pointerup", "pointercancel", "pointerleave"]) {
    $("board").addEventListener(ev, () => clearTimeout(press));
  }
  // A finger that moves pans a big board: no long press then.
  $("board").addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse" && e.buttons) clearTimeout(press);
  });
  $("board").addEventListener("click", (e) => {
    if (pressed) { pressed = false; return; }
    const label = placeOf(e);
    if (label !== null) clickPlace(label, e.shiftKey || $("explainmode").checked);
    else { game.picked = null; render(); }
  });
  $("board").addEventListener("contextmenu", (e) => {
    const label = placeOf(e);
    if (label !== null) { e.preventDefault(); if (!pressed) clickPlace(label, true); }
  });
  document.addEventListener("keydown", (e) => {
    if (game.view !== "play" || !game.id || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let done = true;
    if (key === "h") hint();
    else if (WumpusDraw.ZOOM_KEYS[key] && game.drawing && game.drawing.big) game.drawing.zoom(WumpusDraw.ZOOM_KEYS[key]);
    else if (key === "Escape") { game.armed = null; game.aim = []; render(); }
    else if (input() === "compass") {
      const dir = {ArrowUp: "north", w: "north", ArrowDown: "south", s: "south", ArrowLeft: "west",
        a: "west", ArrowRight: "east", d: "east"}[key];
      if (dir) gridDirection(dir);
      else if (key === "g") act("grab");
      else if (key === "c") act("climb");
      else if (key === "f") { game.armed = game.armed === "shoot" ? null : "shoot"; render(); }
      else done = false;
    } else if (input() === "heading") {
      // The command line's letters (`play --rules aima`: f, l, r, g, s, c), and the arrow keys.
      const a = {ArrowUp: "forward", f: "forward", ArrowLeft: "left", l: "left", ArrowRight: "right",
        r: "right", g: "grab", s: "shoot", c: "climb"}[key];
      if (a) act(a);
      else done = false;
    } else if (input() === "tunnels") {
      if (["1", "2", "3"].includes(key)) tunnel(key);
      else if (key === "t") { game.armed = game.armed === "toss" ? null : "toss"; render(); }
      else done = false;
    } else if (input() === "rooms" && key === "Enter" && game.aim.length) {
      act("shoot " + game.aim.join(" "));
    } else done = false;
    if (done) e.preventDefault();
  });

  // A closed tab frees its game; a reload asks for it again within the grace.
  window.addEventListener("pagehide", () => {
    if (!game.id) return;
    if (listening) listening.abort();
    fetch("/api/games/" + game.id + "?grace=" + GRACE, {method: "DELETE", keepalive: true,
      headers: keyHeader()}).catch(() => {});
  });
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted || !game.id) return;
    reload();
    listen(game.id);
  });

  async function boot() {
    showInput("");
    try {
      catalogue = await api("GET", "/api/catalogue");
    } catch (e) {
      status("cannot reach the server: " + e.message);
      noGame("cannot reach the server: " + e.message);
      return;
    }
    $("rules").innerHTML = catalogue.rules.map((r) => "<option value=\"" + esc(r.name) + "\">" +
      esc(r.title) + "</option>").join("");
    fillForm();
    const asked = hashGame();
    if (asked && asked.id === null) {
      // An address naming no game the server could hold is said so, never passed over.
      const why = "the address names no game (\u201c" + asked.raw.slice(0, 40) + "\u201d is not a game's id)";
      status(why + ": starting a new game…");
      await newGame();
      if (game.id) status(why + ". This is a new game.");
      return;
    }
    if (asked) {
      try { load(await api("GET", "/api/games/" + asked.id)); return; } catch (e) {
        // Say what became of the game asked for before starting another.
        const why = ended(asked.id, e);
        status(why + ": starting a new game…");
        await newGame();
        if (game.id) status(why + ". This is a new game.");
        return;
      }
    }
    await newGame();
  }

  // The game the address names: `null` when it names none; `{raw, id}` otherwise, `id` the
  // game's id (hex, read in any case) or `null` when the text cannot be one.
  function hashGame() {
    const m = /(?:^#|&)game=([^&]*)/.exec(location.hash);
    if (!m) return null;
    let raw = m[1];
    try { raw = decodeURIComponent(raw); } catch (e) { /* shown as typed */ }
    const id = /^[0-9a-fA-F]{1,64}$/.test(raw) ? raw.toLowerCase() : null;
    return {raw, id};
  }

  function ended(id, e) {
    return e.status === 404 || e.status === 410 ? "that game has ended (" + e.message + ")"
      : "game " + id + " cannot be shown (" + e.message + ")";
  }

  // The address names another game (edited, or a link followed): play that one; if it is
  // gone, say so and keep this one.
  window.addEventListener("hashchange", async () => {
    const asked = hashGame();
    if (!asked || asked.id === game.id) return;
    if (asked.id === null) {
      if (game.id) history.replaceState(null, "", "#game=" + game.id);
      status("the address names no game (\u201c" + asked.raw.slice(0, 40) + "\u201d is not a game's id)" +
        (game.id ? "; still playing this one." : ""));
      return;
    }
    try {
      load(await api("GET", "/api/games/" + asked.id));
      status("");
    } catch (e) {
      if (game.id) history.replaceState(null, "", "#game=" + game.id);
      status(ended(asked.id, e) + (game.id ? "; still playing this one." : ""));
    }
  });
  boot();
})();
