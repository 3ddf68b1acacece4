//! The live page's speed on the largest grid it offers, measured in headless Chromium: how
//! long a 64x64 game takes to start (from the click on New game to the first paint of its
//! board, the server's answer included) and how long a move takes (from the key press to the
//! paint after the board is redrawn), following the player and with the whole board in view.
//! Times are taken in the page with `performance.now()`, the paint awaited by a
//! `requestAnimationFrame` and a task after it. Targets: a start within 300 ms, a
//! move within 50 ms at p95. `cargo bench --bench page_speed` (release build; about a minute);
//! it needs `chromium` and `chromedriver`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::browser::{Browser, LivePage};
use serde_json::{json, Value};

/// Games started (one a seed).
const STARTS: u64 = 6;
/// Moves timed following the player, then with the whole board in view.
const MOVES_FOLLOWING: usize = 120;
const MOVES_WHOLE: usize = 60;

/// Waits (in the page) for the board to be redrawn after `trigger` runs, then for the paint
/// after it; answers the milliseconds since just before `trigger`.
const TIMED: &str = r#"
const done = arguments[arguments.length - 1];
const trigger = new Function(arguments[0]);
const before = Number(document.body.dataset.steps || 0), hash = location.hash;
const ready = () => document.body.dataset.state === "over" ||
  (location.hash !== hash && document.body.dataset.state === "playing") ||
  Number(document.body.dataset.steps || 0) > before;
const t0 = performance.now();
const seen = new MutationObserver(() => {
  if (!ready()) return;
  seen.disconnect();
  requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
});
seen.observe(document.body, {attributes: true, attributeFilter: ["data-steps", "data-state"]});
trigger();
"#;

fn timed(b: &Browser, trigger: &str) -> f64 {
    let v = b.wd(
        "a timed action",
        b.client.execute_async(TIMED, vec![json!(trigger)]),
    );
    v.as_f64().expect("milliseconds")
}

/// Starts a 64x64 game at pit chance 0.05 with `seed`, and answers how long it took.
fn start(b: &Browser, seed: u64) -> f64 {
    b.run(&format!(
        "const set = (id, v) => {{ const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); }};\
         set('rules', 'grid'); set('opt-size', '64x64'); set('opt-pit_prob', '0.05'); set('seed', '{seed}'); set('world', '');"
    ));
    timed(b, "document.getElementById('new').click();")
}

/// The hint's action for the game in play (asked of the server, not drawn).
fn hint(b: &Browser) -> String {
    let v: Value = b.wd(
        "a hint",
        b.client.execute_async(
            "const done = arguments[arguments.length - 1];\
             fetch('/api/games/' + location.hash.replace('#game=', '') + '/hint',\
               {headers: {'x-wumpus-key': localStorage.getItem('wumpus-key') || ''}})\
               .then((r) => r.json()).then((v) => done(v.step ? v.step.action : ''));",
            vec![],
        ),
    );
    v.as_str().unwrap_or("").to_string()
}

/// Plays `action` by its key and answers how long the move took to be painted (a shot's
/// first key, F, is not timed).
fn play(b: &Browser, action: &str) -> f64 {
    let key = |k: &str| {
        format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', bubbles: true}}));"
        )
    };
    let arrow = |d: &str| match d {
        "north" => "ArrowUp",
        "south" => "ArrowDown",
        "east" => "ArrowRight",
        _ => "ArrowLeft",
    };
    match action.split_whitespace().collect::<Vec<_>>()[..] {
        ["fire", dir] => {
            b.run(&key("f"));
            timed(b, &key(arrow(dir)))
        }
        ["grab"] => timed(b, &key("g")),
        ["climb"] => timed(b, &key("c")),
        [dir] => timed(b, &key(arrow(dir))),
        _ => panic!("not a grid action: {action}"),
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize]
}

fn report(what: &str, mut ms: Vec<f64>, target: Option<(f64, f64)>) {
    ms.sort_by(f64::total_cmp);
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    println!(
        "{what}: {} timed; mean {mean:.1} ms, median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        ms.len(),
        quantile(&ms, 0.5),
        quantile(&ms, 0.95),
        quantile(&ms, 1.0)
    );
    if let Some((q, most)) = target {
        let got = quantile(&ms, q);
        println!(
            "  target: {} at most {most} ms: {}",
            if q >= 1.0 { "every one" } else { "p95" },
            if got <= most { "met" } else { "NOT met" }
        );
    }
}

fn main() {
    if !common::can_run(&["chromium", "chromedriver"], "the page_speed benchmark") {
        return;
    }
    let page = LivePage::open(Some((1400, 900)));
    let b = page.browser;
    let starts: Vec<f64> = (1..=STARTS).map(|seed| start(&b, seed)).collect();
    let mut seed = STARTS;
    let mut moves = |b: &Browser, count: usize| {
        let mut ms = Vec::new();
        let mut empty = 0;
        while ms.len() < count {
            if b.over() {
                seed += 1;
                start(b, seed);
            }
            let action = hint(b);
            if action.is_empty() {
                // A game without a hint is over or refused; a run of them is a broken page.
                empty += 1;
                assert!(empty < 5, "no hint for five games running");
                seed += 1;
                start(b, seed);
                continue;
            }
            empty = 0;
            ms.push(play(b, &action));
        }
        ms
    };
    let following = moves(&b, MOVES_FOLLOWING);
    b.run("document.dispatchEvent(new KeyboardEvent('keydown', {key: '0', bubbles: true}));");
    assert_eq!(
        b.run("return document.getElementById('board').dataset.detail"),
        json!("tiny"),
        "the whole 64x64 board in view is drawn in colours only"
    );
    let whole = moves(&b, MOVES_WHOLE);
    println!("the live page in headless Chromium at 1400x900, grid 64x64, pit chance 0.05");
    report(
        "game start (New game to painted board)",
        starts,
        Some((1.0, 300.0)),
    );
    report(
        "move, following the player (key to painted board)",
        following,
        Some((0.95, 50.0)),
    );
    report("move, the whole board in view", whole, Some((0.95, 50.0)));
}
