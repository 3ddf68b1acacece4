//! The textbook's rules (`--rules aima`) end to end through the real binary: a hand-worked
//! game on seed 001's example world checks the heading, the bump, the arrow's direction and
//! the score; a batch of mixed sizes (`--size 4x4..7x7`) replays game by game from its seeds;
//! and `--help` says what the rule set is.

use crate::common;
use common::wumpus;

/// Plays `moves` (one a line) on seed 001's example world (5x5: a pit at 0,2, the wumpus at
/// 2,0, the gold at 3,2) under the textbook's rules.
fn play(moves: &[&str]) -> String {
    let input = moves.join("\n") + "\n";
    let run = wumpus(
        &[
            "play",
            "--rules",
            "aima",
            "--world",
            "worlds/seed-example.txt",
        ],
        &input,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn a_hand_worked_game_turns_bumps_shoots_the_way_it_faces_and_scores() {
    let out = play(&[
        "right", "forward", // south: the wall
        "left", "left", "forward", // north to 1,0, next to the wumpus at 2,0
        "shoot",   // north: the scream
        "forward", // 2,0, the dead wumpus
        "right", "forward", "forward", "left", "forward", // 2,1, 2,2, north to 3,2
        "grab", "left", "forward", "forward", // west to 3,1, 3,0
        "left", "forward", "forward", "forward", // south to 2,0, 1,0, 0,0
        "climb",
    ]);
    assert!(out.contains("You are at 0,0, facing east."), "{out}");
    assert!(
        out.contains("You turn right.\nYou are at 0,0, facing south."),
        "{out}"
    );
    assert!(
        out.contains("You feel a bump as you walk into a wall.\nYou are at 0,0, facing south."),
        "{out}"
    );
    assert!(
        out.contains("You smell a terrible stench.\nYou are at 1,0, facing north."),
        "{out}"
    );
    assert!(
        out.contains("You shoot an arrow. You hear a horrible scream."),
        "{out}"
    );
    assert!(out.contains("There is a dead Wumpus here."), "{out}");
    assert!(
        out.contains(
            "You see a glint of something that looks like gold.\nYou are at 3,2, facing north."
        ),
        "{out}"
    );
    assert!(out.contains("You pick up a pile of gold."), "{out}");
    // 21 actions, the turns and the bump among them, and the arrow: 1000 - 21 - 10.
    assert!(
        out.contains("You climb up out of Wumpus World.\nScore: 969"),
        "{out}"
    );
}

#[test]
fn the_arrow_flies_east_at_the_start_and_misses_a_wumpus_to_the_north() {
    let out = play(&["shoot", "climb"]);
    assert!(out.contains("You shoot an arrow.\n"), "{out}");
    assert!(!out.contains("scream"), "{out}");
    // Two actions and the arrow; climbing out without the gold earns nothing.
    assert!(out.contains("Score: -12"), "{out}");
}

#[test]
fn compass_moves_are_refused_with_the_reason_and_the_game_goes_on() {
    let out = play(&["north", "forward 2", "left"]);
    assert!(out.contains("is a compass move"), "{out}");
    assert!(out.contains("takes no words after it"), "{out}");
    assert!(out.contains("facing north"), "{out}");
}

#[test]
fn a_hint_speaks_in_the_textbooks_actions() {
    let out = play(&["right", "hint"]);
    // Facing south into the wall, the cheapest new cell is east, a left turn away (north
    // would take two turns).
    assert!(
        out.contains("Hint: turn left -- turn left, then forward: explore 0,1"),
        "{out}"
    );
}

#[test]
fn mixed_sizes_are_dealt_per_seed_and_each_game_replays_alone() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "aima",
            "--size",
            "4x4..7x7",
            "--worlds",
            "40",
            "--seed",
            "11",
            "--json",
            "--csv",
            csv.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["game"]["rules"], "aima");
    assert_eq!(summary["game"]["size"], "4x4..7x7");
    assert!(
        summary["game"]["scoring"].is_null(),
        "aima scores its own way"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    let mut sizes = std::collections::BTreeSet::new();
    for row in rows.lines().skip(1).take(12) {
        let cells: Vec<&str> = row.split(',').collect();
        let (seed, score) = (cells[0], cells[2]);
        let trace = wumpus(
            &[
                "trace", "--rules", "aima", "--size", "4x4..7x7", "--seed", seed, "--json",
            ],
            "",
        );
        assert_eq!(trace.code, 0, "{}", trace.stderr);
        let lines: Vec<serde_json::Value> = trace
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let start = &lines[0];
        let size = start["game"]["size"].as_str().unwrap().to_string();
        let side = size.split('x').next().unwrap().parse::<usize>().unwrap();
        assert!(
            (4..=7).contains(&side) && size == format!("{side}x{side}"),
            "{size}"
        );
        sizes.insert(size);
        let end = lines.last().unwrap();
        assert_eq!(end["score"].to_string(), score, "seed {seed} replays alone");
    }
    assert!(
        sizes.len() >= 2,
        "several sizes among a dozen games: {sizes:?}"
    );
    // The compass grid takes ranges too; a range of one size is that size.
    let grid = wumpus(
        &["solve", "--size", "3x4..4x6", "--worlds", "20", "--json"],
        "",
    );
    assert_eq!(grid.code, 0, "{}", grid.stderr);
    let one = wumpus(
        &["solve", "--size", "5x5..5x5", "--worlds", "5", "--json"],
        "",
    );
    let one: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
    assert_eq!(one["game"]["size"], "5x5");
    let bad = wumpus(&["solve", "--size", "7x7..4x4"], "");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("not a range of sizes"),
        "{}",
        bad.stderr
    );
}

#[test]
fn help_says_what_the_rule_set_is() {
    let run = wumpus(&["solve", "--help"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("aima"), "{}", run.stdout);
    assert!(run.stdout.contains("textbook"), "{}", run.stdout);
    assert!(run.stdout.contains("4x4..7x7"), "{}", run.stdout);
}

#[test]
fn on_a_big_open_grid_the_agent_climbs_out_before_the_score_floor() {
    // Exploring 64x64 at pit probability 0.05 takes more than 1000 actions; the game would end
    // unfinished at -1000, so the agent turns home in time.
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "aima",
            "--size",
            "64x64",
            "--pit-prob",
            "0.05",
            "--worlds",
            "6",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let endings = &summary["endings"];
    assert!(
        endings.get("unfinished").is_none_or(|n| n == 0),
        "{endings}"
    );
    assert_eq!(summary["games"], 6);
}

#[test]
fn the_look_ahead_plans_with_turns_and_shows_what_it_weighed() {
    // A 4x4 batch at --depth 3: every game ends, and the summary is the same on replay (the
    // search is deterministic). Its traces list every choice the search valued, with how
    // deep it went, climbing out included.
    let solve = |depth: &str| {
        let run = wumpus(
            &[
                "solve", "--rules", "aima", "--size", "4x4", "--worlds", "300", "--depth", depth,
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let t = &v["totals"];
        // What follows from the decisions alone (not the time they took).
        serde_json::json!([t["games"], t["endings"], t["score_sum"], t["moves_sum"]])
    };
    let deep = solve("3");
    assert_eq!(deep, solve("3"));
    assert_eq!(deep[0], 300);
    let mut searched = 0;
    for seed in 0..60 {
        let seed = seed.to_string();
        let run = wumpus(
            &["trace", "--rules", "aima", "--depth", "3", "--seed", &seed],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        for (header, listed) in common::weighed(&run.stdout) {
            searched += 1;
            let block = listed.join("\n");
            assert!(
                header.starts_with(" (expected final score), looking "),
                "{header}"
            );
            assert!(
                listed.iter().any(|l| l.contains("walk home and climb out")),
                "{block}"
            );
            assert_eq!(
                listed.iter().filter(|l| l.starts_with("    *")).count(),
                1,
                "{block}"
            );
        }
    }
    assert!(searched > 0, "some game of sixty weighs a risk");
}

/// The "best possible mean score" line of `solve --rules aima --size SIZE`, if it prints one.
fn best_possible(size: &str) -> Option<String> {
    let run = wumpus(
        &["solve", "--rules", "aima", "--size", size, "--worlds", "20"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .find(|l| l.starts_with("best possible mean score"))
        .map(str::to_string)
}

#[test]
fn solve_says_what_no_player_can_beat() {
    // 4x4 is solved exactly; on square sizes 4x4 to 7x7 dealt alike the figure is an upper
    // bound (examples/tournament_bound.rs) for that deal only.
    let exact = best_possible("4x4").expect("4x4 is solved");
    assert!(exact.contains("345.57 for any player (exact"), "{exact}");
    let mixed = best_possible("4x4..7x7").expect("4x4..7x7 is bounded");
    assert!(
        mixed.contains("at most 276.13 for any player on this deal (an upper bound"),
        "{mixed}"
    );
    // Where nothing is known, nothing is claimed.
    assert_eq!(best_possible("8x8"), None);
}
