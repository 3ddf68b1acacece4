//! Batches through the real binary: CSV rows, shards and their merge, Ctrl-C.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{json, Value};

fn wumpus() -> Command {
    Command::cargo_bin("wumpus").unwrap()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The one CSV header of every rule set.
const HEADER: &str = "seed,outcome,score,moves,shots";

/// Every ending a game (and so a CSV row, or a summary's `endings`) can name.
const ENDINGS: [&str; 9] = [
    "won",
    "pit",
    "wumpus",
    "climbed_out",
    "own_arrow",
    "out_of_arrows",
    "out_of_grenades",
    "exhaustion",
    "unfinished",
];

/// Checks that `rows` (the CSV rows of a batch, without the header) are one a game in seed
/// order from `first_seed`, and that they add up to `summary` (a `solve --json` object): the
/// games, the endings, the wins, and the sums of the scores, moves and shots. The score column
/// is empty in the maze, which keeps no score, and an integer elsewhere.
fn rows_add_up(rows: &[&str], summary: &Value, first_seed: u64) {
    let totals = &summary["totals"];
    let scored = summary["game"]["rules"] != "maze";
    assert_eq!(rows.len() as u64, totals["games"].as_u64().unwrap());
    assert_eq!(summary["games"], totals["games"]);
    let mut endings = serde_json::Map::new();
    let (mut score, mut moves, mut shots, mut won_shots) = (0i64, 0u64, 0u64, 0u64);
    for (i, row) in rows.iter().enumerate() {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f.len(), 5, "{row}");
        assert_eq!(f[0], (first_seed + i as u64).to_string(), "{row}");
        assert!(ENDINGS.contains(&f[1]), "{row}");
        let n = endings.entry(f[1]).or_insert(Value::from(0u64));
        *n = Value::from(n.as_u64().unwrap() + 1);
        if scored {
            score += f[2].parse::<i64>().unwrap();
        } else {
            assert_eq!(f[2], "", "{row}");
        }
        moves += f[3].parse::<u64>().unwrap();
        let s = f[4].parse::<u64>().unwrap();
        shots += s;
        if f[1] == "won" {
            won_shots += s;
        }
    }
    assert_eq!(summary["endings"], Value::Object(endings.clone()));
    assert_eq!(totals["endings"], Value::Object(endings.clone()));
    assert_eq!(
        summary["wins"],
        endings.get("won").cloned().unwrap_or(Value::from(0))
    );
    assert_eq!(totals["score_sum"], score);
    assert_eq!(totals["moves_sum"], moves);
    assert_eq!(totals["shots_sum"], shots);
    assert_eq!(totals["won_shots_sum"], won_shots);
    if scored {
        assert!(summary["mean_score"].is_f64(), "{summary}");
    } else {
        assert_eq!(summary["mean_score"], Value::Null, "{summary}");
    }
}

/// A summary without the figures that vary from run to run: the timings, the threads, and the
/// agent's time in the totals.
fn timeless(v: &Value) -> Value {
    let mut s = v.clone();
    let o = s.as_object_mut().unwrap();
    for key in ["seconds", "games_per_second", "threads", "mean_decision_us"] {
        assert!(o.remove(key).is_some(), "{key} missing from {v}");
    }
    let totals = o.get_mut("totals").unwrap().as_object_mut().unwrap();
    assert!(totals.remove("agent_nanos").is_some(), "{v}");
    s
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
    assert!(
        table.contains("games                     300 (seeds 1000 to 1299)"),
        "{table}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(lines.len(), 301);
    let mut wins = 0;
    let mut pits = 0;
    for (i, line) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], (1000 + i).to_string());
        // The endings the grid has.
        assert!(
            ["won", "climbed_out", "pit", "wumpus", "unfinished"].contains(&f[1]),
            "{line}"
        );
        f[2].parse::<i64>().unwrap();
        f[3].parse::<u32>().unwrap();
        // One arrow on the grid.
        assert!(f[4].parse::<u32>().unwrap() <= 1, "{line}");
        wins += (f[1] == "won") as u32;
        pits += (f[1] == "pit") as u32;
    }
    assert!(
        table.contains(&format!("wins                      {wins} (")),
        "{table}"
    );
    assert!(
        table.contains(&format!("  pit                     {pits} (")),
        "{table}"
    );
    // The rows add up to the JSON summary of the same batch.
    let file2 = dir.path().join("again.csv");
    let summary: Value = serde_json::from_str(&stdout(
        wumpus()
            .args([
                "solve", "--worlds", "300", "--seed", "1000", "--size", "4x4", "--json", "--csv",
            ])
            .arg(&file2),
    ))
    .unwrap();
    assert_eq!(std::fs::read_to_string(&file2).unwrap(), text);
    assert_eq!(summary["wins"], wins);
    rows_add_up(&lines[1..], &summary, 1000);
    std::fs::remove_file(&file2).unwrap();
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
    assert_eq!(whole["game"]["rules"], "grid");
    assert_eq!(
        whole["seeds"],
        serde_json::json!({"first": 77, "last": 1077})
    );
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
        assert_eq!(part["threads"], 1);
        let file = dir.path().join(format!("part{k}.json"));
        std::fs::write(&file, text).unwrap();
        files.push(file);
        let csv = std::fs::read_to_string(&csv).unwrap();
        let first = part["seeds"]["first"].as_u64().unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], HEADER);
        rows_add_up(&lines[1..], &part, first);
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
    assert_eq!(timeless(&merged), timeless(&whole));
    // The shards' rows, concatenated in shard order, are the whole batch's rows.
    let all = dir.path().join("all.csv");
    stdout(wumpus().args(common).arg("--csv").arg(&all));
    assert_eq!(rows, std::fs::read_to_string(&all).unwrap());
    // The table, and the refusals.
    let table = stdout(wumpus().arg("merge").args(&files));
    assert!(
        table.contains("games                     1001 (seeds 77 to 1077)"),
        "{table}"
    );
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
    // Fewer games than shards: refused before any game is played.
    wumpus()
        .args(["solve", "--worlds", "2", "--shard", "1/3", "--json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "give --worlds at least 3 for 3 shards",
        ));
}

/// Runs `wumpus ARGS` on a batch far too long to finish, sends it SIGINT (what Ctrl-C sends)
/// after a while, and returns what it printed and its status.
fn interrupt(args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("wumpus");
    let child = std::process::Command::new(bin)
        .args(args)
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
    assert_eq!(out.status.code(), Some(130), "{args:?}: {out:?}");
    out
}

/// `wumpus merge FILE` of one interrupted summary: refused, as a shard that must be run again.
fn merge_refuses_interrupted(dir: &std::path::Path, summary: &[u8]) {
    let file = dir.join("interrupted.json");
    std::fs::write(&file, summary).unwrap();
    wumpus()
        .arg("merge")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("was interrupted"));
}

#[test]
fn ctrl_c_prints_the_partial_summary_and_exits_130() {
    let out = interrupt(&[
        "solve",
        "--worlds",
        "1000000000",
        "--threads",
        "1",
        "--json",
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["interrupted"], true);
    let games = summary["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000_000, "{games}");
    assert_eq!(summary["totals"]["games"].as_u64().unwrap(), games);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted"), "{err}");
    merge_refuses_interrupted(tempfile::tempdir().unwrap().path(), &out.stdout);
}

/// Ctrl-C in `solve --rules grid|cave|maze`: the JSON summary of the games finished marked
/// `interrupted`, the CSV file saved with their rows, status 130, a summary `merge` refuses;
/// and the text summary says it covers only the games finished.
fn ctrl_c_stops_a_cave_batch(rules: &str) {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    let csv_arg = csv.to_str().unwrap();
    let out = interrupt(&[
        "solve",
        "--rules",
        rules,
        "--worlds",
        "1000000000",
        "--threads",
        "1",
        "--json",
        "--csv",
        csv_arg,
    ]);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["interrupted"], true, "{summary}");
    assert_eq!(summary["game"]["rules"], rules, "{summary}");
    let games = summary["totals"]["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000_000, "{games}");
    assert_eq!(summary["games"].as_u64().unwrap(), games);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("interrupted: {games} of 1000000000 games played")),
        "{err}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().count() as u64, games + 1, "{rows}");
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], HEADER);
    rows_add_up(&lines[1..], &summary, 0);
    merge_refuses_interrupted(dir.path(), &out.stdout);

    // The text summary, with the rows on standard output and the summary on standard error.
    let out = interrupt(&[
        "solve",
        "--rules",
        rules,
        "--worlds",
        "1000000000",
        "--threads",
        "1",
        "--csv",
        "-",
    ]);
    let rows = String::from_utf8_lossy(&out.stdout);
    let games = rows.lines().count() as u64 - 1;
    assert!(games > 0, "{rows}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "interrupted: the summary covers the {games} games finished of 1000000000\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "games                     {games} (stopped among seeds 0 to 999999999)"
        )),
        "{err}"
    );
}

#[test]
fn ctrl_c_stops_a_classic_cave_batch() {
    ctrl_c_stops_a_cave_batch("cave");
}

#[test]
fn ctrl_c_stops_a_maze_batch() {
    ctrl_c_stops_a_cave_batch("maze");
}

#[test]
fn ctrl_c_stops_a_grid_batch_with_csv_rows() {
    ctrl_c_stops_a_cave_batch("grid");
}

#[test]
fn every_subcommand_help_shows_examples() {
    let subcommands: [&[&str]; 11] = [
        &["solve"],
        &["catalogue"],
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
            for name in [
                "solve",
                "trace",
                "play",
                "world",
                "merge",
                "completions",
                "catalogue",
            ] {
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

/// `solve --rules cave|maze` in shards, with CSV rows, merged: the same sums and summary as one
/// unsharded run, and the shards' rows are the unsharded rows. `setup` is the batch's `game`
/// object (the rule set's parameters), `agent` its agent.
fn caves_shard_and_merge(rules: &str, extra: &[&str], games: u64, agent: &str, setup: Value) {
    let dir = tempfile::tempdir().unwrap();
    let base: Vec<String> = [
        "solve", "--rules", rules, "--seed", "40", "--json", "--worlds",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([games.to_string()])
    .chain(extra.iter().map(|s| s.to_string()))
    .collect();
    let whole_csv = dir.path().join("whole.csv");
    let whole: Value =
        serde_json::from_str(&stdout(wumpus().args(&base).arg("--csv").arg(&whole_csv))).unwrap();
    // The rule set's parameters, in the one shape; no grid-only figures.
    assert_eq!(whole["game"]["rules"], rules);
    assert_eq!(whole["game"]["agent"], agent);
    assert_eq!(whole["game"], setup, "{whole}");
    assert_eq!(whole["shard"], Value::Null);
    assert_eq!(
        whole["seeds"],
        serde_json::json!({"first": 40, "last": 40 + games - 1})
    );
    assert_eq!(whole["ceiling"], Value::Null);
    assert_eq!(whole["wins_of_ceiling"], Value::Null);
    let mut files = Vec::new();
    let mut rows = Vec::new();
    for k in [3, 1, 2] {
        let csv = dir.path().join(format!("{k}.csv"));
        let json = stdout(
            wumpus()
                .args(&base)
                .args(["--shard", &format!("{k}/3"), "--csv"])
                .arg(&csv),
        );
        let part: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(part["shard"], serde_json::json!({"index": k, "count": 3}));
        assert_eq!(part["game"], setup);
        let file = dir.path().join(format!("{k}.json"));
        std::fs::write(&file, json).unwrap();
        files.push(file);
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(HEADER));
        let part_rows: Vec<&str> = lines.collect();
        rows_add_up(&part_rows, &part, part["seeds"]["first"].as_u64().unwrap());
        rows.push((
            k,
            part_rows
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        ));
    }
    rows.sort();
    let sharded_rows: Vec<String> = rows.into_iter().flat_map(|(_, r)| r).collect();
    let whole_text = std::fs::read_to_string(&whole_csv).unwrap();
    let mut whole_lines = whole_text.lines();
    assert_eq!(whole_lines.next(), Some(HEADER));
    let whole_rows: Vec<&str> = whole_lines.collect();
    assert_eq!(whole_rows.len() as u64, games);
    assert_eq!(sharded_rows, whole_rows);
    // The rows add up to the summary.
    let wins = whole_rows
        .iter()
        .filter(|r| r.split(',').nth(1) == Some("won"))
        .count();
    assert_eq!(whole["wins"], wins as u64);
    assert_eq!(whole["totals"]["games"], games);
    rows_add_up(&whole_rows, &whole, 40);

    let merged: Value =
        serde_json::from_str(&stdout(wumpus().arg("merge").args(&files).arg("--json"))).unwrap();
    for key in [
        "game", "seed", "worlds", "shard", "seeds", "games", "wins", "endings",
    ] {
        assert_eq!(merged[key], whole[key], "{key}");
    }
    assert_eq!(timeless(&merged), timeless(&whole));
    let table = stdout(wumpus().arg("merge").args(&files));
    assert!(
        table.contains(&format!(
            "games                     {games} (seeds 40 to {})",
            40 + games - 1
        )),
        "{table}"
    );

    // A shard missing, twice, or of another batch is refused.
    wumpus()
        .arg("merge")
        .args(&files[..2])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is missing"));
    wumpus()
        .arg("merge")
        .args([&files[0], &files[0], &files[1], &files[2]])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("twice"));
    let other = dir.path().join("other.json");
    let mut changed = whole.clone();
    changed["seed"] = Value::from(41);
    std::fs::write(&other, changed.to_string()).unwrap();
    wumpus()
        .arg("merge")
        .arg(&files[0])
        .arg(&other)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seed differs"));
    // A shard of the same batch on another map or variant is another batch.
    let part: Value = serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    let mut changed = part.clone();
    changed["game"]["map"] = Value::from("another map");
    std::fs::write(&other, changed.to_string()).unwrap();
    wumpus()
        .arg("merge")
        .arg(&files[0])
        .arg(&other)
        .arg(&files[2])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("setup differs"));
}

#[test]
fn cave_shards_and_csv_merge_into_the_whole_batch() {
    caves_shard_and_merge(
        "cave",
        &[],
        200,
        "logic",
        serde_json::json!({"rules": "cave", "depth": 1, "variant": "event", "map_known": false, "agent": "logic"}),
    );
    caves_shard_and_merge(
        "cave",
        &["--map", "worlds/cave-risk.txt", "--map-known"],
        100,
        "logic",
        serde_json::json!({"rules": "cave", "depth": 1, "map": "worlds/cave-risk.txt", "variant": "event", "map_known": true, "agent": "logic"}),
    );
    caves_shard_and_merge(
        "cave",
        &["--agent", "random", "--variant", "yob"],
        300,
        "random",
        serde_json::json!({"rules": "cave", "variant": "yob", "map_known": false, "agent": "random"}),
    );
}

#[test]
fn maze_shards_and_csv_merge_into_the_whole_batch() {
    caves_shard_and_merge(
        "maze",
        &[],
        24,
        "logic",
        serde_json::json!({"rules": "maze", "map_known": false, "agent": "logic"}),
    );
}

#[test]
fn cave_and_grid_summaries_do_not_merge() {
    // Shards 1/2 and 2/2 of batches alike but for the rule set (and so its agent and setup):
    // every pair of rule sets, in either order, is refused for its rule set.
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, rules) in ["grid", "cave", "maze", "aima"].into_iter().enumerate() {
        let mut parts = Vec::new();
        for k in [1, 2] {
            let file = dir.path().join(format!("{rules}{k}.json"));
            let json = stdout(wumpus().args([
                "solve",
                "--rules",
                rules,
                "--worlds",
                "5",
                "--json",
                "--shard",
                &format!("{k}/2"),
            ]));
            let v: Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["game"]["rules"], rules);
            std::fs::write(&file, json).unwrap();
            parts.push(file);
        }
        // Each rule set's own shards merge.
        let merged: Value =
            serde_json::from_str(&stdout(wumpus().arg("merge").args(&parts).arg("--json")))
                .unwrap();
        assert_eq!(merged["game"]["rules"], rules);
        assert_eq!(merged["games"], 5);
        files.push(parts);
        for other in &files[..i] {
            for (a, b) in [(&files[i][0], &other[1]), (&other[0], &files[i][1])] {
                wumpus().arg("merge").args([a, b]).assert().code(2).stderr(
                    predicate::str::contains(
                        "summary 2 is of another batch than the first: its rule set differs",
                    ),
                );
            }
        }
    }
}

#[test]
fn cave_and_maze_batches_give_the_same_games_on_any_number_of_threads() {
    for rules in ["cave", "maze", "grid", "aima"] {
        // The textbook's rules with mixed sizes: each game's size comes from its seed too.
        let sizes: &[&str] = if rules == "aima" {
            &["--size", "4x4..7x7"]
        } else {
            &[]
        };
        let summary = |threads: &str| {
            let out = stdout(
                wumpus()
                    .args([
                        "solve",
                        "--rules",
                        rules,
                        "--worlds",
                        "40",
                        "--json",
                        "--threads",
                        threads,
                    ])
                    .args(sizes),
            );
            let v: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["threads"].as_u64(), threads.parse().ok(), "{rules}: {v}");
            v
        };
        let (one, two) = (summary("1"), summary("2"));
        assert!(one["games"].as_u64() == Some(40), "{rules}: {one}");
        assert_eq!(one["game"]["rules"], rules);
        // Timings differ between runs; every count and mean must not.
        assert_eq!(timeless(&one), timeless(&two), "{rules}");
    }
}

#[test]
fn merge_refuses_forged_or_overflowing_shards_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |k: u32| -> Value {
        let out = stdout(wumpus().args([
            "solve",
            "--worlds",
            "10",
            "--shard",
            &format!("{k}/2"),
            "--json",
        ]));
        serde_json::from_str(&out).unwrap()
    };
    let (one, two) = (shard(1), shard(2));
    let first = dir.path().join("one.json");
    std::fs::write(&first, one.to_string()).unwrap();
    let forge = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut v = two.clone();
        edit(&mut v);
        let path = dir.path().join(name);
        std::fs::write(&path, v.to_string()).unwrap();
        let out = wumpus()
            .arg("merge")
            .arg(&first)
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name), "{name}: the file is named: {err}");
        err
    };
    // 1,000 wins claimed in a shard of 5 games, in its figures and its sums.
    let err = forge("wins.json", &|v| {
        let won = v["totals"]["endings"]["won"].as_u64().unwrap_or(0);
        v["totals"]["endings"]["won"] = json!(won + 1000);
        v["wins"] = json!(v["wins"].as_u64().unwrap() + 1000);
    });
    assert!(err.contains("does not add up"), "{err}");
    // A figure that does not follow from the sums.
    forge("figure.json", &|v| {
        v["wins"] = json!(v["wins"].as_u64().unwrap() + 3);
    });
    // A mean score no game could give.
    forge("score.json", &|v| {
        v["totals"]["score_sum"] = json!(-460_000_000_000_000_000i64);
    });
    // Sums that overflow when added: the moves of two shards of 2^63 games, each sum as large
    // as a u64 holds (which so many games allow).
    let huge = |v: &mut Value, games: u64| {
        v["worlds"] = json!(u64::MAX);
        v["games"] = json!(games);
        v["wins"] = json!(games);
        v["endings"] = json!({"won": games});
        v["totals"] = json!({"games": games, "endings": {"won": games}, "score_sum": 0,
            "score_squares_sum": 0, "moves_sum": u64::MAX, "shots_sum": 0, "won_shots_sum": 0,
            "winnable": 0, "solver_calls_sum": 0, "decisions": 0, "agent_nanos": 0});
    };
    let mut big = one.clone();
    huge(&mut big, (1u64 << 63) - 1);
    let big_path = dir.path().join("big.json");
    std::fs::write(&big_path, big.to_string()).unwrap();
    let mut other = two.clone();
    huge(&mut other, 1u64 << 63);
    let other_path = dir.path().join("other.json");
    std::fs::write(&other_path, other.to_string()).unwrap();
    let out = wumpus()
        .arg("merge")
        .arg(&big_path)
        .arg(&other_path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("other.json") && err.contains("overflow"),
        "{err}"
    );
}

/// `wumpus catalogue` prints the library's own description: every rule set with its agents and
/// options, and each option a flag of `solve --help`.
#[test]
fn the_catalogue_names_every_rule_set_and_each_option_is_a_flag() {
    let catalogue: Value = serde_json::from_str(&stdout(wumpus().arg("catalogue"))).expect("JSON");
    let rules: Vec<&str> = catalogue["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["grid", "cave", "maze", "aima"]);
    let help = stdout(wumpus().args(["solve", "--help"]));
    for option in catalogue["options"].as_array().unwrap() {
        let flag = format!("--{}", option["name"].as_str().unwrap().replace('_', "-"));
        assert!(help.contains(&flag), "{flag} missing from solve --help");
    }
}
