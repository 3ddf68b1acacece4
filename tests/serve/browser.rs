//! The live page of `wumpus serve` in a real browser: the test starts the server on a free
//! loopback port, starts `chromedriver`, and drives headless Chromium over the W3C WebDriver
//! protocol (the `fantoccini` client). It wins a grid world by following hints
//! (pressing the keys and clicking the buttons the hints name), plays a classic cave and a maze
//! to their ends by clicking rooms and tunnels, and checks that what the board marks as proven,
//! in play and when watching the agent, is what `trace --json` reports for the same seed. On
//! 32x32 and 64x64 grids it checks the window that follows the player (labels inside their
//! cells and clear of their marks, the player in view, zoom and pan), and that a hint's chance
//! to die is the board's and the explanation's, which names the observations behind it.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); without them the
//! test prints SKIPPED and passes, except where `CI` is set: there it fails. With
//! `WUMPUS_SCREENSHOTS=DIR` set it saves screenshots of the page there (`docs/img/` holds the
//! ones in the docs).

use crate::common;

use common::browser::{Browser, LivePage};
use common::http::{http, start_server};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::process::Command;
use std::time::Duration;

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

/// When the hint on screen quotes a chance to die ("31% to die"), the board shows the same
/// number on the place the hint rings, the place's explanation says it, and names the
/// observations behind it. Returns whether the hint quoted one.
fn risk_agrees(b: &Browser) -> bool {
    let v = b.run(
        "const hint = document.querySelector('#hintbox .hint').textContent;\
         const m = /(\\d+%|<1%|>99%) to die/.exec(hint);\
         const ring = document.querySelector('#board .hinttarget');\
         if (!m || !ring) return null;\
         const place = ring.getAttribute('data-target');\
         const mark = document.querySelector('#board text[data-cell=\"' + place + '\"]');\
         return [m[1], place, mark ? mark.textContent : null];",
    );
    let Some(found) = v.as_array() else {
        return false;
    };
    let (said, place) = (found[0].as_str().unwrap(), found[1].as_str().unwrap());
    assert_eq!(
        found[2],
        json!(said),
        "the board's number at {place} is the hint's"
    );
    // Asked about the place, the page gives the same number and what drives it.
    b.run(&format!(
        "document.querySelector('#board [data-place=\"{place}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true, shiftKey: true}}))"
    ));
    let why = b.run("return document.querySelector('#explain .why').getAttribute('data-risk') + ' | ' + document.querySelector('#explain .drivers').textContent");
    let why = why.as_str().unwrap().to_string();
    assert!(why.starts_with(&format!("{said} | ")), "{why}");
    assert!(why.contains("Driven by: ") && why.contains(" at "), "{why}");
    b.run(&format!(
        "document.querySelector('#board [data-place=\"{place}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true, shiftKey: true}}))"
    ));
    true
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
    let page = LivePage::open(None);
    let port = page.port;
    let b = page.browser;
    let url = format!("http://127.0.0.1:{port}/");
    let worlds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("worlds");

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
    b.run("document.getElementById('opt-size').value = '1x1'");
    b.click("#new");
    b.wait(
        "the size refused",
        "return document.getElementById('status').textContent.includes('from 2x2 to 64x64')",
    );
    b.run("document.getElementById('opt-size').value = '5x5'");

    // A grid world won by following hints, with keys and buttons.
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    let (mut turns, mut walks) = (0, 0);
    while !b.over() {
        turns += 1;
        assert!(turns < 60, "the hinted game goes on too long");
        let action = b.hint();
        if ["north", "south", "east", "west"].contains(&action.as_str()) {
            // The hint's target is ringed on the board, and the walk it plans there is drawn
            // from the player's place to the ring.
            assert_eq!(
                b.run("return document.querySelectorAll('#board .hinttarget').length"),
                json!(1),
                "the hint's target marked"
            );
            let walk = b.run(
                "const line = document.querySelector('#board .hintroute');\
                 const ring = document.querySelector('#board .hinttarget');\
                 return line ? [line.getAttribute('data-route').split(' '),\
                   ring.getAttribute('data-target'), line.getAttribute('points').split(' ').length] : null;",
            );
            let walk = walk.as_array().expect("the hint's route drawn");
            let places: Vec<&str> = walk[0]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert_eq!(
                places.last(),
                walk[1].as_str().as_ref(),
                "the route ends at the ring"
            );
            assert_eq!(walk[2], json!(places.len()), "a point for each place");
            if places.len() > 2 {
                if walks == 0 {
                    b.screenshot("live-route.png");
                }
                walks += 1;
            }
        }
        if turns == 5 {
            b.screenshot("live-grid.png");
        }
        play_grid(&b, &action);
    }
    assert_eq!(b.run("return document.body.dataset.outcome"), json!("won"));
    assert!(walks > 0, "some hint plans a walk of more than one step");
    let outcome = b.run("return document.getElementById('outcome').textContent");
    assert!(outcome.as_str().unwrap().contains("won"), "{outcome}");
    assert!(b
        .run("return document.getElementById('log').textContent")
        .as_str()
        .unwrap()
        .contains("Score: "));

    // The same world with the arrow shot east first, where it misses: the game is still won
    // by the gold, and the ending says the arrow missed (never "hitting").
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    let before = b.steps();
    b.press("f");
    b.press(RIGHT);
    b.wait_turn(before);
    let mut turns = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 60, "the hinted game after a miss goes on too long");
        let action = b.hint();
        play_grid(&b, &action);
    }
    assert_eq!(b.run("return document.body.dataset.outcome"), json!("won"));
    let outcome = b.run("return document.getElementById('outcome').textContent");
    let outcome = outcome.as_str().unwrap();
    assert!(
        outcome.contains("1 arrow shot, missing.") && !outcome.contains("hitting"),
        "{outcome}"
    );

    // Two tabs on one game: another tab's action is pushed to this page, which draws it as
    // the game's next step; an action sent from a stale view carries the step its page was
    // at and is refused (409).
    let trace = trace_steps("7");
    b.new_game(&[
        ("rules", "grid"),
        ("world", ""),
        ("opt-size", "5x5"),
        ("opt-pit_prob", "0.2"),
        ("seed", "7"),
    ]);
    let id = b.game_id();
    let act =
        |body: Value| http(port, "POST", &format!("/api/games/{id}/act"), Some(&body)).unwrap();
    let first = trace[0]["action"].as_str().unwrap();
    let (status, v) = act(json!({"action": first, "step": 1}));
    assert_eq!(status, 200, "the other tab's move: {v}");
    b.wait(
        "the other tab's move pushed",
        "return Number(document.body.dataset.steps) === 2",
    );
    same_as_trace(&b.marks("board"), &trace[1], "the move another tab made");
    let second = trace[1]["action"].as_str().unwrap();
    b.press(key_of(second));
    b.wait_turn(2);
    let (status, v) = act(json!({"action": second, "step": 2}));
    assert_eq!(status, 409, "a stale step refused: {v}");
    assert!(v["error"].as_str().unwrap().contains("at step 3"), "{v}");
    let (status, v) = act(json!({"action": trace[2]["action"]}));
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
    // An address that names no game says so, in an edit and in a link; an id in capitals is
    // the same game.
    b.run("location.hash = '#game=nothex'");
    b.wait(
        "the edited address naming no game",
        &format!(
            "return document.getElementById('status').textContent.includes('names no game') \
             && location.hash === '#game={other}'"
        ),
    );
    b.goto("about:blank");
    b.goto(&format!("{url}#game={}", other.to_uppercase()));
    b.wait(
        "the game named in capitals",
        &format!(
            "return document.body.dataset.state === 'playing' && \
             document.getElementById('rules').value === 'cave' && \
             location.hash === '#game={other}'"
        ),
    );
    b.goto("about:blank");
    b.goto(&format!("{url}#game=nothex"));
    b.wait(
        "the link naming no game",
        "return document.body.dataset.state === 'playing' && \
         document.getElementById('status').textContent.includes('names no game')",
    );
    b.goto(&format!("{url}#game={other}"));
    b.wait(
        "the cave game again",
        "return document.body.dataset.state === 'playing' && \
         document.getElementById('rules').value === 'cave'",
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
    b.resize(1400, 900);
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
        ("opt-size", "5x5"),
        ("opt-pit_prob", "0.2"),
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
         set('opt-size', '4x4'); set('opt-pit_prob', '0.2'); set('seed', '');",
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
    // the keys (up or F forward, left or L turn left, S shoot) and the buttons (turn right, grab, climb);
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
            // The arrow keys and the command line's letters (f, l, s) alike.
            "forward" => b.press(if turns % 2 == 0 { UP } else { "f" }),
            "turn left" => b.press(if turns % 2 == 0 { LEFT } else { "l" }),
            "shoot" => b.press("s"),
            "turn right" => b.click("[data-input=heading] button[data-act=\"right\"]"),
            "grab" => b.click("[data-input=heading] button[data-act=\"grab\"]"),
            "climb" => b.click("[data-input=heading] button[data-act=\"climb\"]"),
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
    let mut risks = 0;
    while !b.over() {
        turns += 1;
        assert!(turns < 120, "the cave game goes on too long");
        let action = b.hint();
        risks += usize::from(risk_agrees(&b));
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
    assert!(risks > 0, "a cave hint quoted a chance to die");
    let said = b.run("return document.getElementById('log').textContent");
    assert!(
        said.as_str().unwrap().contains("AHA! You got the wumpus!"),
        "{said}"
    );
    // The wumpus killed is crossed out where it lay.
    assert!(
        b.run("return document.querySelectorAll('#board .dead').length")
            .as_u64()
            .unwrap()
            >= 1,
        "the dead wumpus crossed out at the end"
    );
    // The winning arrow is gone too: the arrows left and the arrows shot make the five.
    let counts = b.run(
        "const left = document.getElementById('playerstatus').textContent.match(/Arrows: (\\d+)/);\
         const shot = document.getElementById('outcome').textContent.match(/(\\d+) arrows? shot, the last one hitting/);\
         return [left && Number(left[1]), shot && Number(shot[1])];",
    );
    assert!(
        counts[0].as_u64().unwrap() + counts[1].as_u64().unwrap() == 5,
        "arrows left and shot after a winning shot: {counts}"
    );

    // The maze remembers: after 10 hinted moves the visited caves and the tunnels seen are
    // drawn in Play as in Watch at the same step, and a reload keeps them.
    b.new_game(&[("rules", "maze"), ("seed", "6")]);
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
        // The page tells only what the game told: caves by name (seed 3 starts in one of the
        // five Lost Caverns, which the player cannot tell apart), drawn only once named.
        if !b.over() && turns % 4 == 1 {
            let page = b.run("return document.body.innerText");
            assert!(
                !page.as_str().unwrap().contains("(cave "),
                "a cave's number shown: {page}"
            );
            let said = b.run("return document.getElementById('log').textContent");
            let said = said.as_str().unwrap();
            let drawn = labels(&b.run(
                "return Array.from(document.querySelectorAll('#board text[data-cell]')).map((t) => t.getAttribute('data-cell'))",
            ));
            for name in &drawn {
                assert!(said.contains(name.as_str()), "{name} drawn, never said");
            }
        }
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
        ("opt-size", "32x32"),
        ("opt-pit_prob", "0.05"),
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
    assert!(v["error"].as_str().unwrap().contains("no game nope"), "{v}");
    // The look-ahead is asked for by `depth`, and checked as the command line checks it.
    let game = |body: Value| http(port, "POST", "/api/games", Some(&body)).unwrap();
    let (status, v) = game(json!({"rules": "aima", "size": "4x4", "seed": 1, "depth": 3}));
    assert_eq!(status, 201, "{v}");
    let (status, v) = game(json!({"rules": "grid", "depth": 9}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("depth"), "{v}");
    let (status, v) = game(json!({"rules": "cave", "depth": 2}));
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("(the map known field)"),
        "{v}"
    );

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

    // A full server, where this browser holds its share: the page says so and offers nothing
    // to press. (A browser holding less than its share would take the place of another's.)
    let (_full, full) = start_server(&worlds, &["--max-games", "1"]);
    let (status, v) = http(full, "POST", "/api/games", Some(&json!({"rules": "grid"}))).unwrap();
    assert_eq!(status, 201, "{v}");
    b.goto(&format!("http://127.0.0.1:{full}/api/catalogue"));
    b.run(&format!(
        "localStorage.setItem('wumpus-key', '{}')",
        common::http::test_key(full)
    ));
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

/// The bounding boxes of what must stay apart on a board: for each place drawn in full, its
/// label's box, its mark's box and its cell's box (left, top, right, bottom, in CSS pixels).
const BOXES: &str = "const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };\
  return Array.from(document.querySelectorAll('#board text[data-cell]')).map((m) => {\
    const place = m.getAttribute('data-cell');\
    const cell = document.querySelector('#board [data-place=\"' + place + '\"]');\
    const label = Array.from(document.querySelectorAll('#board text.label')).find((t) => t.textContent === place);\
    return [place, box(cell), box(m), label ? box(label) : null];\
  });";

/// True when box `a` lies within `b` (a pixel of slack for rounding).
fn within(a: &[f64], b: &[f64]) -> bool {
    a[0] >= b[0] - 1.0 && a[1] >= b[1] - 1.0 && a[2] <= b[2] + 1.0 && a[3] <= b[3] + 1.0
}

/// A place drawn in full, as [`BOXES`] measures it: its label, and its cell's, mark's and
/// label's boxes.
type Drawn = (String, Vec<f64>, Vec<f64>, Option<Vec<f64>>);

fn boxes(b: &Browser) -> Vec<Drawn> {
    let rect = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    b.run(BOXES)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                rect(&r[1]),
                rect(&r[2]),
                (!r[3].is_null()).then(|| rect(&r[3])),
            )
        })
        .collect()
}

/// The player's token lies within the board's box on screen.
fn player_in_view(b: &Browser) -> bool {
    b.run(
        "const svg = document.getElementById('board').getBoundingClientRect();\
         const t = document.querySelector('#board .token');\
         if (!t) return false;\
         const r = t.getBoundingClientRect();\
         return r.width > 0 && r.left >= svg.left && r.right <= svg.right && r.top >= svg.top && r.bottom <= svg.bottom;",
    ) == json!(true)
}

#[test]
fn big_boards_follow_the_player_and_odds_name_their_observations() {
    if !common::can_run(
        &["chromium", "chromedriver"],
        "big_boards_follow_the_player_and_odds_name_their_observations",
    ) {
        return;
    }
    let page = LivePage::open(Some((1400, 900)));
    let b = page.browser;

    // At 32x32 and 64x64 the board is seen through a window, every label inside its cell and
    // clear of its mark, and the player in view as it moves.
    for (size, seed, moves) in [("32x32", "2", 5), ("64x64", "1", 40)] {
        b.new_game(&[
            ("rules", "grid"),
            ("opt-size", size),
            ("opt-pit_prob", "0.05"),
            ("seed", seed),
        ]);
        assert_eq!(
            b.run("return document.getElementById('board').dataset.detail"),
            json!("full"),
            "{size}: drawn in full through the window"
        );
        let drawn = boxes(&b);
        assert!(
            drawn.len() > 100 && drawn.len() < 600,
            "{size}: the places in the window are drawn, not all ({})",
            drawn.len()
        );
        for (place, cell, mark, label) in &drawn {
            let label = label
                .as_ref()
                .unwrap_or_else(|| panic!("{size}: {place} labelled"));
            assert!(
                within(label, cell),
                "{size}: {place}'s label {label:?} within {cell:?}"
            );
            let apart = label[3] <= mark[1] + 1.0 || label[2] <= mark[0] + 1.0;
            assert!(
                apart,
                "{size}: {place}'s label {label:?} clear of its mark {mark:?}"
            );
        }
        for turn in 0..moves {
            if b.over() {
                break;
            }
            let action = b.hint();
            play_grid(&b, &action);
            assert!(
                player_in_view(&b),
                "{size}: the player in view after move {turn}"
            );
        }
        if size == "64x64" {
            b.screenshot("live-64.png");
        }
    }

    // Zoom: out, the whole board (colours only, the player ringed wide), back in, and
    // following the player again after a drag.
    let span = || {
        b.run("return document.getElementById('board').viewBox.baseVal.width")
            .as_f64()
            .unwrap()
    };
    let key = |k: &str| {
        b.run(&format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', bubbles: true}}))"
        ));
    };
    let before = span();
    b.click(".zoombar [data-zoom=out]");
    assert!(span() > before * 1.4, "zoomed out");
    key("0");
    assert_eq!(
        b.run("return document.getElementById('board').dataset.detail"),
        json!("tiny")
    );
    assert_eq!(
        b.run("return document.querySelectorAll('#board text.label').length"),
        json!(0),
        "no labels from afar"
    );
    assert_eq!(
        b.run("const v = document.getElementById('board').viewBox.baseVal; return v.width >= 64 * 200 && v.height >= 64 * 200"),
        json!(true),
        "the whole board in view"
    );
    // From afar the unknown cells are one shape; the known ones their own.
    let known = b.run("return document.querySelectorAll('#board [data-place]').length");
    assert!(
        (1..64 * 64).contains(&known.as_u64().unwrap()),
        "{known} places drawn one by one"
    );
    assert_eq!(
        b.run("return document.querySelectorAll('#board rect.unknowns').length"),
        json!(1)
    );
    assert!(
        player_in_view(&b)
            && b.run("return !!document.querySelector('#board .youfar')") == json!(true)
    );
    key("+");
    key("+");
    assert!(span() < 64.0 * 200.0, "zoomed in");
    let x0 = b.run("return document.getElementById('board').viewBox.baseVal.x");
    b.run(
        "const svg = document.getElementById('board'); const r = svg.getBoundingClientRect();\
         const at = (x) => ({clientX: r.left + x, clientY: r.top + 200, pointerId: 7, button: 0, bubbles: true});\
         svg.dispatchEvent(new PointerEvent('pointerdown', at(500)));\
         window.dispatchEvent(new PointerEvent('pointermove', at(460)));\
         window.dispatchEvent(new PointerEvent('pointermove', at(300)));\
         window.dispatchEvent(new PointerEvent('pointerup', at(300)));",
    );
    assert_ne!(
        b.run("return document.getElementById('board').viewBox.baseVal.x"),
        x0,
        "dragged"
    );
    let shown = b.run("return document.querySelector('.zoombar .shown').textContent");
    assert!(!shown.as_str().unwrap().contains("following"), "{shown}");
    key(".");
    assert!(player_in_view(&b), "following the player again");
    let shown = b.run("return document.querySelector('.zoombar .shown').textContent");
    assert!(
        shown.as_str().unwrap().contains("following the player"),
        "{shown}"
    );

    // One risk number: a hint that takes a risk quotes the number the board shows on its
    // target and the explanation of that place gives, with the observations behind it.
    b.new_game(&[
        ("rules", "grid"),
        ("opt-size", "8x8"),
        ("opt-pit_prob", "0.2"),
        ("seed", "4"),
    ]);
    let mut checked = false;
    for _ in 0..40 {
        if b.over() {
            break;
        }
        let action = b.hint();
        if risk_agrees(&b) {
            checked = true;
            break;
        }
        play_grid(&b, &action);
    }
    assert!(checked, "a grid hint quoted a chance to die");
    let legend = b.run("return document.getElementById('legend').textContent");
    assert!(
        legend
            .as_str()
            .unwrap()
            .contains("the chance to die on stepping in"),
        "{legend}"
    );
}
