//! `--agent optimal` end to end: it plays small grids under both scorings, explains each
//! choice with its expected final score, and is refused, with status 2 and a message saying
//! why, on grids too large to solve exactly and in the caves. It plays the textbook's rules
//! too, and keeps what it solved in a cache file that a second run reads.

use crate::common;
use common::wumpus;

#[test]
fn solve_plays_3x3_under_both_scorings() {
    for scoring in ["standard", "aima"] {
        let run = wumpus(
            &[
                "solve",
                "--agent",
                "optimal",
                "--size",
                "3x3",
                "--scoring",
                scoring,
                "--worlds",
                "2000",
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{scoring}: {}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(v["game"]["agent"], "optimal");
        assert_eq!(v["games"], 2000);
        assert!(
            v["mean_score"].is_f64() && v["mean_score_error"].is_f64(),
            "{v}"
        );
    }
    let text = wumpus(
        &[
            "solve", "--agent", "optimal", "--size", "3x3", "--worlds", "500",
        ],
        "",
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("best possible mean score  594.04 for any player"),
        "{}",
        text.stdout
    );
}

#[test]
fn trace_and_hint_show_every_choice_with_its_expected_score() {
    let trace = wumpus(
        &[
            "trace", "--agent", "optimal", "--size", "3x3", "--seed", "5",
        ],
        "",
    );
    assert_eq!(trace.code, 0, "{}", trace.stderr);
    assert!(
        trace
            .stdout
            .contains("choices weighed (expected final score)"),
        "{}",
        trace.stdout
    );
    assert!(trace.stdout.contains("walk home and climb out"));
    assert!(trace
        .stdout
        .contains("exact look-ahead to the end of the game"));
    let play = wumpus(
        &["play", "--agent", "optimal", "--size", "3x3", "--seed", "5"],
        "north\nhint\n",
    );
    assert_eq!(play.code, 0, "{}", play.stderr);
    assert!(play.stdout.contains("Hint: "), "{}", play.stdout);
}

#[test]
fn too_large_a_grid_and_the_caves_are_refused() {
    let run = wumpus(
        &[
            "solve", "--agent", "optimal", "--size", "5x5", "--worlds", "10",
        ],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("the optimal agent solves grids of at most 16 cells exactly, and 5x5 has 25"),
        "{}",
        run.stderr
    );
    for rules in ["cave", "maze"] {
        let run = wumpus(&["solve", "--rules", rules, "--agent", "optimal"], "");
        assert_eq!(run.code, 2, "{rules}: {}", run.stdout);
        assert!(
            run.stderr.contains("the optimal agent does not play"),
            "{rules}: {}",
            run.stderr
        );
    }
}

#[test]
fn the_same_games_on_any_number_of_threads() {
    let totals = |threads: &str| {
        let run = wumpus(
            &[
                "solve",
                "--agent",
                "optimal",
                "--size",
                "3x3",
                "--worlds",
                "3000",
                "--threads",
                threads,
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let t = &v["totals"];
        (
            t["score_sum"].clone(),
            t["moves_sum"].clone(),
            t["endings"].clone(),
        )
    };
    assert_eq!(totals("1"), totals("2"));
}

/// `solve` with the cache folder `dir`: status, standard error, the summary's JSON.
fn solve_cached(dir: &std::path::Path, args: &[&str]) -> (i32, String, serde_json::Value) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .env("WUMPUS_CACHE", dir)
        .args(["solve", "--agent", "optimal", "--json"])
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8(out.stderr).unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), stderr, json)
}

#[test]
fn a_second_run_reads_the_values_the_first_kept_and_a_damaged_file_is_solved_again() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["grid", "aima"] {
        let args = ["--rules", rules, "--size", "3x3", "--worlds", "300"];
        let (code, first, a) = solve_cached(dir.path(), &args);
        assert_eq!(code, 0, "{first}");
        assert!(
            first.contains("solved the game (no file yet) and kept"),
            "{first}"
        );
        let (code, second, b) = solve_cached(dir.path(), &args);
        assert_eq!(code, 0, "{second}");
        assert!(second.contains("solved values read from"), "{second}");
        for k in ["score_sum", "moves_sum", "endings"] {
            assert_eq!(
                a["totals"][k], b["totals"][k],
                "{rules}: the same play from the file"
            );
        }
    }
    // Every file damaged: each is solved again, saying why, and plays the same.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x40;
        std::fs::write(&path, bytes).unwrap();
    }
    let (code, again, _) = solve_cached(dir.path(), &["--size", "3x3", "--worlds", "10"]);
    assert_eq!(code, 0, "{again}");
    assert!(
        again.contains("damaged") && again.contains("kept the values"),
        "{again}"
    );
}

#[test]
fn the_textbook_rules_play_at_their_exact_value() {
    let (code, stderr, v) = solve_cached(
        &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wumpus-cache"),
        &["--rules", "aima", "--size", "3x3", "--worlds", "4000"],
    );
    assert_eq!(code, 0, "{stderr}");
    let mean = v["mean_score"].as_f64().unwrap();
    let error = v["mean_score_error"].as_f64().unwrap();
    // The exact value of 3x3 under the textbook's rules (docs/agents.md).
    assert!((mean - 434.41).abs() < 4.0 * error, "{mean} ± {error}");
}
