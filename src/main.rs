//! The `wumpus` command line: parse the flags, run, and turn an error into an exit status.
//!
//! Status 0 is success, 2 is bad input (a malformed file, a bad flag), 130 a `solve` batch
//! stopped by Ctrl-C (after its summary), 1 anything else.

mod cli;

use clap::Parser;

/// mimalloc: the knowledge bases an explanation builds and drops, and a trace's lists, are
/// many short-lived allocations, and it serves them faster than the system's allocator
/// (docs/trace-json.md has the figures).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = cli::Args::parse();
    match cli::run(args) {
        Ok(()) => {}
        Err(err) => {
            if let Some(status) = cli::exit_status(&err) {
                // What the error quotes came from outside (a file's name, a line of it):
                // control characters are escaped, never sent to the terminal.
                for message in cli::messages(&err) {
                    eprintln!("wumpus: {}", cli::printable(&message));
                }
                std::process::exit(status);
            }
        }
    }
}
