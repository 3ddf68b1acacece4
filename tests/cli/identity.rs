//! Decisions stay the same: for fixed seeds, every rule set's agents play the identity batches
//! exactly as the code before the one-interface change did (commit 1083410): the same games,
//! wins, scores, moves, shots, losses and (grid) solver calls.
//!
//! `tests/identity/before.jsonl` was recorded from that commit's binary by
//! `tests/identity/record.py`, which reads both its JSON shapes; this test reads today's one
//! shape. A change that is meant to change decisions re-records the file and says so.
//!
//! A line re-recorded says which change meant to change those decisions in `git log` of
//! `tests/identity/before.jsonl`; every other line is 1083410's. The grid's risk batches name
//! `--depth 1`, the depth 1083410 played, so they check the same decisions whatever the
//! default.

use assert_cmd::Command;
use serde_json::{json, Value};

/// The figures of a `solve --json` summary that follow from decisions alone, shaped as
/// `record.py` writes them.
fn normalise(summary: &Value) -> Value {
    let t = &summary["totals"];
    let grid = summary["game"]["rules"] == "grid";
    let mut endings = serde_json::Map::new();
    let mut deaths = 0;
    for (name, n) in t["endings"].as_object().expect("endings") {
        match name.as_str() {
            "won" | "climbed_out" => {}
            "unfinished" => {
                endings.insert(name.clone(), n.clone());
            }
            _ if grid => deaths += n.as_u64().unwrap(),
            _ => {
                endings.insert(name.clone(), n.clone());
            }
        }
    }
    if grid {
        endings.entry("unfinished").or_insert(json!(0));
        endings.insert("deaths".into(), json!(deaths));
    }
    json!({
        "games": t["games"],
        "wins": t["endings"].get("won").cloned().unwrap_or(json!(0)),
        "score_sum": t["score_sum"],
        "moves_sum": t["moves_sum"],
        "shots_sum": if grid { Value::Null } else { t["shots_sum"].clone() },
        "endings": endings,
        "solver_calls_sum": if grid { t["solver_calls_sum"].clone() } else { Value::Null },
        "winnable": if grid { t["winnable"].clone() } else { Value::Null },
    })
}

#[test]
fn every_agent_decides_as_before_the_one_interface() {
    let recorded = include_str!("../identity/before.jsonl");
    let mut checked = 0;
    for line in recorded.lines() {
        let mut before: Value = serde_json::from_str(line).unwrap();
        let batch = before["batch"].as_str().unwrap().to_string();
        before.as_object_mut().unwrap().remove("batch");
        let out = Command::cargo_bin("wumpus")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["solve", "--threads", "1", "--json"])
            .args(batch.split_whitespace())
            .output()
            .unwrap();
        assert!(out.status.success(), "solve {batch} failed: {out:?}");
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(normalise(&summary), before, "solve {batch}");
        checked += 1;
    }
    assert_eq!(checked, 11, "every recorded batch is checked");
}
