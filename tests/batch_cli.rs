//! Batches through the real binary: CSV rows, shards and their merge, Ctrl-C.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn wumpus() -> Command {
    Command::cargo_bin("wumpus").unwrap()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn csv_has_a_header_and_one_row_per_game_in_seed_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.csv");
    let table = stdout(
        wumpus()
            .args([
                "solve", "--worlds", "300", "--seed", "1000", "--size", "4x4", "--csv",
            ])
            .arg(&file),
    );
    assert!(table.contains("games                     300"), "{table}");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "seed,outcome,score,moves");
    assert_eq!(lines.len(), 301);
    let mut wins = 0;
    for (i, line) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 4, "{line}");
        assert_eq!(f[0], (1000 + i).to_string());
        assert!(
            ["won", "climbed_out", "fell_into_pit", "eaten", "cut_off"].contains(&f[1]),
            "{line}"
        );
        f[2].parse::<i64>().unwrap();
        f[3].parse::<u32>().unwrap();
        wins += (f[1] == "won") as u32;
    }
    assert!(
        table.contains(&format!("wins (out with gold)      {wins} ")),
        "{table}"
    );
    // The same rows on standard output, the table on standard error; no temp file left.
    let out = wumpus()
        .args([
            "solve", "--worlds", "300", "--seed", "1000", "--size", "4x4", "--csv", "-",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("games                     300"));
    assert_eq!(String::from_utf8_lossy(&out.get_output().stdout), text);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    wumpus()
        .args(["solve", "--csv", "-", "--json"])
        .assert()
        .code(2);
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let common = [
        "solve", "--worlds", "1001", "--seed", "77", "--size", "4x4", "--json",
    ];
    let whole: Value = serde_json::from_str(&stdout(wumpus().args(common))).unwrap();
    let mut files = Vec::new();
    let mut rows = String::new();
    for k in [1, 2, 3] {
        let csv = dir.path().join(format!("part{k}.csv"));
        let text = stdout(
            wumpus()
                .args(common)
                .args(["--shard", &format!("{k}/3"), "--threads", "1", "--csv"])
                .arg(&csv),
        );
        let part: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(part["shard"], serde_json::json!({"index": k, "count": 3}));
        assert_eq!(part["games"].as_u64().unwrap(), [333, 334, 334][k - 1]);
        let file = dir.path().join(format!("part{k}.json"));
        std::fs::write(&file, text).unwrap();
        files.push(file);
        let csv = std::fs::read_to_string(&csv).unwrap();
        rows.push_str(if k == 1 {
            &csv
        } else {
            &csv[csv.find('\n').unwrap() + 1..]
        });
    }
    // In any order.
    files.reverse();
    let merged: Value =
        serde_json::from_str(&stdout(wumpus().arg("merge").args(&files).arg("--json"))).unwrap();
    let timing = ["seconds", "games_per_second", "threads", "mean_decision_us"];
    for (key, value) in whole.as_object().unwrap() {
        if timing.contains(&key.as_str()) {
            continue;
        }
        if key == "totals" {
            let mut a = value.clone();
            let mut b = merged["totals"].clone();
            a["agent_nanos"] = Value::Null;
            b["agent_nanos"] = Value::Null;
            assert_eq!(a, b);
        } else {
            assert_eq!(value, &merged[key], "{key}");
        }
    }
    // The shards' rows, concatenated in shard order, are the whole batch's rows.
    let all = dir.path().join("all.csv");
    stdout(wumpus().args(common).arg("--csv").arg(&all));
    assert_eq!(rows, std::fs::read_to_string(&all).unwrap());
    // The table, and the refusals.
    let table = stdout(wumpus().arg("merge").args(&files));
    assert!(table.contains("games                     1001"), "{table}");
    assert!(table.contains("seeds 77..1077"), "{table}");
    wumpus()
        .arg("merge")
        .args(&files[..2])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("shard 1/3 is missing"));
    wumpus()
        .args(["solve", "--shard", "4/3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a shard"));
}

#[test]
fn ctrl_c_prints_the_partial_summary_and_exits_130() {
    let bin = assert_cmd::cargo::cargo_bin("wumpus");
    let child = std::process::Command::new(bin)
        .args([
            "solve",
            "--worlds",
            "1000000000",
            "--threads",
            "1",
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["interrupted"], true);
    let games = summary["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000_000, "{games}");
    assert_eq!(summary["totals"]["games"].as_u64().unwrap(), games);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn every_subcommand_help_shows_examples() {
    let subcommands: [&[&str]; 10] = [
        &["solve"],
        &["trace"],
        &["play"],
        &["world"],
        &["world", "new"],
        &["world", "check"],
        &["world", "show"],
        &["merge"],
        &["completions"],
        &[],
    ];
    for args in subcommands {
        let help = stdout(wumpus().args(args).arg("--help"));
        if args.is_empty() {
            for name in ["solve", "trace", "play", "world", "merge", "completions"] {
                assert!(help.contains(name), "{name} missing from --help");
            }
        } else {
            assert!(
                help.contains("Example"),
                "no examples in {args:?} --help:\n{help}"
            );
        }
    }
}

#[test]
fn completion_scripts_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(wumpus().args(["completions", shell]));
        for word in ["solve", "merge", "shard", "csv"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    // bash loads it and registers the completion.
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_ok()
    {
        let bin = assert_cmd::cargo::cargo_bin("wumpus");
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source <('{}' completions bash) && complete -p wumpus",
                bin.display()
            ))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("wumpus"));
    }
    wumpus().args(["completions", "tcsh"]).assert().code(2);
}
