//! End-to-end tests of the grid game through the real `wumpus` binary.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;

fn wumpus() -> Command {
    Command::cargo_bin("wumpus").unwrap()
}

fn world(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("worlds")
        .join(name)
}

/// Plays `input` on a world file and returns standard output.
fn play(world_file: &str, input: &str) -> String {
    let out = wumpus()
        .args(["play", "--world"])
        .arg(world(world_file))
        .write_stdin(input)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

const SEED_RESPONSES: [&str; 7] = [
    "It is very dark.",
    "You feel a bump as you walk into a wall.",
    "You feel a breeze.",
    "It is very dark.",
    "You smell a terrible stench.",
    "You shoot an arrow. You hear a horrible scream.",
    "You smell a terrible stench. There is a dead Wumpus here.",
];

fn responses(output: &str) -> Vec<&str> {
    // The first line names the game, the second says how places are named; the last says how
    // it ended. Between them, the game's own words, then where the player stands, and each
    // command echoed after the prompt (the input is piped).
    let lines: Vec<&str> = output.lines().collect();
    lines[2..lines.len() - 1]
        .iter()
        .copied()
        .filter(|l| !l.starts_with("You are at ") && !l.starts_with("> "))
        .collect()
}

#[test]
fn play_says_where_the_player_stands_and_echoes_piped_commands() {
    let out = play(
        "seed-example.txt",
        "West\nEast\nWest\nNorth\nfire North\nNorth\n",
    );
    assert!(out.contains("0,0 is the south-west corner"), "{out}");
    assert!(out.contains("rows go north, columns east"), "{out}");
    let at: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("You are at "))
        .collect();
    assert_eq!(
        at,
        ["0,0.", "0,0.", "0,1.", "0,0.", "1,0.", "1,0.", "2,0."],
        "{out}"
    );
    let echoed: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("> ")).collect();
    assert_eq!(
        echoed,
        ["West", "East", "West", "North", "fire North", "North"]
    );
}

#[test]
fn seed_example_game_in_full_words() {
    let out = play(
        "seed-example.txt",
        "West\nEast\nWest\nNorth\nfire North\nNorth\n",
    );
    assert_eq!(responses(&out), SEED_RESPONSES);
}

#[test]
fn seed_example_game_in_one_letter_form() {
    let out = play("seed-example.txt", "w\nE\nW\nn\nF N\nN\n");
    assert_eq!(responses(&out), SEED_RESPONSES);
}

#[test]
fn invalid_commands_say_why_and_ask_again() {
    let out = play(
        "seed-example.txt",
        "fire\nfirenorth\nfn\nF norbert\nfire why\neat\nS aname.txt\nnorth\n",
    );
    let invalid = out
        .lines()
        .filter(|l| l.starts_with("Invalid command"))
        .count();
    assert_eq!(invalid, 7, "{out}");
    assert!(out.contains("fire needs a direction"));
    assert!(out.contains("'norbert' is not a direction"));
    assert!(out.contains("'eat' is not a command"));
    // The game went on: the valid move after them was taken.
    assert!(out.contains("You smell a terrible stench."));
    assert!(out.contains("after 1 move."), "{out}");
}

#[test]
fn end_of_input_and_quit_end_cleanly() {
    wumpus()
        .args(["play", "--seed", "3"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("End of input"));
    wumpus()
        .args(["play", "--seed", "3"])
        .write_stdin("quit\nnorth\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("unfinished after 0 moves"));
}

#[test]
fn help_lists_the_commands() {
    let out = play("seed-example.txt", "help\n");
    for word in [
        "north",
        "grab",
        "fire DIRECTION",
        "climb",
        "hint",
        "load FILE",
        "save FILE",
    ] {
        assert!(out.contains(word), "help lacks {word}: {out}");
    }
}

#[test]
fn scoring_climb_with_gold_and_without() {
    // Gold next to the start in the 2x2 world of gold-near.txt is not shipped; build one.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.txt");
    std::fs::write(&file, "SIZE 2 2\nWUMPUS 1 1\nGOLD 0 1\n").unwrap();
    let run = |input: &str, extra: &[&str]| {
        let out = wumpus()
            .args(["play", "--world"])
            .arg(&file)
            .args(extra)
            .write_stdin(input.to_string())
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let out = run("e\ng\nw\nc\n", &[]);
    assert!(out.contains("You see a glint of something that looks like gold."));
    assert!(out.contains("You pick up a pile of gold."));
    assert!(out.contains("You climb up out of Wumpus World."));
    assert!(out.trim_end().ends_with("Score: 996"), "{out}");
    let out = run("c\n", &[]);
    assert!(out.trim_end().ends_with("Score: 99"), "{out}");
    let out = run("n\ne\nc\n", &["--scoring", "aima"]);
    assert!(out.contains("There is a live Wumpus here!"));
    assert!(out.trim_end().ends_with("Score: -1002"), "{out}");
    let out = run("n\ne\n", &[]);
    assert!(out.trim_end().ends_with("Score: 0"), "{out}");
    let out = run("g\ne\nc\nF S\nfire n\n", &[]);
    assert!(out.contains("You do not pick up anything."));
    assert!(out.contains("You cannot climb up from here."));
    assert!(out.contains("You shoot an arrow."));
    assert!(out.contains("You try to fire but are out of arrows."));
}

#[test]
fn pit_kills() {
    let out = play("seed-example.txt", "e\ne\n");
    assert!(out.contains("You have fallen into a pit."));
    assert!(out.trim_end().ends_with("Score: 0"));
}

#[test]
fn save_and_load_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("saved.txt");
    let out = play(
        "seed-example.txt",
        &format!("n\nsave {}\nquit\n", saved.display()),
    );
    assert!(out.contains("Saved this game's world"), "{out}");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(text, "SIZE 5 5\nWUMPUS 2 0\nGOLD 3 2\nPIT 0 2\n");
    // Loading it starts a new game on the same world.
    let out = play("aima-4x4.txt", &format!("load {}\nw\ne\n", saved.display()));
    assert!(
        out.contains("a new game begins (Wumpus World, 5x5"),
        "{out}"
    );
    assert!(out.contains("You feel a breeze."), "{out}");
    // A bad load keeps the current game and says why.
    let out = play("seed-example.txt", "load /no/such/file.txt\nn\n");
    assert!(
        out.contains("Cannot load: /no/such/file.txt: no such file"),
        "{out}"
    );
    assert!(out.contains("You smell a terrible stench."));
}

#[test]
fn random_worlds_replay_from_their_seed() {
    let get = |seed: &str| {
        let out = wumpus()
            .args(["world", "new", "--seed", seed, "--size", "6x7"])
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert_eq!(get("11"), get("11"));
    assert_ne!(get("11"), get("12"));
    wumpus()
        .args(["play"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::is_match("seed [0-9]+ \\(replay with --seed [0-9]+\\)").unwrap());
}

#[test]
fn world_new_check_and_show() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("new.txt");
    wumpus()
        .args(["world", "new", "--seed", "5", "-o"])
        .arg(&file)
        .assert()
        .success();
    wumpus()
        .args(["world", "check"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("ok (5x5"));
    wumpus()
        .args(["world", "show"])
        .arg(world("seed-example.txt"))
        .assert()
        .success()
        .stdout(predicate::str::contains("W").and(predicate::str::contains("P")));
}

#[test]
fn bad_world_files_name_file_line_and_reason_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "GOLD 1 1\nBANANA 2 2\nWUMPUS 3 3\n",
            ":2:",
            "unknown keyword 'BANANA'",
        ),
        (
            "GOLD 1 1\nPIT 02\nWUMPUS 3 3\n",
            ":2:",
            "PIT takes 2 numbers",
        ),
        ("GOLD 1 1\nWUMPUS 3 3\nWUMPUS 2 2\n", ":3:", "second WUMPUS"),
        ("GOLD 1 1\nWUMPUS 3 9\n", ":2:", "off the 5x5 grid"),
        ("GOLD 1 1\nWUMPUS 3 3\nPIT 0 0\n", ":3:", "origin"),
        (
            "GOLD 1 1\nWUMPUS 3 3\nPIT 2 2\nPIT 2 2\n",
            ":4:",
            "duplicate pit",
        ),
        ("GOLD 1 1\n", "", "no WUMPUS line"),
        ("WUMPUS 1 1\nGOLD 0 0\n", ":2:", "origin"),
        ("SIZE 1 5\nWUMPUS 0 1\nGOLD 0 2\n", ":1:", "out of range"),
        ("GOLD x 1\nWUMPUS 3 3\n", ":1:", "'x' is not a whole number"),
    ];
    for (i, (text, line, reason)) in cases.iter().enumerate() {
        let file = dir.path().join(format!("bad{i}.txt"));
        std::fs::write(&file, text).unwrap();
        for cmd in [["world", "check"], ["world", "show"]] {
            wumpus()
                .args(cmd)
                .arg(&file)
                .assert()
                .code(2)
                .stderr(predicate::str::contains(format!("bad{i}.txt{line}")))
                .stderr(predicate::str::contains(*reason));
        }
        wumpus()
            .args(["play", "--world"])
            .arg(&file)
            .write_stdin("n\n")
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty());
    }
}

#[test]
fn world_check_lists_every_line_at_fault() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    std::fs::write(
        &file,
        "SIZE 4 4\nPIT x 1\nWUMPUS 2 2\nFOO 1\nGOLD 1 1 1\nGOLD 3 3\n",
    )
    .unwrap();
    let out = wumpus()
        .args(["world", "check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (line, (at, reason)) in lines.iter().zip([
        (":2: ", "'x' is not a whole number"),
        (":4: ", "unknown keyword 'FOO'"),
        (":5: ", "GOLD takes 2 numbers (row col), found 3"),
    ]) {
        assert!(line.starts_with("wumpus: "), "{line}");
        assert!(line.contains(&format!("many.txt{at}{reason}")), "{line}");
    }
    // A problem of the whole file follows no line set aside; a file of junk is cut short.
    let junk: String = (1..=30).map(|i| format!("BAD {i}\n")).collect();
    std::fs::write(&file, junk).unwrap();
    let out = wumpus()
        .args(["world", "check"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 21, "{stderr}");
    assert!(
        stderr.contains("many.txt:20: unknown keyword 'BAD'"),
        "{stderr}"
    );
    assert!(
        stderr.contains("only the first 20 problems are listed"),
        "{stderr}"
    );
    assert!(!stderr.contains("many.txt:21:"), "{stderr}");
}

#[test]
fn world_new_never_overwrites_with_half_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("keep.txt");
    std::fs::write(&file, "SIZE 4 4\nWUMPUS 1 1\nGOLD 2 2\n").unwrap();
    // A size out of range fails before anything is written.
    wumpus()
        .args(["world", "new", "--size", "1x9", "-o"])
        .arg(&file)
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "SIZE 4 4\nWUMPUS 1 1\nGOLD 2 2\n"
    );
}

#[test]
fn trace_locates_the_seed_wumpus_from_the_stenches() {
    let out = wumpus()
        .args(["trace", "--world"])
        .arg(world("seed-example.txt"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("2,0 holds the wumpus"))
        .unwrap_or_else(|| panic!("no wumpus conclusion in:\n{text}"));
    assert!(line.contains("stench at 1,0"), "{line}");
    assert!(line.contains("no stench at 0,1"), "{line}");
    assert!(text.contains("0,2 holds a pit"));
    assert!(text.trim_end().ends_with("Score: 984"), "{text}");
}

#[test]
fn trace_json_lines_follow_the_schema() {
    let out = wumpus()
        .args(["trace", "--json", "--world"])
        .arg(world("gold-with-wumpus.txt"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["game"]["rules"], "grid");
    assert_eq!(lines[0]["game"]["size"], "4x4");
    let steps = &lines[1..lines.len() - 1];
    for step in steps {
        for key in [
            "at",
            "percepts",
            "proven_safe",
            "proven_pit",
            "proven_wumpus",
            "action",
            "reason",
        ] {
            assert!(step.get(key).is_some(), "missing {key} in {step}");
        }
    }
    assert!(steps
        .iter()
        .any(|s| s["proven_wumpus"] == serde_json::json!(["1,1"])));
    assert!(steps.iter().any(|s| s["action"] == "fire east"));
    assert!(steps
        .iter()
        .any(|s| s["percepts"] == serde_json::json!(["stench", "scream"])));
    let last = lines.last().unwrap();
    assert_eq!(last["outcome"], "won");
    assert_eq!(last["score"], 965);
}

#[test]
fn hint_suggests_and_shows_only_what_is_known() {
    let out = play("seed-example.txt", "hint\nn\ns\ne\nhint\n");
    assert!(out.contains("Hint: north -- explore 1,0"), "{out}");
    // After the breeze at 0,1 and the stench at 1,0 the map shows the pit and the wumpus.
    let map_start = out.rfind("What your percepts prove so far:").unwrap();
    let map = &out[map_start..];
    let row = |r: &str| {
        map.lines()
            .find(|l| l.trim_start().starts_with(r))
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(row("2 ")[1], "W", "{map}");
    assert_eq!(row("0 ")[1..4], ["v", "@", "P"], "{map}");
    // Nothing unproven is shown: the gold's cell 3,2 is unknown.
    assert_eq!(row("3 ")[3], "?", "{map}");
}

#[test]
fn solve_reports_the_summary_and_json() {
    let out = wumpus()
        .args([
            "solve", "--worlds", "300", "--size", "4x4", "--json", "--agent", "logic",
        ])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["games"], 300);
    assert_eq!(
        v["wins"].as_u64().unwrap() + v["endings"]["climbed_out"].as_u64().unwrap(),
        300,
        "the logic agent never dies: {v}"
    );
    for key in [
        "wins",
        "mean_score",
        "ceiling",
        "games_per_second",
        "mean_moves",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    // Same seed, same numbers.
    let again = wumpus()
        .args([
            "solve",
            "--worlds",
            "300",
            "--size",
            "4x4",
            "--json",
            "--threads",
            "1",
            "--agent",
            "logic",
        ])
        .assert()
        .success();
    let w: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(v["wins"], w["wins"]);
    assert_eq!(v["mean_score"], w["mean_score"]);
    wumpus()
        .arg("solve")
        .args(["--worlds", "50"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ceiling"));
}

#[test]
fn risk_agent_is_the_default_and_shows_its_odds() {
    let out = wumpus()
        .args(["solve", "--worlds", "200", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["game"]["agent"], "risk");
    // A world with a breeze at the start: the logic agent climbs, the risk agent weighs odds.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.txt");
    std::fs::write(&file, "SIZE 4 4\nPIT 0 1\nWUMPUS 3 3\nGOLD 3 0\n").unwrap();
    // One step ahead, each step into the fringe is a choice of its own.
    let out = wumpus()
        .args(["trace", "--json", "--depth", "1", "--world"])
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let choices = first["choices"].as_array().unwrap();
    let climb = choices
        .iter()
        .find(|c| c["what"] == "walk home and climb out")
        .unwrap_or_else(|| panic!("{first}"));
    assert!(climb["expected"].is_number(), "{first}");
    let candidates: Vec<_> = choices.iter().filter(|c| c["place"].is_string()).collect();
    assert_eq!(candidates.len(), 2);
    for c in candidates {
        // A breeze at 0,0 with neighbours 0,1 and 1,0: P(pit) = 0.2 / (1 - 0.8^2).
        assert!(
            (c["pit"].as_f64().unwrap() - 0.2 / 0.36).abs() < 1e-9,
            "{c}"
        );
    }
    let logic = wumpus()
        .args(["trace", "--agent", "logic", "--world"])
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8(logic.get_output().stdout.clone()).unwrap();
    assert!(text.contains("action: climb"), "{text}");
    let hint = wumpus()
        .args(["play", "--world"])
        .arg(&file)
        .write_stdin("hint\n")
        .assert()
        .success();
    let text = String::from_utf8(hint.get_output().stdout.clone()).unwrap();
    assert!(text.contains("pit 56%"), "{text}");
}

#[test]
fn custom_rule_files_load_and_bad_ones_name_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    // The built-in rules with a comment added reason the same way.
    let good = dir.path().join("mine.kb");
    let rules =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("kb/grid.kb"))
            .unwrap();
    std::fs::write(&good, format!("# my copy\n{rules}")).unwrap();
    let out = wumpus()
        .args(["trace", "--agent", "logic", "--kb"])
        .arg(&good)
        .arg("--world")
        .arg(world("seed-example.txt"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("2,0 holds the wumpus"), "{text}");
    // A typo in a predicate name is refused with the file and line.
    let bad = dir.path().join("bad.kb");
    std::fs::write(&bad, rules.replace("not pit(start).", "not pitt(start).")).unwrap();
    let line = rules
        .lines()
        .position(|l| l.starts_with("not pit(start)"))
        .unwrap()
        + 1;
    for cmd in ["solve", "trace"] {
        wumpus()
            .args([cmd, "--kb"])
            .arg(&bad)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("bad.kb:{line}:")))
            .stderr(predicate::str::contains("unknown predicate 'pitt'"));
    }
    // Rules that lack what the agent observes are refused too.
    let thin = dir.path().join("thin.kb");
    std::fs::write(&thin, "hidden pit(X).\nnot pit(start).\n").unwrap();
    wumpus()
        .args(["solve", "--worlds", "5", "--kb"])
        .arg(&thin)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("wumpus"));
}

#[test]
fn trace_step_waits_for_enter_and_finishes_at_end_of_input() {
    let out = wumpus()
        .args(["trace", "--step", "--world"])
        .arg(world("seed-example.txt"))
        .write_stdin("\n\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // Two Enters answered two waits; then end of input runs the game to its end.
    assert_eq!(
        text.matches("(Enter: next step; q then Enter: stop)")
            .count(),
        3,
        "{text}"
    );
    assert!(text.trim_end().ends_with("Score: 984"), "{text}");
    // q stops the trace where it stands.
    let out = wumpus()
        .args(["trace", "--step", "--world"])
        .arg(world("seed-example.txt"))
        .write_stdin("\nq\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.matches("\nStep ").count(), 2, "{text}");
    assert!(
        text.contains("Stopped: the game is left unfinished."),
        "{text}"
    );
    assert!(!text.contains("Score:"), "{text}");
}

#[test]
fn trace_shows_the_look_ahead_its_values_and_its_depth() {
    let run = |extra: &[&str]| {
        let out = wumpus()
            .args(["trace", "--size", "4x4", "--seed", "1"])
            .args(extra)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let deep = run(&["--depth", "2"]);
    assert!(
        deep.contains("choices weighed (expected final score), looking 2 steps ahead:"),
        "{deep}"
    );
    assert!(deep.contains("* step into "), "{deep}");
    assert!(
        deep.contains("walk home and climb out      expected"),
        "{deep}"
    );
    // The default looks two steps ahead; one step ahead says no depth.
    assert_eq!(run(&[]), deep);
    let shallow = run(&["--depth", "1"]);
    assert!(shallow.contains("choices weighed"), "{shallow}");
    assert!(!shallow.contains("steps ahead"), "{shallow}");
    wumpus()
        .args(["solve", "--size", "3x3", "--worlds", "10", "--depth", "0"])
        .assert()
        .code(2);
}
