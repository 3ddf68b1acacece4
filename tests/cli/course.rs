//! The course tournament's worlds through the real binary: its world files read as
//! its shells read them, a batch over a folder of world files that equals the same worlds
//! played one by one, and `--deal course`.

use crate::common;

use common::wumpus;
use serde_json::Value;
use std::path::Path;

/// A course file 6 columns wide and 4 rows high whose generator wrote pits row first: `3 5`
/// and `2 4` fall off the board (column 3 of row 5, column 2 of row 4 do not exist) and are
/// dropped, as the shells drop them; `1 2` is column 1 of row 2.
const NOT_SQUARE: &str = "6\t4\r\n5\t3\r\n4\t1\r\n3\r\n3\t5\r\n1\t2\r\n2\t4\r\n";

#[test]
fn a_course_file_is_read_as_the_shells_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("TournamentWorld6x4_0.txt");
    std::fs::write(&file, NOT_SQUARE).unwrap();
    let path = file.to_str().unwrap();
    let check = wumpus(&["world", "check", path], "");
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stdout.contains("ok (4x6, 1 pit)"), "{}", check.stdout);
    let show = wumpus(&["world", "show", path], "");
    // Row 2 (the third line from the bottom) has its pit in column 1; the wumpus is at 3,5.
    assert!(
        show.stdout.contains("   2  .  P  .  .  .  . "),
        "{}",
        show.stdout
    );
    assert!(
        show.stdout.contains("   3  .  .  .  .  .  W "),
        "{}",
        show.stdout
    );

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "6\t4\r\n5\t3\r\n4\tx\r\n0\r\n").unwrap();
    let run = wumpus(&["world", "check", bad.to_str().unwrap()], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("bad.txt:3: 'x' is not a whole number (gold)"),
        "{}",
        run.stderr
    );
}

/// The last line of `trace --json` on `file`: the game's end.
fn traced_end(file: &Path) -> Value {
    let run = wumpus(
        &[
            "trace",
            "--rules",
            "aima",
            "--world",
            file.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(run.stdout.lines().last().unwrap()).unwrap()
}

#[test]
fn a_batch_over_a_folder_equals_the_same_worlds_played_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-not-square.txt"), NOT_SQUARE).unwrap();
    // Worlds of the course's deal, in the project's format, of several sizes.
    for seed in 0..7 {
        let out = dir.path().join(format!("dealt-{seed}.txt"));
        let run = wumpus(
            &[
                "world",
                "new",
                "--deal",
                "course",
                "--seed",
                &seed.to_string(),
                "-o",
                out.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let folder = dir.path().to_str().unwrap();
    let batch = wumpus(
        &[
            "solve",
            "--rules",
            "aima",
            "--files",
            folder,
            "--csv",
            "-",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    let mut rows = batch.stdout.lines();
    assert_eq!(rows.next(), Some("file,seed,outcome,score,moves,shots"));
    let rows: Vec<&str> = rows.collect();
    assert_eq!(rows.len(), 8, "{}", batch.stdout);
    let mut sizes = std::collections::BTreeSet::new();
    for row in rows {
        let fields: Vec<&str> = row.split(',').collect();
        let file = Path::new(fields[0]);
        let end = traced_end(file);
        assert_eq!(fields[2], end["outcome"].as_str().unwrap(), "{row}");
        assert_eq!(fields[3], end["score"].to_string(), "{row}");
        assert_eq!(fields[4], end["moves"].to_string(), "{row}");
        let text = std::fs::read_to_string(file).unwrap();
        sizes.insert(text.lines().next().unwrap().to_string());
    }
    assert!(sizes.len() > 2, "several sizes in one batch: {sizes:?}");
    // The summary names the folder and the game count.
    assert!(batch.stderr.contains("8 files in"), "{}", batch.stderr);
}

#[test]
fn files_and_a_deal_are_not_given_together() {
    let run = wumpus(
        &[
            "solve", "--rules", "aima", "--files", "worlds", "--deal", "course",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--files plays each file's own world"),
        "{}",
        run.stderr
    );
}

/// `solve`'s "best possible mean score" line, if it prints one.
fn best_possible(args: &[&str]) -> Option<String> {
    let run = wumpus(args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .find(|l| l.starts_with("best possible mean score"))
        .map(str::to_string)
}

#[test]
fn solve_bounds_the_course_deal_dealt_or_read_from_its_files() {
    // The course's deal under the textbook's rules: the bound of examples/tournament_bound.rs
    // on that deal (its sizes in its proportion, pits only in the lower-left block).
    let course = "at most 335.89 for any player on this deal (an upper bound";
    let dealt = best_possible(&[
        "solve", "--rules", "aima", "--deal", "course", "--worlds", "20",
    ])
    .expect("the course's deal is bounded");
    assert!(dealt.contains(course), "{dealt}");

    // A folder of course files is on that deal too.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("TournamentWorld6x4_0.txt"), NOT_SQUARE).unwrap();
    std::fs::write(
        dir.path().join("TournamentWorld4x4_0.txt"),
        "4\t4\r\n2\t2\r\n3\t1\r\n1\r\n1\t2\r\n",
    )
    .unwrap();
    let folder = dir.path().to_str().unwrap();
    let files = best_possible(&["solve", "--rules", "aima", "--files", folder])
        .expect("course files are bounded");
    assert!(files.contains(course), "{files}");

    // One file in the project's own format, of no known deal: nothing is claimed.
    std::fs::write(
        dir.path().join("own.txt"),
        "SIZE 4 4\nWUMPUS 1 1\nGOLD 2 2\n",
    )
    .unwrap();
    assert_eq!(
        best_possible(&["solve", "--rules", "aima", "--files", folder]),
        None
    );
    // Nor under other rules, or another pit probability.
    assert_eq!(
        best_possible(&["solve", "--deal", "course", "--worlds", "20"]),
        None
    );
    assert_eq!(
        best_possible(&[
            "solve",
            "--rules",
            "aima",
            "--deal",
            "course",
            "--pit-prob",
            "0.3",
            "--worlds",
            "20",
        ]),
        None
    );
}

#[test]
fn the_size_is_hidden_for_the_course_and_told_on_request() {
    let header = |extra: &[&str]| {
        let mut args = vec![
            "solve", "--rules", "aima", "--deal", "course", "--worlds", "20",
        ];
        args.extend_from_slice(extra);
        let run = wumpus(&args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout.lines().next().unwrap().to_string()
    };
    assert!(header(&[]).contains("size hidden"), "{}", header(&[]));
    assert!(!header(&["--size-told"]).contains("size hidden"));
    let both = wumpus(
        &["solve", "--rules", "aima", "--size-hidden", "--size-told"],
        "",
    );
    assert_eq!(both.code, 2, "{}", both.stderr);

    // A course file is played with the size hidden unless told; the batch says so.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("TournamentWorld6x4_0.txt");
    std::fs::write(&file, NOT_SQUARE).unwrap();
    let path = file.to_str().unwrap();
    let run = wumpus(&["solve", "--rules", "aima", "--files", path, "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["game"]["size_told"], false, "{summary}");
    assert_eq!(summary["game"]["deal"], "course", "{summary}");

    // The project's own files are told their size; hidden, a size the prior does not allow
    // is refused, naming the file.
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "SIZE 3 3\nWUMPUS 2 2\nGOLD 1 2\n").unwrap();
    let small = small.to_str().unwrap();
    let told = wumpus(&["solve", "--rules", "aima", "--files", small], "");
    assert_eq!(told.code, 0, "{}", told.stderr);
    let hidden = wumpus(
        &[
            "solve",
            "--rules",
            "aima",
            "--files",
            small,
            "--size-hidden",
        ],
        "",
    );
    assert_eq!(hidden.code, 2, "{}", hidden.stderr);
    assert!(
        hidden
            .stderr
            .contains("small.txt:1: a 3x3 board cannot be played with its size hidden"),
        "{}",
        hidden.stderr
    );
}
