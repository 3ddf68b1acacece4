//! The live page in headless Chromium, as a player keeps it open: one game in two tabs of one
//! browser stays one game (an action in one shows in the other; closing one never ends the
//! game the other shows), a reload keeps the player's own commands in the log, "Your games"
//! lists the games the browser holds and ends one, Watch has its speed and steps, and the
//! board asserts only what the step it draws proves.

use crate::common;

use common::browser::LivePage;
use common::http::request;
use std::time::Duration;

/// The ids of the games the browser of `key` holds, as the server lists them (asking for the
/// list uses no game, so it keeps none alive).
fn held(port: u16, key: &str) -> Vec<String> {
    let reply = request(
        "127.0.0.1".parse().unwrap(),
        port,
        "GET",
        "/api/games",
        &[("X-Wumpus-Key", key)],
        None,
    )
    .unwrap();
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

/// The browser's key, as the page keeps it.
fn key_of(b: &common::browser::Browser) -> String {
    b.run("return localStorage.getItem('wumpus-key')")
        .as_str()
        .expect("the page keeps its key")
        .to_string()
}

fn page() -> Option<LivePage> {
    common::can_run(&["chromium", "chromedriver"], "the live page's tabs")
        .then(|| LivePage::open(Some((1400, 900))))
}

/// A grid game in a first tab, and a second tab of the same browser on it (a copied link),
/// switched to: the browser's key, the game's id and the two tabs' handles.
fn two_tabs_on_one_game(
    b: &common::browser::Browser,
    port: u16,
) -> (
    String,
    String,
    fantoccini::wd::WindowHandle,
    fantoccini::wd::WindowHandle,
) {
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    let id = b.game_id();
    let key = key_of(b);
    let first = b.wd("window", b.client.window());
    let second = b.wd("new tab", b.client.new_window(true)).handle;
    b.wd("switch", b.client.switch_to_window(second.clone()));
    b.goto(&format!("http://127.0.0.1:{port}/#game={id}"));
    b.wait(
        "the game in the second tab",
        "return document.body.dataset.state === 'playing'",
    );
    (key, id, first, second)
}

#[test]
fn one_game_in_two_tabs_stays_one_game_and_a_closed_tab_never_ends_it() {
    let Some(page) = page() else { return };
    let (b, port) = (&page.browser, page.port);
    let (key, id, first, second) = two_tabs_on_one_game(b, port);
    let before = b.steps();
    // An action in the first tab shows in the second, pushed to it.
    b.wd("switch", b.client.switch_to_window(first.clone()));
    b.press("\u{E013}"); // up: north
    b.wait(
        "the first tab moved",
        &format!(
            "return Number(document.body.dataset.steps) === {}",
            before + 1
        ),
    );
    b.wd("switch", b.client.switch_to_window(second.clone()));
    b.wait(
        "the move shown in the second tab",
        &format!(
            "return Number(document.body.dataset.steps) === {}",
            before + 1
        ),
    );
    assert!(b
        .run("return document.getElementById('log').textContent")
        .as_str()
        .unwrap()
        .contains("> north"));
    // Closing the first tab ends nothing: the second still shows and plays the game.
    b.wd("switch", b.client.switch_to_window(first));
    b.wd("close", b.client.close_window());
    b.wd("switch", b.client.switch_to_window(second));
    std::thread::sleep(Duration::from_millis(6500));
    assert!(
        held(port, &key).contains(&id),
        "the game another tab shows lives on"
    );
    b.press("\u{E015}"); // down: south
    b.wait(
        "the second tab plays on",
        &format!(
            "return Number(document.body.dataset.steps) === {}",
            before + 2
        ),
    );
    // Once no tab shows it, the game ends after the grace: the last tab closed.
    b.goto("about:blank");
    std::thread::sleep(Duration::from_millis(6500));
    assert!(!held(port, &key).contains(&id), "no tab shows it any more");
}

#[test]
fn a_new_game_in_one_tab_never_ends_the_game_another_tab_plays() {
    let Some(page) = page() else { return };
    let (b, port) = (&page.browser, page.port);
    let (key, id, first, _second) = two_tabs_on_one_game(b, port);
    // New game in the second tab: the first tab's game lives on, and it plays.
    b.new_game(&[("rules", "cave"), ("seed", "3")]);
    assert_ne!(b.game_id(), id);
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        held(port, &key).contains(&id),
        "the game the first tab plays was ended by a new game in the second"
    );
    b.wd("switch", b.client.switch_to_window(first));
    let before = b.steps();
    b.press("\u{E013}"); // up: north
    b.wait(
        "the first tab plays on",
        &format!(
            "return Number(document.body.dataset.steps) === {}",
            before + 1
        ),
    );
    // With no other tab on it, a new game ends the one it replaces, as before.
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    std::thread::sleep(Duration::from_millis(500));
    assert!(!held(port, &key).contains(&id), "the replaced game ends");
}

#[test]
fn a_reload_keeps_the_commands_and_your_games_lists_and_ends_them() {
    let Some(page) = page() else { return };
    let (b, port) = (&page.browser, page.port);
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    b.press("\u{E013}"); // north
    b.wait("a move", "return Number(document.body.dataset.steps) === 2");
    b.reload();
    b.wait(
        "the reloaded game",
        "return document.body.dataset.state === 'playing' && Number(document.body.dataset.steps) === 2",
    );
    let log = b.run("return document.getElementById('log').textContent");
    assert!(log.as_str().unwrap().contains("> north"), "{log}");
    // A second game, in a second tab: the browser holds two, and either tab lists both.
    let first_game = b.game_id();
    let first = b.wd("window", b.client.window());
    let second = b.wd("new tab", b.client.new_window(true)).handle;
    b.wd("switch", b.client.switch_to_window(second));
    b.goto(&format!("http://127.0.0.1:{port}/"));
    b.new_game(&[("rules", "cave"), ("seed", "3")]);
    b.click("#tab-games");
    b.wait(
        "the list of games",
        "return document.querySelectorAll('#yourgames .yourgame').length === 2",
    );
    // The other game says how long it has been left alone.
    let other = b.run(&format!(
        "return document.querySelector(\"#yourgames [data-game='{first_game}']\").textContent"
    ));
    assert!(
        other.as_str().unwrap().contains("idle "),
        "the other game's idle time: {other}"
    );
    // Ended from the second tab's list, the first game says so in the first tab, which
    // plays no more.
    b.click(&format!("#yourgames [data-end='{first_game}']"));
    b.wait(
        "one game fewer",
        "return document.querySelectorAll('#yourgames .yourgame').length === 1",
    );
    b.wd("switch", b.client.switch_to_window(first));
    b.wait(
        "the first tab told its game ended",
        "return document.body.dataset.state !== 'playing'",
    );
    assert!(!held(port, &key_of(b)).contains(&first_game));
    let steps = b.steps();
    b.press("\u{E013}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.steps(), steps, "an ended game takes no move");
}

#[test]
fn watch_plays_at_a_chosen_speed_pauses_and_steps() {
    let Some(page) = page() else { return };
    let b = &page.browser;
    b.new_game(&[("rules", "grid"), ("world", "seed-example.txt")]);
    b.click("#tab-watch");
    b.wait(
        "the agent's game",
        "return document.body.dataset.view === 'watch' && !!document.body.dataset.step",
    );
    b.click("#w-next");
    b.wait("one step on", "return document.body.dataset.step === '2'");
    b.run("const s = document.getElementById('w-speed'); s.value = '0'; s.dispatchEvent(new Event('change'));");
    b.click("#w-play");
    b.wait(
        "played to the end as fast as it draws",
        "return Number(document.body.dataset.step) === Number(document.getElementById('w-step').max)",
    );
    b.click("#w-first");
    b.click("#w-play");
    b.click("#w-play");
    b.wait(
        "the button says the replay is paused",
        "return document.getElementById('w-play').getAttribute('aria-pressed') === 'false'",
    );
    let at = b.run("return document.body.dataset.step");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.run("return document.body.dataset.step"), at, "paused");
}

#[test]
fn the_board_asserts_only_what_the_step_it_draws_proves() {
    let Some(page) = page() else { return };
    let b = &page.browser;
    // A room proven safe at step 1 that the wumpus, woken, may have walked into by step 2:
    // the board draws its odds, and its explanation gives no stale proof.
    let said = b.run(
        "const board = {shape: 'graph', places: [0,1,2].map((i) => ({label: String(i + 1), x: i / 2, y: 0.5})), \
           edges: [{from: 0, to: 1, both_ways: true}, {from: 1, to: 2, both_ways: true}]}; \
         const step = (n, extra) => Object.assign({step: n, at: '1', facing: null, percepts: [], messages: [], \
           arrows: 4, moves: n, exits: [], entries: [], learned: [], visited: ['1', '2'], proven_safe: ['1', '2'], \
           proven_pit: [], proven_wumpus: [], proven_bats: [], odds: [], whereabouts: [], proven_ways: [], \
           wumpus_alive: true, choices: [], route: [], target: null, depth: null, action: null, rule: null, reason: null}, extra); \
         const steps = [step(1, {learned: [{place: '2', fact: 'safe', because: ['no stench at 1']}]}), \
           step(2, {proven_safe: ['1'], odds: [{place: '2', pit: 0, wumpus: 0.27, bats: 0, death: 0.27}]})]; \
         const d = WumpusDraw.Drawing(board, 'cave'); \
         return [d.explain(steps, 2, '2'), d.explain(steps, 1, '2')];",
    );
    let now = said[0].as_str().unwrap();
    let then = said[1].as_str().unwrap();
    assert!(
        now.contains("27%") && !now.contains("Proved at step"),
        "{now}"
    );
    assert!(then.contains("Proved at step 1"), "{then}");
}
