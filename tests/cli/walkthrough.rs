//! What a new user's walkthrough found misleading, silent or wrong, held by tests:
//! the first screen's figures, the help texts, error messages, and what "proven safe" means.

use crate::common;
use common::wumpus;

#[test]
fn plain_solve_names_its_two_ceilings_with_the_sampling_error() {
    let run = wumpus(&["solve", "--worlds", "300"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("agent risk"), "{out}");
    // The win rate with its standard error, the best any player can expect (exact), and the
    // all-seeing ceiling, each named so that they cannot be confused.
    assert!(out.contains("% ± "), "{out}");
    assert!(
        out.contains("best possible win rate    47.75% for any player (exact;"),
        "{out}"
    );
    assert!(out.contains("all-seeing ceiling "), "{out}");
    // Where no exact value is known, none is printed.
    let other = wumpus(&["solve", "--worlds", "50", "--size", "6x6"], "");
    assert!(!other.stdout.contains("best possible"), "{}", other.stdout);
    let four = wumpus(&["solve", "--worlds", "50", "--size", "4x4"], "");
    assert!(four.stdout.contains("53.65%"), "{}", four.stdout);
}

#[test]
fn help_texts_say_the_default_agent_and_name_rule_sets_without_jargon() {
    let solve = wumpus(&["solve", "--help"], "").stdout;
    assert!(
        solve.contains("[default: risk; cave, maze: logic]"),
        "{solve}"
    );
    for command in [
        "solve", "trace", "play", "kb", "bot", "merge", "world", "serve",
    ] {
        let help = wumpus(&[command, "--help"], "").stdout;
        for jargon in [
            "seed 000",
            "seed 001",
            "seed 002",
            "event host",
            "event's host",
        ] {
            assert!(
                !help.contains(jargon),
                "{command} --help says {jargon:?}:\n{help}"
            );
        }
    }
}

#[test]
fn bot_help_examples_can_be_copied() {
    let help = wumpus(&["bot", "--help"], "").stdout;
    // The escapes stay escapes, for printf to turn into line breaks.
    assert!(
        help.contains(r"printf 'game 20\nstatus 0 0 0 1 out 1 4 7 in 1 4 7\n' | wumpus bot"),
        "{help}"
    );
    assert!(
        help.contains(
            r"printf 'maze 20\nstatus 0 0 0 1 tunnels ? ? ?\n' | wumpus bot --rules maze"
        ),
        "{help}"
    );
    assert!(help.contains("number rooms and caves from 0"), "{help}");
}

#[test]
fn numbers_out_of_range_say_what_is_wrong() {
    for (args, says) in [
        (
            &["solve", "--pit-prob", "-0.1"][..],
            "probability -0.1 is not between 0 and 1",
        ),
        (
            &["solve", "--worlds", "99999999999999999999"][..],
            "invalid value '99999999999999999999' for '--worlds <WORLDS>': number too large",
        ),
        (
            &["solve", "--worlds", "-1"][..],
            "invalid value '-1' for '--worlds <WORLDS>'",
        ),
        (
            &["play", "--seed", "1.5"][..],
            "invalid value '1.5' for '--seed <SEED>'",
        ),
        (
            &["kb", "--dimacs", "--step", "0"][..],
            "steps are numbered from 1",
        ),
    ] {
        let run = wumpus(args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let run = wumpus(&["play", "--world", empty.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("empty.txt: the file is empty"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_empty_shard_is_refused() {
    let run = wumpus(&["solve", "--worlds", "3", "--shard", "1/4"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("4 shards need at least 4 games"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("18446744073709551615"));
}

/// "Proven safe" means no pit, no live wumpus and no bats, in every rule set: no place a step
/// calls proven safe has an open chance of any hazard or a proof of bats.
#[test]
fn proven_safe_means_safe_in_every_rule_set() {
    let mut checked = 0;
    for rules in ["grid", "cave", "maze", "aima"] {
        for seed in 0..6u64 {
            let run = wumpus(
                &[
                    "trace",
                    "--rules",
                    rules,
                    "--seed",
                    &seed.to_string(),
                    "--json",
                ],
                "",
            );
            assert_eq!(run.code, 0, "{}", run.stderr);
            for line in run.stdout.lines() {
                let e: serde_json::Value = serde_json::from_str(line).unwrap();
                let Some(safe) = e.get("proven_safe").and_then(|s| s.as_array()) else {
                    continue;
                };
                for o in e["odds"].as_array().unwrap() {
                    let risky = ["pit", "wumpus", "bats"]
                        .iter()
                        .any(|k| o[*k].as_f64().unwrap() > 0.0);
                    assert!(
                        !(risky && safe.contains(&o["place"])),
                        "{rules} seed {seed}: {} is called safe with odds {o}",
                        o["place"]
                    );
                }
                for bats in e["proven_bats"].as_array().unwrap() {
                    assert!(
                        !safe.contains(bats),
                        "{rules} seed {seed}: bats in a safe place"
                    );
                }
                checked += safe.len();
            }
        }
    }
    assert!(checked > 100, "only {checked} places checked");
}
