//! What the end-to-end tests share: running the real binary in the crate's folder, the live
//! server and an HTTP client for it, and whether a browser test can run here.

pub mod browser;
pub mod http;
pub mod load;

/// The output of one run of the binary.
#[allow(dead_code)] // The server's tests run it otherwise.
pub struct Run {
    /// The exit status (-1 when a signal ended it).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `wumpus ARGS` in the crate's folder with `input` on standard input.
#[allow(dead_code)] // The server's tests run it otherwise.
pub fn wumpus(args: &[&str], input: &str) -> Run {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // The optimal agent's solved values go under target/, never the user's cache folder.
        .env(
            "WUMPUS_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/wumpus-cache"),
        )
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

/// True when every one of `programs` runs here (`PROGRAM --version`). When one does not, `what`
/// (a test, or a part of one) is skipped with a message, except where `CI` is set: there a test
/// that cannot run fails instead of passing.
#[allow(dead_code)] // Only the browser tests ask.
pub fn can_run(programs: &[&str], what: &str) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| {
            !std::process::Command::new(p)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and {what} cannot run: {} not found (apt-get install -y chromium \
         chromium-driver; .ci/run does)",
        missing.join(", ")
    );
    eprintln!(
        "SKIPPED {what}: {} not found (apt-get install -y chromium chromium-driver; .ci/run does)",
        missing.join(", ")
    );
    false
}
