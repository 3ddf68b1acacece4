//! The file edge through the real binary: writes never follow a link
//! planted at a guessable name and write special files (devices, FIFOs, `/dev/stdout`)
//! directly; reads refuse what is not a regular file or is over the size cap, without hanging;
//! cave maps over the room limit, runaway `--threads`, and the quoting of invisible characters
//! in parse errors.
//!
//! These tests run as root on the build machine, so nothing here writes to a device by its own
//! name until a harmless stand-in (a link in a temporary folder, which a broken build would
//! only replace) has shown that devices are written, not replaced.

use assert_cmd::Command;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn wumpus() -> Command {
    let mut cmd = Command::cargo_bin("wumpus").unwrap();
    cmd.timeout(Duration::from_secs(20));
    cmd
}

/// Runs `wumpus` with `args` and `stdin`: (status, stdout, stderr).
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = wumpus().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn write(dir: &Path, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// An event-format cave map of `rooms` rooms (even, at least 4): a ring, each room joined to
/// its two ring neighbours and to the room opposite.
fn ring_map(rooms: usize) -> String {
    let mut map = format!("1\n{rooms}\n");
    for i in 0..rooms {
        let next = (i + 1) % rooms;
        let back = (i + rooms - 1) % rooms;
        let across = (i + rooms / 2) % rooms;
        map += &format!("{} {} {} {}\n", i + 1, next + 1, back + 1, across + 1);
    }
    map
}

// --- 1. Writes ---

#[test]
fn world_new_does_not_follow_links_planted_at_guessable_temporary_names() {
    let dir = tempfile::tempdir().unwrap();
    let victim = write(dir.path(), "victim.txt", b"keep me\n");
    // Names a writer might guess for its temporary file (`.NAME.tmpPID` with a process id near
    // this one's, and others): a link planted at each must never be followed.
    let me = std::process::id();
    let mut names: Vec<String> = (me.saturating_sub(200)..me + 3000)
        .map(|pid| format!(".out.txt.tmp{pid}"))
        .collect();
    names.extend([".out.txt.tmp", "out.txt.tmp", ".out.txt.swp", "out.txt~"].map(String::from));
    for name in &names {
        std::os::unix::fs::symlink(&victim, dir.path().join(name)).unwrap();
    }
    let out = dir.path().join("out.txt");
    let (code, stdout, err) = run(&["world", "new", "--seed", "7", "-o", text(&out)], "");
    assert_eq!(code, 0, "{err}");
    assert!(stdout.starts_with("Wrote "), "{stdout}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    assert!(std::fs::read_to_string(&out).unwrap().contains("SIZE"));
    for name in &names {
        let meta = std::fs::symlink_metadata(dir.path().join(name)).unwrap();
        assert!(meta.is_symlink(), "{name}");
    }
}

#[test]
fn world_new_through_a_link_to_a_regular_file_replaces_the_file_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = write(dir.path(), "real.txt", b"old\n");
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (code, _, err) = run(&["world", "new", "--seed", "7", "-o", text(&link)], "");
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(std::fs::read_to_string(&real).unwrap().contains("SIZE"));
}

#[test]
fn world_new_writes_into_a_fifo_and_leaves_it_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("world.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let (code, stdout, err) = run(&["world", "new", "--seed", "7", "-o", text(&fifo)], "");
    assert_eq!(code, 0, "{err}");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "replaced: {kind:?}");
    // Should the command not have opened the FIFO, the reader still waits for a writer: be
    // one, so the test fails instead of hanging (no reader left: the open fails, ignored).
    {
        use std::os::unix::fs::OpenOptionsExt;
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
    }
    let read = reader.join().unwrap();
    assert!(read.contains("SIZE"), "{read}");
    // The note goes to standard error, so what was written to the pipe stays the world alone.
    assert!(stdout.is_empty(), "{stdout}");
    assert!(err.contains("Wrote"), "{err}");
}

#[test]
fn devices_are_written_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    // First through links, which a build that replaced devices would only replace (the device
    // itself stays safe), then, once that passed, by the device's own name.
    let null_link = dir.path().join("null");
    std::os::unix::fs::symlink("/dev/null", &null_link).unwrap();
    let (code, _, err) = run(&["world", "new", "--seed", "7", "-o", text(&null_link)], "");
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&null_link).unwrap().is_symlink());
    let (code, _, err) = run(&["world", "new", "--seed", "7", "-o", "/dev/null"], "");
    assert_eq!(code, 0, "{err}");
    let dev_null = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(dev_null.is_char_device());

    let full_link = dir.path().join("full");
    std::os::unix::fs::symlink("/dev/full", &full_link).unwrap();
    let (code, _, err) = run(&["world", "new", "--seed", "7", "-o", text(&full_link)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}: no space left on device", full_link.display())),
        "{err}"
    );
    assert!(std::fs::symlink_metadata(&full_link).unwrap().is_symlink());
}

#[test]
fn trace_html_to_standard_output_writes_the_page_there() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("page.html");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    for target in [text(&link), "/dev/stdout"] {
        let (code, stdout, err) = run(&["trace", "--seed", "7", "--html", target], "");
        assert_eq!(code, 0, "{err}");
        assert!(
            stdout.contains("<html"),
            "{target}: {}",
            &stdout[..stdout.len().min(200)]
        );
        assert!(stdout.trim_end().ends_with("</html>"), "{target}");
        assert!(err.contains("Wrote"), "{err}");
        // Checked before /dev/stdout is named itself.
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    }
}

// --- 2. Reads ---

#[test]
fn world_check_refuses_dev_zero_at_once() {
    let start = std::time::Instant::now();
    let (code, _, err) = run(&["world", "check", "/dev/zero"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero: not a regular file"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_fifo_or_folder_given_as_an_input_is_refused_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("in.fifo");
    mkfifo(&fifo);
    let fifo = text(&fifo);
    for args in [
        vec!["world", "check", fifo],
        vec!["trace", "--world", fifo],
        vec!["trace", "--rules", "cave", "--map", fifo],
        vec!["bot", "--map", fifo],
        vec!["solve", "--kb", fifo, "--worlds", "1"],
        vec!["world", "check", text(dir.path())],
    ] {
        let (code, _, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(": not a regular file"), "{args:?}: {err}");
    }
}

#[test]
fn bot_refuses_an_endless_map() {
    let (code, _, err) = run(&["bot", "--map", "/dev/zero"], "game 20\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero: not a regular file"), "{err}");
}

#[test]
fn a_file_over_the_size_cap_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.txt");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(16 * 1024 * 1024 + 1).unwrap();
    let (code, _, err) = run(&["world", "check", text(&path)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "{}: the file is larger than 16 MiB",
            path.display()
        )),
        "{err}"
    );
}

#[test]
fn play_refuses_to_load_dev_zero_and_goes_on() {
    let (code, out, err) = run(
        &["play", "--world", "worlds/seed-example.txt"],
        "load /dev/zero\nclimb\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Cannot load: /dev/zero: not a regular file"),
        "{out}"
    );
    assert!(out.contains("climb"), "the game goes on: {out}");
}

// --- 3. Big cave maps ---

#[test]
fn a_map_over_the_room_limit_is_refused_on_its_count_line() {
    let dir = tempfile::tempdir().unwrap();
    let map = write(dir.path(), "big.txt", ring_map(32).as_bytes());
    for args in [
        vec!["world", "check", text(&map)],
        vec![
            "trace",
            "--rules",
            "cave",
            "--map",
            text(&map),
            "--map-known",
        ],
        vec!["bot", "--map", text(&map)],
    ] {
        let (code, _, err) = run(&args, "game 32\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{}:2: the map has 32 rooms; at most 30 are played (first move within a \
                 second, docs/caves.md)",
                map.display()
            )),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_map_at_the_room_limit_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let map = write(dir.path(), "limit.txt", ring_map(30).as_bytes());
    let (code, out, err) = run(&["world", "check", text(&map)], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("30 rooms"), "{out}");
}

// --- 4. Threads ---

#[test]
fn solve_refuses_a_runaway_thread_count() {
    for threads in ["100000", "0"] {
        let (code, _, err) = run(&["solve", "--threads", threads, "--worlds", "1"], "");
        assert_eq!(code, 2, "{threads}: {err}");
        assert!(err.contains("invalid value"), "{err}");
        assert!(err.contains("1..=256"), "{err}");
    }
    let (code, _, err) = run(&["solve", "--threads", "256", "--worlds", "2"], "");
    assert_eq!(code, 0, "{err}");
}

// --- 5. Smaller ones ---

#[test]
fn a_room_count_over_the_limit_is_said_on_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let alone = write(dir.path(), "alone.txt", b"100001\n");
    let (code, _, err) = run(&["world", "check", text(&alone)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}:1: the map has 100001 rooms", alone.display())),
        "{err}"
    );
    let counted = write(dir.path(), "counted.txt", b"1\n100001\n1 2 3 4\n");
    let (code, _, err) = run(&["world", "check", text(&counted)], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "{}:2: the map has 100001 rooms",
            counted.display()
        )),
        "{err}"
    );
}

#[test]
fn solve_and_trace_both_exit_2_on_a_map_too_small_to_deal() {
    let dir = tempfile::tempdir().unwrap();
    let small = write(
        dir.path(),
        "small.txt",
        b"1\n4\n1 2 3 4\n2 1 3 4\n3 1 2 4\n4 1 2 3\n",
    );
    for command in ["solve", "trace"] {
        let (code, _, err) = run(&[command, "--rules", "cave", "--map", text(&small)], "");
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains("at least 6 rooms"), "{command}: {err}");
    }
}

#[test]
fn invisible_characters_in_a_bad_token_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let nul = write(dir.path(), "nul.txt", b"\0\0\0\n");
    let (code, _, err) = run(&["world", "check", "--rules", "grid", text(&nul)], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r"unknown keyword '\0\0\0'"), "{err}");
    let (code, _, err) = run(&["world", "check", "--rules", "cave", text(&nul)], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r"'\0\0\0' is not a whole number"), "{err}");
    let grid = write(dir.path(), "grid.txt", b"SIZE 4 4\nPIT 1 \t\x01\n");
    let (code, _, err) = run(&["world", "check", text(&grid)], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r"'\u{1}' is not a whole number"), "{err}");
    let hazards = write(dir.path(), "hazards.txt", b"HUNTER \x7f\n");
    let (code, _, err) = run(
        &[
            "world",
            "show",
            "worlds/cave-standard.txt",
            "--hazards",
            text(&hazards),
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r"'\u{7f}' is not a whole number"), "{err}");
    let rules = write(dir.path(), "rules.kb", b"hidden pit(X).\n\0\n");
    let (code, _, err) = run(&["solve", "--kb", text(&rules), "--worlds", "1"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(r"unexpected character '\0'"), "{err}");
}

/// `CMD -o /dev/stdout >> log` (and `--html`, `--csv`) writes through the shell's own
/// descriptor: it appends, and what `log` held stays.
#[test]
fn a_standard_stream_opened_for_append_is_appended_to() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(dir.path(), "log", b"kept line\n");
    let bin = env!("CARGO_BIN_EXE_wumpus");
    let root = env!("CARGO_MANIFEST_DIR");
    for (args, marks) in [
        ("world new --seed 7 -o /dev/stdout", "WUMPUS"),
        ("trace --seed 3 --html /dev/stdout", "<!DOCTYPE html"),
        ("solve --worlds 3 --csv /dev/stdout", "seed,"),
        ("world new --seed 8 -o /proc/self/fd/1", "WUMPUS"),
    ] {
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "cd {root} && {bin} {args} >> '{}' 2>/dev/null",
                log.display()
            ))
            .status()
            .unwrap();
        assert!(status.success(), "{args}");
        let now = std::fs::read_to_string(&log).unwrap();
        assert!(
            now.starts_with("kept line\n"),
            "{args} replaced the log: {now:.80}"
        );
        assert!(now.contains(marks), "{args} appended nothing");
    }
}

/// Saving over a file keeps its permissions; another hard link to it keeps the old text (the
/// save makes a new file and renames it in, documented in `files::AtomicFile`).
#[test]
fn a_replaced_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let world = write(dir.path(), "w.txt", b"old\n");
    std::fs::set_permissions(&world, std::fs::Permissions::from_mode(0o600)).unwrap();
    let twin = dir.path().join("twin.txt");
    std::fs::hard_link(&world, &twin).unwrap();
    let (code, _, err) = run(
        &["world", "new", "--seed", "7", "-o", world.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let mode = std::fs::metadata(&world).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(std::fs::read_to_string(&world).unwrap().contains("WUMPUS"));
    assert_eq!(std::fs::read_to_string(&twin).unwrap(), "old\n");
}

/// A folder given to `solve --files` that holds a FIFO, a link to a device or a link loop is
/// refused naming it, as a file over the size cap is; nothing is skipped without a word.
#[test]
fn solve_files_refuses_what_is_not_a_regular_file_naming_it() {
    for planted in ["pipe", "zero", "loop"] {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.txt", b"WUMPUS 1 1\nGOLD 2 2\n");
        let path = dir.path().join(planted);
        match planted {
            "pipe" => mkfifo(&path),
            "zero" => std::os::unix::fs::symlink("/dev/zero", &path).unwrap(),
            _ => std::os::unix::fs::symlink(&path, &path).unwrap(),
        }
        let (code, _, err) = run(&["solve", "--files", dir.path().to_str().unwrap()], "");
        assert_eq!(code, 2, "{planted}: {err}");
        assert!(err.contains(planted), "{planted}: {err}");
    }
}

#[test]
fn names_that_came_from_outside_are_escaped_on_the_terminal_and_in_csv() {
    let dir = tempfile::tempdir().unwrap();
    let name = "w\u{1b}[2J\u{7}.txt";
    let world = write(dir.path(), name, b"PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n");
    let path = text(&world);
    let raw = |s: &str| s.contains('\u{1b}') || s.contains('\u{7}');
    for args in [
        vec!["world", "check", path],
        vec!["trace", "--world", path],
        vec!["solve", "--files", text(dir.path()), "--csv", "-"],
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            !raw(&out) && !raw(&err),
            "{args:?} printed a control character:\n{out}{err}"
        );
        assert!(
            out.contains("\\u{1b}") || err.contains("\\u{1b}"),
            "{args:?}: {out}{err}"
        );
    }
    // An error naming the file is escaped too.
    let bad = write(dir.path(), "b\u{1b}]0;title\u{7}.json", b"not json");
    let (code, out, err) = run(&["merge", text(&bad)], "");
    assert_eq!(code, 2);
    assert!(!raw(&out) && !raw(&err), "{err}");
}

#[test]
fn merge_refuses_sums_the_rules_cannot_give() {
    let (code, out, err) = run(&["solve", "--worlds", "20", "--shard", "1/1", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let forged = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut s = summary.clone();
        edit(&mut s);
        let path = write(dir.path(), "forged.json", s.to_string().as_bytes());
        run(&["merge", text(&path)], "")
    };
    // A score sum above the best any 20 games can come to.
    let (code, _, err) = forged(&|s| s["totals"]["score_sum"] = (20_000 * 20 + 1).into());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the rules cannot give"), "{err}");
    // Squares of the scores that cannot give their sum.
    let (code, _, err) = forged(&|s| s["totals"]["score_squares_sum"] = 0.into());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot give"), "{err}");
}
