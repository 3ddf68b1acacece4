//! Every command works the same way for every rule set, through the one game interface: `play`
//! with `hint`, `trace` (text, `--step`, `--json`, `--html`), `solve` (table, `--json`, `--csv`,
//! `--shard`, `merge`) and `kb --dimacs`; an option that does not fit the chosen rule set is
//! refused with status 2, a message naming the rule set and the options that do apply.

use std::path::Path;

use crate::common;
use common::wumpus;

const RULES: [&str; 4] = ["grid", "cave", "maze", "aima"];

#[test]
fn trace_in_every_form_for_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    for rules in RULES {
        let base = ["trace", "--rules", rules, "--seed", "3"];
        let text = wumpus(&base, "");
        assert_eq!(text.code, 0, "{rules}: {}", text.stderr);
        assert!(text.stdout.contains("\nStep 1 at "), "{rules}");
        assert!(text.stdout.contains("\nOutcome: "), "{rules}");
        let json = wumpus(&[&base[..], &["--json"]].concat(), "");
        assert_eq!(json.code, 0, "{rules}: {}", json.stderr);
        let lines: Vec<serde_json::Value> = json
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["game"]["rules"], rules);
        let steps = lines.len() - 2;
        assert!(steps >= 1, "{rules}");
        assert!(lines.last().unwrap()["outcome"].is_string(), "{rules}");
        // The text trace has as many steps as the JSON one: the same game.
        assert_eq!(text.stdout.matches("\nStep ").count(), steps, "{rules}");
        let page = dir.path().join(format!("{rules}.html"));
        let html = wumpus(
            &[&base[..], &["--html", page.to_str().unwrap()]].concat(),
            "",
        );
        assert_eq!(html.code, 0, "{rules}: {}", html.stderr);
        assert!(html.stdout.contains(&format!("({steps} steps)")), "{rules}");
        let written = std::fs::read_to_string(&page).unwrap();
        assert!(
            written.contains(&format!("\"rules\":\"{rules}\"")),
            "{rules}"
        );
        // --step waits for Enter and stops on q.
        let step = wumpus(&[&base[..], &["--step"]].concat(), "q\n");
        assert_eq!(step.code, 0, "{rules}: {}", step.stderr);
        assert_eq!(step.stdout.matches("\nStep ").count(), 1, "{rules}");
        assert!(step.stdout.contains("Stopped"), "{rules}");
    }
}

#[test]
fn play_and_hint_for_every_rule_set() {
    for rules in RULES {
        let run = wumpus(&["play", "--rules", rules, "--seed", "3"], "hint\nhelp\n");
        assert_eq!(run.code, 0, "{rules}: {}", run.stderr);
        assert!(run.stdout.contains("Hint: "), "{rules}: {}", run.stdout);
        assert!(
            run.stdout.contains("What your percepts prove so far:"),
            "{rules}"
        );
        assert!(run.stdout.contains("End of input"), "{rules}");
    }
}

#[test]
fn solve_shards_csv_and_merge_for_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    for rules in RULES {
        let games = if rules == "grid" || rules == "aima" {
            "200"
        } else {
            "30"
        };
        let whole = wumpus(
            &["solve", "--rules", rules, "--worlds", games, "--json"],
            "",
        );
        assert_eq!(whole.code, 0, "{rules}: {}", whole.stderr);
        let whole: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
        assert_eq!(whole["game"]["rules"], rules);
        let mut parts = Vec::new();
        for k in 1..=2 {
            let csv = dir.path().join(format!("{rules}-{k}.csv"));
            let run = wumpus(
                &[
                    "solve",
                    "--rules",
                    rules,
                    "--worlds",
                    games,
                    "--json",
                    "--shard",
                    &format!("{k}/2"),
                    "--csv",
                    csv.to_str().unwrap(),
                ],
                "",
            );
            assert_eq!(run.code, 0, "{rules}: {}", run.stderr);
            let file = dir.path().join(format!("{rules}-{k}.json"));
            std::fs::write(&file, &run.stdout).unwrap();
            parts.push(file);
            let rows = std::fs::read_to_string(&csv).unwrap();
            assert!(
                rows.starts_with("seed,outcome,score,moves,shots\n"),
                "{rules}"
            );
        }
        let paths: Vec<&str> = parts.iter().map(|p| p.to_str().unwrap()).collect();
        let merged = wumpus(&[&["merge", "--json"][..], &paths].concat(), "");
        assert_eq!(merged.code, 0, "{rules}: {}", merged.stderr);
        let merged: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
        assert_eq!(
            merged["totals"]["endings"], whole["totals"]["endings"],
            "{rules}"
        );
        assert_eq!(
            merged["totals"]["score_sum"], whole["totals"]["score_sum"],
            "{rules}"
        );
        let table = wumpus(&[&["merge"][..], &paths].concat(), "");
        assert!(table.stdout.contains("games per second"), "{rules}");
    }
}

#[test]
fn kb_dimacs_for_every_rule_set() {
    // The maze's default agent reasons over a map of its own, not the maze's: it says so.
    let run = wumpus(
        &[
            "kb", "--dimacs", "--rules", "maze", "--seed", "3", "--step", "1",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--map-known"), "{}", run.stderr);
    for rules in RULES {
        let known: &[&str] = if rules == "maze" {
            &["--map-known"]
        } else {
            &[]
        };
        let run = wumpus(
            &[
                &[
                    "kb", "--dimacs", "--rules", rules, "--seed", "3", "--step", "1",
                ][..],
                known,
            ]
            .concat(),
            "",
        );
        assert_eq!(run.code, 0, "{rules}: {}", run.stderr);
        assert!(run.stdout.contains("\nc step 1 at "), "{rules}");
        let header = run
            .stdout
            .lines()
            .find(|l| l.starts_with("p cnf "))
            .unwrap_or_else(|| panic!("{rules}: no header"));
        let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
        let lines = run
            .stdout
            .lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count();
        assert_eq!(lines, clauses, "{rules}: the header counts the clauses");
        // Past the end of the game: refused with its real length.
        let past = wumpus(
            &[
                "kb", "--dimacs", "--rules", rules, "--seed", "3", "--step", "9999",
            ],
            "",
        );
        assert_eq!(past.code, 2, "{rules}");
        assert!(
            past.stderr.contains("past the end of the game: it has "),
            "{rules}"
        );
    }
}

#[test]
fn options_that_do_not_apply_are_refused_naming_what_does() {
    let cases: [(&[&str], &str, &[&str]); 9] = [
        (
            &["solve", "--rules", "aima", "--scoring", "standard"],
            "the option --scoring does not apply to the textbook's (AIMA) Wumpus World (--rules aima)",
            &["--size", "--pit-prob", "--kb"],
        ),
        (
            &[
                "solve",
                "--rules",
                "cave",
                "--size",
                "4x4",
                "--scoring",
                "aima",
            ],
            "the options --size, --scoring do not apply to the classic cave (--rules cave)",
            &["--map", "--variant", "--map-known"],
        ),
        (
            &["solve", "--rules", "cave", "--agent", "risk"],
            "the risk agent does not play the classic cave",
            &["logic", "random"],
        ),
        (
            &["trace", "--rules", "maze", "--variant", "yob"],
            "the option --variant does not apply to the caves.dat maze (--rules maze)",
            &["--map"],
        ),
        (
            &["play", "--map", "worlds/caves.dat"],
            "the option --map does not apply to the grid Wumpus World (--rules grid)",
            &["--size", "--pit-prob", "--world"],
        ),
        (
            &[
                "kb",
                "--dimacs",
                "--rules",
                "cave",
                "--world",
                "worlds/seed-example.txt",
            ],
            "the option --world does not apply to the classic cave",
            &["--hazards"],
        ),
        (
            &["solve", "--rules", "cave", "--depth", "2"],
            "the look-ahead (--depth) needs the map (--map-known)",
            &["--map-known"],
        ),
        (
            &["trace", "--rules", "maze", "--depth", "3"],
            "the option --depth does not apply to the caves.dat maze (--rules maze)",
            &["--map"],
        ),
        (
            &["bot", "--rules", "grid"],
            "invalid value 'grid' for '--rules <RULES>'",
            &["[possible values: cave, maze]"],
        ),
    ];
    for (args, why, names) in cases {
        let run = wumpus(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
        for name in names {
            assert!(
                run.stderr.contains(name),
                "{args:?} names {name}: {}",
                run.stderr
            );
        }
        assert!(run.stdout.is_empty(), "{args:?} printed {}", run.stdout);
    }
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("worlds/caves.dat")
        .exists());
}
