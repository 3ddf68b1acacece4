//! The cave's reasoning agent through the real binary: `solve --rules cave` (the logic agent
//! by default, `--map-known`, `--json`), `trace --rules cave` (text and JSON Lines) and `hint`
//! in `play --rules cave`. Figures are checked against the library playing the same seeds.

use std::sync::Arc;
use wumpus::agent::cave::{CaveAgent, CaveAgentConfig};
use wumpus::cave::{self, BatchConfig, Variant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn wumpus(args: &[&str], input: &str) -> Run {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .write_stdin(input)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn library(map_file: &str, known: bool, games: u64, seed: u64) -> cave::BatchSummary {
    let map = Arc::new(cave::read_map(std::path::Path::new(map_file)).unwrap());
    let config = CaveAgentConfig::for_map(&map, known);
    let batch = BatchConfig {
        games,
        base_seed: seed,
        variant: Variant::Event,
    };
    cave::run_batch(&map, &batch, |_| CaveAgent::new(config.clone()).unwrap())
        .unwrap()
        .summary
}

#[test]
fn solve_defaults_to_the_logic_agent_and_matches_the_library() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--map",
            "worlds/cave-mobius.txt",
            "--worlds",
            "300",
            "--seed",
            "7",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["agent"], "logic");
    assert_eq!(json["map_known"], false);
    let want = library("worlds/cave-mobius.txt", false, 300, 7);
    let got = &json["summary"];
    assert_eq!(got["total_score"], want.total_score);
    assert_eq!(got["wins"], want.wins);
    assert_eq!(got["losses"], serde_json::to_value(want.losses).unwrap());
    // JSON floats are read back to within a rounding.
    assert!((got["moves_per_game"].as_f64().unwrap() - want.moves_per_game).abs() < 1e-9);
    // Far better than the random player's 26 points.
    assert!(want.mean_score > 55.0, "{}", want.mean_score);
}

#[test]
fn solve_with_the_map_known_prints_the_table() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--map-known",
            "--worlds",
            "200",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = library("worlds/cave-standard.txt", true, 200, 3);
    assert!(
        run.stdout.contains("agent logic, map known"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "mean score     {:.2} points a game",
            want.mean_score
        )),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("losses by cause"));
    assert!(want.mean_score > 85.0, "{}", want.mean_score);
}

#[test]
fn refusals_exit_2() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--variant",
            "yob",
            "--worlds",
            "5",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--agent random"), "{}", run.stderr);
    let run = wumpus(&["solve", "--map-known", "--worlds", "5"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["play", "--map-known"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["trace", "--map", "worlds/cave-risk.txt"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["trace", "--rules", "cave", "--kb", "kb/cave.kb"], "");
    assert_eq!(run.code, 2);
}

#[test]
fn trace_shows_proofs_odds_and_reasons_to_the_end() {
    let run = wumpus(&["trace", "--rules", "cave", "--seed", "3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.starts_with("Trace of the classic cave on the standard dodecahedron"));
    assert!(out.contains("\nStep 1 in room 19: draft, bats"), "{out}");
    assert!(out.contains("  odds: wumpus "));
    assert!(out.contains("proved room 11 holds bats: snatched by bats in room 11"));
    assert!(out.contains("  why: "));
    let score: u32 = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("Score: ")
        .unwrap()
        .parse()
        .unwrap();
    // The library's game from seed 3 ends the same way.
    let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap());
    let mut agent = CaveAgent::new(CaveAgentConfig::for_map(&map, false)).unwrap();
    let record = cave::play_game(&map, Variant::Event, 3, &mut agent).unwrap();
    assert_eq!(score, record.ending.unwrap().score());
}

#[test]
fn trace_json_lines_follow_the_schema() {
    let run = wumpus(
        &[
            "trace",
            "--rules",
            "cave",
            "--seed",
            "3",
            "--json",
            "--map-known",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["rules"], "cave");
    assert_eq!(lines[0]["map_known"], true);
    let steps = &lines[1..lines.len() - 1];
    assert!(!steps.is_empty());
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], i + 1);
        for key in [
            "room", "warnings", "out", "in", "arrows", "moves", "learned", "odds", "action",
            "rule", "reason",
        ] {
            assert!(!s[key].is_null(), "step {i} lacks {key}");
        }
        let wumpus: f64 = s["odds"]["wumpus"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_f64().unwrap())
            .sum();
        assert!((wumpus - 1.0).abs() < 1e-9);
    }
    let last = lines.last().unwrap();
    assert!(["won", "lost"].contains(&last["outcome"].as_str().unwrap()));
}

#[test]
fn hint_in_play_says_what_the_agent_would_do() {
    let run = wumpus(
        &["play", "--rules", "cave", "--seed", "3"],
        "hint\nm 11\nhint\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("Hint: move 11 -- nothing safe is left to explore"),
        "{out}"
    );
    assert!(
        out.contains("  odds of a pit: 11 34%, 18 34%, 20 34%"),
        "{out}"
    );
    // After the snatch the hint agent knows room 11 holds bats.
    assert!(out.contains("proven pits: 18; bats: 11"), "{out}");
    let run = wumpus(&["play", "--rules", "maze", "--seed", "3"], "hint\n");
    assert!(run.stdout.contains("No hint"), "{}", run.stdout);
}
