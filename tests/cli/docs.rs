//! What the docs say is what the program does: every transcript in README.md and docs/ is run
//! and its output compared, as clap and cargo test theirs (snapbox's wildcards).
//!
//! A transcript is a fenced block marked `console`: each line starting with `$ ` is a command
//! (a line ending in `\` goes on on the next), run by `sh` in a scratch folder that holds the
//! checkout's `worlds/` and `kb/`, with this build's `wumpus` first on the `PATH`, standard
//! error after standard output; the lines after it, up to the next command, are what it
//! prints. In what it prints, a line `...` stands for any lines (none included), and `[..]`
//! for any text within a line; trailing spaces do not count. A command that must fail says
//! so with a last line `? N`, its exit status; any other command must succeed.
//!
//! Fenced blocks marked `sh` hold commands without their output (to copy, or too long to
//! run here); `text` blocks hold other text. Neither is run.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One command of a transcript and what it prints.
#[derive(Debug)]
struct Transcript {
    /// Where it is: `docs/tutorial.md:20`.
    at: String,
    command: String,
    expected: Vec<String>,
    status: i32,
}

/// The documents whose transcripts are checked.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![Path::new(ROOT).join("README.md")];
    let mut inside: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    inside.sort();
    docs.extend(inside);
    docs
}

/// Every transcript of `text` (the document `name`).
fn transcripts(name: &str, text: &str) -> Vec<Transcript> {
    let mut out: Vec<Transcript> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    let mut pending: Option<Transcript> = None;
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        if let Some(info) = line.strip_prefix("```") {
            if in_console || in_other {
                out.extend(pending.take());
                (in_console, in_other) = (false, false);
            } else if info.trim() == "console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if continued {
            let t = pending.as_mut().expect("a command goes on");
            let part = line.trim_end();
            continued = part.ends_with('\\');
            t.command.push('\n');
            t.command.push_str(part);
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(pending.take());
            let command = command.trim_end();
            continued = command.ends_with('\\');
            pending = Some(Transcript {
                at: format!("{name}:{number}"),
                command: command.to_string(),
                expected: Vec::new(),
                status: 0,
            });
            continue;
        }
        let t = pending
            .as_mut()
            .unwrap_or_else(|| panic!("{name}:{number}: output before any command"));
        match line.strip_prefix("? ").and_then(|s| s.trim().parse().ok()) {
            Some(status) => t.status = status,
            None => t.expected.push(line.trim_end().to_string()),
        }
    }
    out.extend(pending);
    out
}

/// True when `actual` is `pattern`, where `[..]` in the pattern stands for any text.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    first.len() + last.len() <= actual.len()
}

/// True when the lines `actual` are the lines `expected`, where a line `...` stands for any
/// lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

/// A scratch folder with the checkout's worlds and rules, where a transcript runs.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for shared in ["worlds", "kb"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(shared), dir.path().join(shared)).unwrap();
    }
    dir
}

fn run(t: &Transcript, dir: &Path, bin: &Path) -> (i32, String) {
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {}\n}} 2>&1", t.command))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("WUMPUS_CACHE", dir.join(".cache"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn every_transcript_in_the_docs_is_what_the_program_prints() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_wumpus"));
    let mut checked = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let name = doc.strip_prefix(ROOT).unwrap().display().to_string();
        let name = name.trim_start_matches('/').to_string();
        let text = std::fs::read_to_string(&doc).unwrap();
        for t in transcripts(&name, &text) {
            let dir = scratch();
            let (status, printed) = run(&t, dir.path(), &bin);
            let actual: Vec<&str> = printed.lines().map(str::trim_end).collect();
            checked += 1;
            if status != t.status || !lines_match(&t.expected, &actual) {
                failures.push(format!(
                    "{}: `{}` exited {status} (the doc says {}) and printed:\n{printed}",
                    t.at, t.command, t.status
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} transcripts differ from the program:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 20, "only {checked} transcripts found");
}

#[test]
fn the_wildcards_match_as_snapbox_reads_them() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(lines_match(&lines("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(lines_match(&lines("a\n...\nb"), &["a", "b"]));
    assert!(!lines_match(&lines("a\nb"), &["a", "b", "c"]));
    assert!(line_matches(
        "time [..] s on [..] threads",
        "time 0.12 s on 2 threads"
    ));
    assert!(!line_matches("time [..] s", "time 0.12 ms"));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("ab[..]ba", "aba"));
    let t = transcripts(
        "x.md",
        "```console\n$ echo a \\\n  b\na b\n$ false\n? 1\n```\n```sh\n$ not run\n```\n",
    );
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].command, "echo a \\\n  b");
    assert_eq!((t[1].status, t[1].expected.len()), (1, 0));
}
