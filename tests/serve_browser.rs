//! The live page of `wumpus serve` in a real browser: the test starts the server on a free
//! loopback port, starts `chromedriver`, and drives headless Chromium over the W3C WebDriver
//! protocol (the `fantoccini` client). It wins a grid world by following hints
//! (pressing the keys and clicking the buttons the hints name), plays a classic cave and a maze
//! to their ends by clicking rooms and tunnels, and checks that what the board marks as proven,
//! in play and when watching the agent, is what `trace --json` reports for the same seed.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without them the
//! test prints SKIPPED and passes, except where `CI` is set: there it fails. With
//! `WUMPUS_SCREENSHOTS=DIR` set it saves screenshots of the page there (`docs/img/` holds the
//! ones in the docs).

mod common;

use common::http::{http, start_server, Killed};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A WebDriver session, through the `fantoccini` client, driven from this synchronous test on a
/// runtime of its own.
struct Browser {
    runtime: tokio::runtime::Runtime,
    client: fantoccini::Client,
}

impl Browser {
    /// Waits for one WebDriver command.
    fn wd<T>(
        &self,
        what: &str,
        command: impl std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
    ) -> T {
        self.runtime
            .block_on(command)
            .unwrap_or_else(|e| panic!("WebDriver {what}: {e}"))
    }

    fn goto(&self, url: &str) {
        self.wd("goto", self.client.goto(url));
    }

    fn run(&self, script: &str) -> Value {
        self.wd("execute", self.client.execute(script, Vec::new()))
    }

    fn click(&self, css: &str) {
        let e = self.wd(css, self.client.find(fantoccini::Locator::Css(css)));
        self.wd(css, e.click());
    }

    /// Presses and releases one key (a WebDriver key code such as `\u{E013}` for up).
    fn press(&self, key: &str) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        let value = key.chars().next().expect("a key");
        let keys = KeyActions::new("keyboard".to_string())
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
        self.wd("actions", self.client.perform_actions(keys));
    }

    /// Sets the window's size in CSS pixels.
    fn resize(&self, width: u32, height: u32) {
        self.wd("window size", self.client.set_window_size(width, height));
    }

    /// Waits until `script` returns true, for at most 20 seconds.
    fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if self.run(script) == json!(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(40));
        }
        panic!(
            "waited 20 s for {what}; the page: {}",
            self.run("return document.body.innerText")
        );
    }

    fn steps(&self) -> usize {
        self.run("return Number(document.body.dataset.steps || 0)")
            .as_u64()
            .unwrap_or(0) as usize
    }

    fn over(&self) -> bool {
        self.run("return document.body.dataset.state") == json!("over")
    }

    fn screenshot(&self, name: &str) {
        let Some(dir) = std::env::var_os("WUMPUS_SCREENSHOTS") else {
            return;
        };
        let png = self.wd("screenshot", self.client.screenshot());
        std::fs::write(std::path::Path::new(&dir).join(name), png).expect("a screenshot saved");
    }

    /// Starts a new game with the form's fields set as given (ids and values).
    fn new_game(&self, fields: &[(&str, &str)]) {
        let before = self.run("return location.hash");
        let mut script = String::from("const set = (id, v) => { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); };");
        for (id, v) in fields {
            script.push_str(&format!("set({id:?}, {v:?});"));
        }
        self.run(&script);
        self.click("#new");
        self.wait(
            "the new game",
            &format!(
                "return location.hash !== {before} && document.body.dataset.state === 'playing' \
                 && Number(document.body.dataset.steps) >= 1"
            ),
        );
    }

    /// Asks for a hint and returns the action it names.
    fn hint(&self) -> String {
        self.run("document.getElementById('hintbox').innerHTML = ''");
        self.click("#hint");
        self.wait(
            "a hint",
            "return !!document.querySelector('#hintbox .hint[data-action]')",
        );
        self.run("return document.querySelector('#hintbox .hint').getAttribute('data-action')")
            .as_str()
            .expect("an action")
            .to_string()
    }

    /// Waits for the step after `before` (or the end).
    fn wait_turn(&self, before: usize) {
        self.wait(
            "the next turn",
            &format!(
                "return Number(document.body.dataset.steps) > {before} || \
                 document.body.dataset.state === 'over'"
            ),
        );
    }

    /// Reloads the page, as the browser's reload button does.
    fn reload(&self) {
        self.wd("refresh", self.client.refresh());
    }

    /// The game's id, from the address.
    fn game_id(&self) -> String {
        self.run("return location.hash.replace('#game=', '')")
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The tunnels drawn on the board in `svg` (both ways and one way).
    fn edges(&self, svg: &str) -> u64 {
        self.run(&format!(
            "return document.querySelectorAll('#{svg} line.edge').length"
        ))
        .as_u64()
        .unwrap()
    }

    /// The marks of the board in `svg`: place → class.
    fn marks(&self, svg: &str) -> Vec<(String, String)> {
        let v = self.run(&format!(
            "return Array.from(document.querySelectorAll('#{svg} text[data-cell]')).map((t) => \
             [t.getAttribute('data-cell'), t.getAttribute('class')])"
        ));
        v.as_array()
            .expect("marks")
            .iter()
            .map(|m| (m[0].as_str().unwrap().into(), m[1].as_str().unwrap().into()))
            .collect()
    }
}

const UP: &str = "\u{E013}";
const DOWN: &str = "\u{E015}";
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";

fn key_of(direction: &str) -> &'static str {
    match direction {
        "north" => UP,
        "south" => DOWN,
        "west" => LEFT,
        "east" => RIGHT,
        other => panic!("not a direction: {other}"),
    }
}

/// Plays what a grid hint says, with the keys and buttons a person would use.
fn play_grid(b: &Browser, action: &str) {
    let before = b.steps();
    match action.split_whitespace().collect::<Vec<_>>()[..] {
        ["fire", dir] => {
            b.click("#shoot");
            b.press(key_of(dir));
        }
        ["grab"] => b.click("#grab"),
        ["climb"] => b.click("#climb"),
        [dir] => b.press(key_of(dir)),
        _ => panic!("a grid hint: {action}"),
    }
    b.wait_turn(before);
}

/// The labels whose mark has exactly class `class`.
fn with_class(marks: &[(String, String)], class: &str) -> BTreeSet<String> {
    marks
        .iter()
        .filter(|(_, c)| c.split(' ').next() == Some(class) && !c.contains("dead"))
        .map(|(l, _)| l.clone())
        .collect()
}

fn labels(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

/// The board's marks agree with the trace's step: the same proven pits, wumpus, visited and
/// proven-safe places, and the player where the trace says.
fn same_as_trace(marks: &[(String, String)], step: &Value, what: &str) {
    let mut visited = labels(&step["visited"]);
    // A dead wumpus is drawn dead, where the trace counts its place proven safe.
    let dead: BTreeSet<String> = marks
        .iter()
        .filter(|(_, c)| c.contains(" dead"))
        .map(|(l, _)| l.clone())
        .collect();
    let proven_safe = labels(&step["proven_safe"]);
    assert!(
        dead.is_subset(&proven_safe),
        "{what}: a dead wumpus's place is safe"
    );
    visited.retain(|l| !dead.contains(l));
    let safe: BTreeSet<String> = proven_safe
        .difference(&visited)
        .filter(|l| !dead.contains(*l))
        .cloned()
        .collect();
    let n = &step["step"];
    assert_eq!(
        with_class(marks, "pit"),
        labels(&step["proven_pit"]),
        "{what} pits at step {n}"
    );
    assert_eq!(
        with_class(marks, "wumpus"),
        labels(&step["proven_wumpus"]),
        "{what} wumpus at step {n}"
    );
    assert_eq!(
        with_class(marks, "visited"),
        visited,
        "{what} visited at step {n}"
    );
    assert_eq!(
        with_class(marks, "safe"),
        safe,
        "{what} proven safe at step {n}"
    );
    let at: Vec<&String> = marks
        .iter()
        .filter(|(_, c)| c.ends_with(" agent"))
        .map(|(l, _)| l)
        .collect();
    assert_eq!(
        at,
        vec![step["at"].as_str().unwrap()],
        "{what} player at step {n}"
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_browser(profile: &std::path::Path) -> (Killed, Browser) {
    let port = free_port();
    let driver = Killed(
        Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let start = Instant::now();
    while http(port, "GET", "/status", None)
        .map_or(true, |(_, v)| v["value"]["ready"] != json!(true))
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver is not ready"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let caps = json!({"browserName": "chrome",
        "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1500,1000", "--no-first-run", "--disable-background-networking",
            format!("--user-data-dir={}", profile.display())]}});
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime for the WebDriver client");
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = runtime
        .block_on(
            fantoccini::ClientBuilder::new(connector)
                .capabilities(caps.as_object().expect("capabilities").clone())
                .connect(&format!("http://127.0.0.1:{port}")),
        )
        .expect("a browser session");
    (driver, Browser { runtime, client })
}

/// `wumpus trace --json` for a grid seed: its step lines.
fn trace_steps(seed: &str) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .args(["trace", "--seed", seed, "--json"])
        .output()
        .expect("trace runs");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v.get("step").is_some())
        .collect()
}

#[test]
fn the_live_page_plays_every_rule_set_in_chromium() {
    if !common::can_run(
        &["chromium", "chromedriver"],
        "the_live_page_plays_every_rule_set_in_chromium",
    ) {
        return;
    }
    let worlds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds");
    let (_server, port) = start_server(&worlds, &[]);
    let url = format!("http://127.0.0.1:{port}/");
    let profile = tempfile::tempdir().unwrap();
    let (_driver, b) = start_browser(profile.path());
    b.goto(&url);
    b.wait(
        "the first game",
        "return document.body.dataset.state === 'playing'",
    );

    // The page states the goal, the player's state, and not the command line; the size field
    // says the page's own limit; live regions for what changes; no favicon request.
    let title = b.run("return document.getElementById('title').textContent");
    assert!(!title.as_str().unwrap().contains("--seed"), "{title}");
    let goal = b.run("return document.getElementById('goal').textContent");
    assert!(
        goal.as_str().unwrap().contains("climb out at 0,0"),
        "{goal}"
    );
    let state = b.run("return document.getElementById('playerstatus').textContent");
    assert!(state.as_str().unwrap().contains("Arrows: 1"), "{state}");
    assert_eq!(
        b.run("return ['log', 'hintbox', 'outcome'].every((id) => document.getElementById(id).getAttribute('aria-live') === 'polite') && !!document.querySelector('link[rel=icon]')"),
        json!(true)
    );
    b.run("document.getElementById('size').value = '1x1'");
    b.click("#new");
    b.wait(
        "the size refused",
        "return document.getElementById('status').textContent.includes('from 2x2 to 64x64')",
    );
    b.run("document.getElementById('size').value = '5x5'");

    // A grid world won by following hints, with keys and buttons.
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    let mut turns = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 60, "the hinted game goes on too long");
        let action = b.hint();
        if ["north", "south", "east", "west"].contains(&action.as_str()) {
            // The hint's target is ringed on the board.
            assert_eq!(
                b.run("return document.querySelectorAll('#board .hinttarget').length"),
                json!(1),
                "the hint's target marked"
            );
        }
        if turns == 5 {
            b.screenshot("live-grid.png");
        }
        play_grid(&b, &action);
    }
    assert_eq!(b.run("return document.body.dataset.outcome"), json!("won"));
    let outcome = b.run("return document.getElementById('outcome').textContent");
    assert!(outcome.as_str().unwrap().contains("won"), "{outcome}");
    assert!(b
        .run("return document.getElementById('log').textContent")
        .as_str()
        .unwrap()
        .contains("Score: "));

    // Two tabs on one game: an action sent from a stale view carries the step its page was at,
    // is refused (409), and the page reloads the game's view and says so.
    let trace = trace_steps("7");
    b.new_game(&[
        ("rules", "grid"),
        ("world", ""),
        ("size", "5x5"),
        ("pitprob", "0.2"),
        ("seed", "7"),
    ]);
    let id = b.game_id();
    let act =
        |body: Value| http(port, "POST", &format!("/api/games/{id}/act"), Some(&body)).unwrap();
    let first = trace[0]["action"].as_str().unwrap();
    let (status, v) = act(json!({"action": first, "step": 1}));
    assert_eq!(status, 200, "the other tab's move: {v}");
    let second = trace[1]["action"].as_str().unwrap();
    b.press(key_of(second));
    b.wait(
        "the stale page reloaded",
        "return document.getElementById('status').textContent.includes('moved on') \
         && Number(document.body.dataset.steps) === 2",
    );
    same_as_trace(&b.marks("board"), &trace[1], "the reloaded stale tab");
    let (status, v) = act(json!({"action": second, "step": 1}));
    assert_eq!(status, 409, "a stale step refused: {v}");
    assert!(v["error"].as_str().unwrap().contains("at step 2"), "{v}");
    let (status, v) = act(json!({"action": second}));
    assert_eq!(status, 200, "an action without a step is played: {v}");

    // A link to a game that has ended says so before starting a new game; editing the
    // address's game id loads the game it names (or says it has ended, and keeps this one).
    b.goto("about:blank");
    b.goto(&format!("{url}#game=00000000deadbeef"));
    b.wait(
        "the ended game's message",
        "return document.body.dataset.state === 'playing' && \
         document.getElementById('status').textContent.includes('that game has ended') && \
         !location.hash.includes('deadbeef')",
    );
    let (status, v) = http(
        port,
        "POST",
        "/api/games",
        Some(&json!({"rules": "cave", "seed": 3})),
    )
    .unwrap();
    assert_eq!(status, 201, "{v}");
    let other = v["id"].as_str().unwrap().to_string();
    b.run(&format!("location.hash = '#game={other}'"));
    b.wait(
        "the game the address names",
        &format!(
            "return location.hash === '#game={other}' && \
             document.getElementById('rules').value === 'cave' && \
             document.body.dataset.state === 'playing'"
        ),
    );
    b.run("location.hash = '#game=00000000deadbeef'");
    b.wait(
        "the edited address's ended game",
        &format!(
            "return document.getElementById('status').textContent.includes('that game has ended') \
             && location.hash === '#game={other}'"
        ),
    );

    // A phone (390x844): the board is on the first screen, the hint right under its button,
    // the rooms' labels readable, and a tap with "explain" on explains a place.
    b.resize(390, 844);
    b.reload();
    b.wait(
        "the narrow page",
        "return document.body.dataset.state === 'playing' && innerWidth <= 420",
    );
    let top =
        b.run("return [document.getElementById('board').getBoundingClientRect().top, innerHeight]");
    assert!(
        top[0].as_f64().unwrap() < top[1].as_f64().unwrap() - 200.0,
        "the board on the first screen: {top}"
    );
    let label = b.run(
        "return Math.min(...Array.from(document.querySelectorAll('#board text.label')).map((t) => t.getBoundingClientRect().height))",
    );
    assert!(label.as_f64().unwrap() >= 12.0, "room labels: {label}");
    b.hint();
    let gap = b.run(
        "return document.getElementById('hintbox').getBoundingClientRect().top - \
         document.getElementById('hint').getBoundingClientRect().top",
    );
    let gap = gap.as_f64().unwrap();
    assert!(
        (0.0..=150.0).contains(&gap),
        "the hint under its button: {gap}"
    );
    b.screenshot("live-phone.png");
    b.click("#explainmode");
    let room =
        b.run("return document.querySelector('#board [data-place]').getAttribute('data-place')");
    let before = b.steps();
    b.click(&format!(
        "#board [data-place=\"{}\"]",
        room.as_str().unwrap()
    ));
    b.wait(
        "the tapped room explained",
        "return document.getElementById('explain').textContent.length > 0",
    );
    assert_eq!(b.steps(), before, "a tap with explain on does not move");
    b.click("#explainmode");
    b.resize(1500, 1000);
    b.reload();
    b.wait(
        "the wide page",
        "return document.body.dataset.state === 'playing' && innerWidth > 1000",
    );

    // The board marks what trace --json proves, step by step, for seed 7; in play, following
    // hints (the fire included, then the dead wumpus), and when watching the agent.
    b.new_game(&[
        ("rules", "grid"),
        ("world", ""),
        ("size", "5x5"),
        ("pitprob", "0.2"),
        ("seed", "7"),
    ]);
    for step in &trace {
        same_as_trace(&b.marks("board"), step, "play");
        if b.over() {
            break;
        }
        let action = b.hint();
        assert_eq!(
            action,
            step["action"].as_str().unwrap(),
            "the hint is the trace's action"
        );
        play_grid(&b, &action);
    }
    assert!(b.over(), "seed 7 ends as its trace does");
    b.click("#tab-watch");
    b.wait("the agent's game", "return document.body.dataset.view === 'watch' && !!document.querySelector('#w-board text[data-cell]')");
    for (i, step) in trace.iter().enumerate() {
        if i > 0 {
            b.click("#w-next");
        }
        b.wait(
            "the watched step",
            &format!("return document.body.dataset.step === '{}'", i + 1),
        );
        same_as_trace(&b.marks("w-board"), step, "watch");
    }
    b.screenshot("live-watch.png");
    // Each board's arrowheads are its own: the page's ids are unique, and every line's marker
    // is in the line's own board.
    assert_eq!(
        b.run(
            "const ids = Array.from(document.querySelectorAll('[id]')).map((e) => e.id); \
             const mine = Array.from(document.querySelectorAll('[marker-end]')).every((l) => { \
               const m = /url\\(#(.+)\\)/.exec(l.getAttribute('marker-end')); \
               return !m || document.getElementById(m[1]).closest('svg') === l.closest('svg'); }); \
             return new Set(ids).size === ids.length && mine && \
               !!document.querySelector('#w-board marker') && !!document.querySelector('#board marker')"
        ),
        json!(true),
        "marker ids unique per board"
    );
    b.click("#tab-play");

    // A game lost to a pit: started by Enter in the seed field (the keys then move the player),
    // it ends with the player drawn on the pit, and the panel counts the moves the outcome
    // counts.
    b.run(
        "const set = (id, v) => { const e = document.getElementById(id); e.value = v; \
         e.dispatchEvent(new Event('change')); }; set('rules', 'grid'); set('world', ''); \
         set('size', '4x4'); set('pitprob', '0.2'); set('seed', '');",
    );
    let before = b.game_id();
    b.click("#seed");
    b.press("1");
    b.press("\u{E007}");
    b.wait(
        "the game of seed 1",
        &format!(
            "return location.hash !== '#game={before}' && document.body.dataset.state === 'playing'"
        ),
    );
    let mut turns = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 40, "the 4x4 game goes on too long");
        let action = b.hint();
        play_grid(&b, &action);
    }
    assert_eq!(b.run("return document.body.dataset.outcome"), json!("pit"));
    let marks = b.marks("board");
    let at: Vec<&(String, String)> = marks
        .iter()
        .filter(|(_, c)| c.ends_with(" agent"))
        .collect();
    assert_eq!(at.len(), 1, "{marks:?}");
    assert!(
        at[0].1.starts_with("pit"),
        "the player drawn on the pit: {at:?}"
    );
    let counts = b.run(
        "const now = /(\\d+) moves? so far/.exec(document.getElementById('now').textContent); \
         const out = /after (\\d+) move/.exec(document.getElementById('outcome').textContent); \
         return [now && now[1], out && out[1]]",
    );
    assert!(
        counts[0] == counts[1] && !counts[0].is_null(),
        "the panel's moves and the outcome's: {counts}"
    );

    // The textbook's rules on the same world: won by following hints in its own actions, with
    // the keys (up forward, left turn left, F shoot) and the buttons (turn right, grab, climb);
    // the board draws the way the player faces.
    b.new_game(&[("rules", "aima"), ("world", "seed-example.txt")]);
    assert_eq!(
        b.run("return !!document.querySelector('#board path.facing')"),
        json!(true)
    );
    let mut turns = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 90, "the hinted textbook game goes on too long");
        let action = b.hint();
        let before = b.steps();
        match action.as_str() {
            "forward" => b.press(UP),
            "turn left" => b.press(LEFT),
            "shoot" => b.press("f"),
            "turn right" => b.click(".for-aima button[data-act=\"right\"]"),
            "grab" => b.click(".for-aima button[data-act=\"grab\"]"),
            "climb" => b.click(".for-aima button[data-act=\"climb\"]"),
            other => panic!("a textbook hint: {other}"),
        }
        if turns == 6 {
            b.screenshot("live-aima.png");
        }
        b.wait_turn(before);
    }
    assert_eq!(b.run("return document.body.dataset.outcome"), json!("won"));

    // The classic cave, played to its end by clicking rooms (and aiming an arrow room by room).
    b.new_game(&[("rules", "cave"), ("seed", "3")]);
    let mut turns = 0;
    let mut aimed = false;
    while !b.over() {
        turns += 1;
        assert!(turns < 120, "the cave game goes on too long");
        let action = b.hint();
        let words: Vec<&str> = action.split_whitespace().collect();
        let before = b.steps();
        match words[..] {
            ["move", room] => b.click(&format!("#board [data-place=\"{room}\"]")),
            ["shoot", ..] => {
                b.click("#aim");
                for room in &words[1..] {
                    b.click(&format!("#board [data-place=\"{room}\"]"));
                }
                if !aimed {
                    b.screenshot("live-cave.png");
                    aimed = true;
                }
                b.click("#fire");
            }
            _ => panic!("a cave hint: {action}"),
        }
        b.wait_turn(before);
        if turns == 3 && !b.over() {
            // A reload keeps the game, and the form says its rule set.
            let (id, steps) = (b.game_id(), b.steps());
            b.reload();
            b.wait(
                "the reloaded cave",
                "return document.body.dataset.state === 'playing'",
            );
            assert_eq!(b.game_id(), id);
            assert_eq!(b.steps(), steps);
            assert_eq!(
                b.run("return document.getElementById('rules').value"),
                json!("cave")
            );
        }
    }
    assert_eq!(
        b.run("return document.querySelectorAll('#board text.odds').length"),
        json!(0),
        "no odds left once the wumpus is dead"
    );
    let said = b.run("return document.getElementById('log').textContent");
    assert!(
        said.as_str().unwrap().contains("AHA! You got the wumpus!"),
        "{said}"
    );

    // The maze remembers: after 10 hinted moves the visited caves and the tunnels seen are
    // drawn in Play as in Watch at the same step, and a reload keeps them.
    b.new_game(&[("rules", "maze"), ("seed", "5")]);
    for _ in 0..10 {
        let action = b.hint();
        let before = b.steps();
        let t = action.split_whitespace().nth(1).unwrap().to_string();
        if action.starts_with("toss") {
            b.click("#toss");
        }
        b.click(&format!("button[data-tunnel=\"{t}\"]"));
        b.wait_turn(before);
    }
    let (play_marks, play_edges, n) = (b.marks("board"), b.edges("board"), b.steps());
    let stood: BTreeSet<String> = labels(&b.run(
        "return Array.from(document.querySelectorAll('#board text.agent, #board text.visited')).map((t) => t.getAttribute('data-cell'))",
    ));
    assert!(
        stood.len() >= 4,
        "the caves stood in are drawn visited: {play_marks:?}"
    );
    assert!(
        play_edges > 3,
        "the tunnels seen earlier are drawn: {play_edges}"
    );
    b.reload();
    b.wait(
        "the reloaded maze",
        "return document.body.dataset.state === 'playing'",
    );
    assert_eq!(b.marks("board"), play_marks, "the reloaded maze");
    assert_eq!(b.edges("board"), play_edges, "the reloaded maze's tunnels");
    b.click("#tab-watch");
    b.wait(
        "the agent's maze",
        "return document.body.dataset.view === 'watch' && !!document.querySelector('#w-board text[data-cell]')",
    );
    b.run(&format!(
        "const s = document.getElementById('w-step'); s.value = {n}; s.dispatchEvent(new Event('input'));"
    ));
    b.wait(
        "the watched step",
        &format!("return document.body.dataset.step === '{n}'"),
    );
    assert_eq!(
        b.marks("w-board"),
        play_marks,
        "the maze in Watch and in Play"
    );
    assert_eq!(
        b.edges("w-board"),
        play_edges,
        "the maze's tunnels in Watch and Play"
    );
    b.click("#tab-play");

    // The maze, played to its end by tunnel numbers.
    b.new_game(&[("rules", "maze"), ("seed", "3")]);
    let mut turns = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 300, "the maze game goes on too long");
        let action = b.hint();
        let before = b.steps();
        match action.split_whitespace().collect::<Vec<_>>()[..] {
            ["move", t] => b.click(&format!("button[data-tunnel=\"{t}\"]")),
            ["toss", t] => {
                b.click("#toss");
                b.click(&format!("button[data-tunnel=\"{t}\"]"));
            }
            _ => panic!("a maze hint: {action}"),
        }
        if turns == 12 {
            b.screenshot("live-maze.png");
        }
        b.wait_turn(before);
    }
    assert!(!b
        .run("return document.getElementById('outcome').textContent")
        .as_str()
        .unwrap()
        .is_empty());
    // Watch plays the agent's game to its real end, however long: maze seed 3 takes 283
    // steps, past the 250 Watch once stopped at.
    let traced: Vec<Value> = String::from_utf8(
        Command::new(env!("CARGO_BIN_EXE_wumpus"))
            .args(["trace", "--rules", "maze", "--seed", "3", "--json"])
            .output()
            .expect("trace runs")
            .stdout,
    )
    .unwrap()
    .lines()
    .map(|l| serde_json::from_str::<Value>(l).unwrap())
    .collect();
    let traced_steps = traced.iter().filter(|v| v.get("step").is_some()).count();
    assert!(
        traced_steps > 250,
        "maze seed 3 is a long game: {traced_steps}"
    );
    b.click("#tab-watch");
    b.wait(
        "the agent's long maze",
        "return document.body.dataset.view === 'watch' && !!document.querySelector('#w-board text[data-cell]')",
    );
    b.click("#w-last");
    let shown = b.run(
        "return [Number(document.body.dataset.step), document.getElementById('w-outcome').textContent, \
         document.getElementById('w-cut').textContent]",
    );
    assert!(
        shown[0].as_u64().unwrap() as usize >= traced_steps,
        "every step watched: {shown}"
    );
    let outcome = shown[1].as_str().unwrap();
    assert!(
        !outcome.is_empty() && !outcome.contains("unfinished"),
        "the watched game's real end: {shown}"
    );
    b.click("#tab-play");
    // A long game on a big grid (32x32, 855 steps) is watched to its end too, its earlier
    // steps sent in brief (the answer stays small) and still drawn.
    b.new_game(&[
        ("rules", "grid"),
        ("world", ""),
        ("size", "32x32"),
        ("pitprob", "0.05"),
        ("seed", "1"),
    ]);
    let (status, v) = http(
        port,
        "GET",
        &format!("/api/games/{}/watch", b.game_id()),
        None,
    )
    .unwrap();
    assert_eq!(status, 200, "{v}");
    assert!(
        v["compacted"].as_u64().unwrap() > 0,
        "earlier steps compacted"
    );
    assert!(v.to_string().len() < 3 << 20, "the watched game's size");
    assert_ne!(v["end"]["outcome"], json!("unfinished"));
    b.click("#tab-watch");
    b.wait(
        "the agent's big grid",
        "return document.body.dataset.view === 'watch' && !!document.querySelector('#w-board text[data-cell]') \
         && document.getElementById('w-cut').textContent.includes('in brief')",
    );
    for n in [2, 100, v["steps"].as_array().unwrap().len()] {
        b.run(&format!(
            "const s = document.getElementById('w-step'); s.value = {n}; s.dispatchEvent(new Event('input'));"
        ));
        b.wait(
            "a compacted step drawn",
            &format!(
                "return document.body.dataset.step === '{n}' && \
                 document.querySelectorAll('#w-board text.agent').length === 1 && \
                 document.getElementById('w-now').textContent.includes('Step {n}')"
            ),
        );
    }
    b.click("#tab-play");

    // A bad request is refused with a message, and the page says why.
    let port: u16 = url
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let (status, v) = http(
        port,
        "POST",
        "/api/games/nope/act",
        Some(&json!({"action": "north"})),
    )
    .unwrap();
    assert_eq!(status, 404, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no game nope"));
    // The look-ahead is asked for by `depth`, and checked as the command line checks it.
    let game = |body: Value| http(port, "POST", "/api/games", Some(&body)).unwrap();
    let (status, v) = game(json!({"rules": "aima", "size": "4x4", "seed": 1, "depth": 3}));
    assert_eq!(status, 201, "{v}");
    let (status, v) = game(json!({"rules": "grid", "depth": 9}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("depth"), "{v}");
    let (status, v) = game(json!({"rules": "cave", "depth": 2}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("--map-known"), "{v}");

    // Closing the tab (here: leaving for another page) frees its game, after the few seconds
    // a reload would take to ask for it again.
    let id = b.game_id();
    assert_eq!(
        http(port, "GET", &format!("/api/games/{id}"), None)
            .unwrap()
            .0,
        200
    );
    b.goto("about:blank");
    std::thread::sleep(Duration::from_millis(6500));
    let (status, v) = http(port, "GET", &format!("/api/games/{id}"), None).unwrap();
    assert_eq!(status, 404, "a closed tab's game is freed: {v}");

    // A full server: the page says so and offers nothing to press.
    let (_full, full) = start_server(&worlds, &["--max-games", "1"]);
    let (status, v) = http(full, "POST", "/api/games", Some(&json!({"rules": "grid"}))).unwrap();
    assert_eq!(status, 201, "{v}");
    b.goto(&format!("http://127.0.0.1:{full}/"));
    b.wait(
        "the full server's message",
        "return document.body.dataset.state === 'none'",
    );
    let said = b.run("return document.getElementById('outcome').textContent");
    assert!(said.as_str().unwrap().contains("already holds"), "{said}");
    assert_eq!(
        b.run("return Array.from(document.querySelectorAll('#actions button, #tab-watch')).every((x) => x.disabled)"),
        json!(true)
    );
    let Browser { runtime, client } = b;
    runtime
        .block_on(client.close())
        .expect("the browser session ends");
}
