//! What the end-to-end tests share: running the real binary in the crate's folder.

/// The output of one run of the binary.
pub struct Run {
    /// The exit status (-1 when a signal ended it).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `wumpus ARGS` in the crate's folder with `input` on standard input.
pub fn wumpus(args: &[&str], input: &str) -> Run {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .write_stdin(input)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The choices a trace lists after each `choices weighed` header: one list a decision, each
/// line as printed (a `*` at column 5 marks the one taken). The header's rest is first.
#[allow(dead_code)] // Not every test file that shares this module reads traces.
pub fn weighed(trace: &str) -> Vec<(&str, Vec<&str>)> {
    trace
        .split("choices weighed")
        .skip(1)
        .map(|block| {
            let mut lines = block.lines();
            let header = lines.next().unwrap_or("");
            (
                header,
                lines.take_while(|l| l.starts_with("    ")).collect(),
            )
        })
        .collect()
}
