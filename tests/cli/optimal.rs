//! `--agent optimal` end to end: it plays small grids under both scorings, explains each
//! choice with its expected final score, and is refused, with status 2 and a message saying
//! why, on grids too large to solve exactly and in the caves.

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
        assert_eq!(v["agent"], "optimal");
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
