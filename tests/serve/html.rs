//! `trace --html`: the page is self-contained, and headless Chromium renders its board and
//! steps through the game (the page reads `#step=N` from its address on load).
//!
//! Needs Debian's `chromium` (`.ci/run` installs it); without it the browser half of the
//! test is skipped with a message saying so, except where `CI` is set: there it fails.

use crate::common;

use assert_cmd::Command;
use std::path::Path;

fn page(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("game.html");
    let world = format!("{}/worlds/seed-example.txt", env!("CARGO_MANIFEST_DIR"));
    Command::cargo_bin("wumpus")
        .unwrap()
        .args(["trace", "--world", &world, "--html"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains("16 steps"));
    file
}

/// The DOM after the page's script ran, opened at `#step=N`.
fn dump_dom(file: &Path, step: usize) -> Option<String> {
    // Dropped at the end: whatever chromium left running is ended with it.
    let profile = common::browser::Profile::new();
    let out = std::process::Command::new("timeout")
        .arg("120")
        .arg("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}#step={step}", file.display()))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn agent_cell(dom: &str) -> &str {
    let at = dom
        .find(" agent\" data-cell=\"")
        .expect("the agent's cell is drawn");
    let rest = &dom[at + " agent\" data-cell=\"".len()..];
    &rest[..rest.find('"').unwrap()]
}

#[test]
fn the_page_is_self_contained() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(page(dir.path())).unwrap();
    for outside in ["http://", "https://", "src=\"", "<link", "@import"] {
        assert!(
            !text.contains(outside),
            "the page loads something: {outside}"
        );
    }
    assert!(
        text.contains("\"steps\":["),
        "the trace is embedded as JSON"
    );
    assert!(text.contains("\"reason\":\"explore 1,0"));
}

#[test]
fn chromium_renders_the_board_and_steps_forward() {
    if !common::can_run(
        &["chromium"],
        "chromium_renders_the_board_and_steps_forward",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = page(dir.path());
    let first = dump_dom(&file, 1).expect("chromium dumps the page");
    let third = dump_dom(&file, 3).expect("chromium dumps the page");
    let past_the_end = dump_dom(&file, 999).expect("chromium dumps the page");
    // The board: 5x5 cells, drawn by the page's script.
    assert_eq!(first.matches("data-cell=\"").count(), 25, "{first}");
    assert!(first.contains("Step 1 of 16"), "{first}");
    assert!(third.contains("Step 3 of 16"), "{third}");
    assert!(third.contains("data-step=\"3\""));
    // Each step's reason is shown; the agent starts at 0,0.
    assert_eq!(agent_cell(&first), "0,0");
    assert_ne!(first, third);
    assert!(third.contains("Why: "), "{third}");
    assert!(first.contains("explore 1,0"), "{first}");
    // The slider stops at the last step, the won game's climb.
    assert!(past_the_end.contains("Step 16 of 16"));
    assert!(past_the_end.contains("<b>climb</b>"), "{past_the_end}");
    assert!(past_the_end.contains("Outcome: won after 16 moves; score 984."));
    // Knowledge is drawn: by step 6 the wumpus at 2,0 and the pit at 0,2 are proven.
    let sixth = dump_dom(&file, 6).expect("chromium dumps the page");
    assert!(
        sixth.contains("class=\"wumpus\" data-cell=\"2,0\">W"),
        "{sixth}"
    );
    assert!(
        sixth.contains("class=\"pit\" data-cell=\"0,2\">P"),
        "{sixth}"
    );
}

/// What the page's outcome box says.
fn outcome(dom: &str) -> &str {
    let at = dom.find("id=\"outcome\"").expect("the outcome box");
    let rest = &dom[at..];
    &rest[..rest.find("</div>").unwrap()]
}

/// `trace --html` for a cave or maze game: the same page, the cave drawn as a graph.
fn cave_page(dir: &Path, rules: &str, seed: &str) -> (std::path::PathBuf, usize) {
    let file = dir.join(format!("{rules}.html"));
    let out = Command::cargo_bin("wumpus")
        .unwrap()
        .args(["trace", "--rules", rules, "--seed", seed, "--html"])
        .arg(&file)
        .assert()
        .success();
    let said = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let steps = said
        .split(" (")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the step count in: {said}"));
    (file, steps)
}

#[test]
fn cave_and_maze_pages_draw_their_graphs() {
    let dir = tempfile::tempdir().unwrap();
    let mut pages = Vec::new();
    for (rules, seed) in [("cave", "3"), ("maze", "3")] {
        let (file, steps) = cave_page(dir.path(), rules, seed);
        let text = std::fs::read_to_string(&file).unwrap();
        for outside in ["http://", "https://", "src=\"", "<link", "@import"] {
            assert!(!text.contains(outside), "{rules}: loads {outside}");
        }
        assert!(text.contains("\"shape\":\"graph\""), "{rules}");
        pages.push((rules, file, steps));
    }
    if !common::can_run(
        &["chromium"],
        "the browser half of cave_and_maze_pages_draw_their_graphs",
    ) {
        return;
    }
    for (rules, file, steps) in pages {
        let first = dump_dom(&file, 1).expect("chromium dumps the page");
        // The cave's twenty rooms, each drawn once, the player in exactly one. The maze is
        // under a fog of war: at the start its player has been shown one cave and no tunnel.
        let drawn = if rules == "maze" { 1 } else { 20 };
        assert_eq!(
            first.matches("data-cell=\"").count(),
            drawn,
            "{rules}: {first}"
        );
        assert_eq!(first.matches(" agent\" data-cell=\"").count(), 1, "{rules}");
        assert!(first.contains(&format!("Step 1 of {steps}")), "{rules}");
        assert_eq!(
            first.contains("class=\"edge"),
            rules != "maze",
            "{rules}: tunnels are drawn once known"
        );
        // Without the map, the maze's proofs are of the ways on, listed beside the board.
        assert_eq!(
            first.contains("<ul class=\"ways\">"),
            rules == "maze",
            "{rules}: {first}"
        );
        // The ending is not given away before the last step...
        assert!(!outcome(&first).contains("Outcome"), "{rules}: {first}");
        // ...and the last step shows it with the hidden world revealed.
        let last = dump_dom(&file, steps).expect("chromium dumps the page");
        assert!(outcome(&last).contains("Outcome: "), "{rules}: {last}");
        assert!(last.contains("class=\"truth\""), "{rules}: {last}");
        // The end lifts the fog: every room; in the maze every cave the player can tell apart,
        // caves.dat's twenty caves under sixteen names (five are the Lost Caverns of the Wyrm).
        let every = if rules == "maze" { 16 } else { 20 };
        assert_eq!(last.matches("data-cell=\"").count(), every, "{rules}");
        assert!(last.contains("class=\"edge"), "{rules}");
        if rules == "maze" && steps > 2 {
            // Midway, what was shown so far and nothing else.
            let mid = dump_dom(&file, 2).expect("chromium dumps the page");
            let count = mid.matches("data-cell=\"").count();
            assert!((2..16).contains(&count), "maze step 2 draws {count} caves");
        }
    }
}
