//! The command line's side of a `solve` batch, the same for the grid, the classic cave and the
//! maze: the progress bar on standard error, Ctrl-C, the CSV rows, and how an interrupted batch
//! is reported. Every rule set's games come as the same [`GameRecord`], so one sink serves
//! the three rule sets and writes one CSV shape.

use super::{bad_input, text};
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wumpus::files::AtomicFile;
use wumpus::run::{BatchSink, GameRecord};

/// Where the CSV rows go.
enum Csv {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File(AtomicFile),
}

impl Csv {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Csv::Stdout(w) => w,
            Csv::File(f) => f,
        }
    }
}

/// A batch's sink on the command line: the progress bar, Ctrl-C and the CSV rows.
pub struct BatchCli {
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
    csv: Option<Csv>,
    failure: Option<std::io::Error>,
    // Kept apart from `csv`, which `finish` takes, because the summary is printed after it.
    to_stdout: bool,
}

impl BatchCli {
    /// A sink for a batch of `games` games; with `csv` (`-`: standard output) it writes the
    /// header, then a row for each game. Sets the Ctrl-C handler.
    pub fn new(games: u64, csv: Option<&Path>, on_files: bool) -> Result<BatchCli> {
        let to_stdout = csv == Some(Path::new("-"));
        let mut csv = match csv {
            None => None,
            Some(_) if to_stdout => Some(Csv::Stdout(std::io::BufWriter::new(std::io::stdout()))),
            Some(p) => Some(Csv::File(AtomicFile::create(p).map_err(bad_input)?)),
        };
        // The bar is drawn only on a terminal, so logs and pipes stay clean.
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games, {elapsed} so far, {eta} left (Ctrl-C: stop and sum up)",
                )
                .expect("a valid template"),
            );
            bar
        } else {
            ProgressBar::hidden()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        // The first Ctrl-C stops the batch and sums up the games finished; a second one ends
        // the program at once. (The handler can be set once a process, which is all `solve`
        // needs; if it cannot, Ctrl-C simply ends the program as usual.)
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        let mut failure = None;
        if let Some(csv) = &mut csv {
            let header = if on_files {
                text::CSV_HEADER_FILES
            } else {
                text::CSV_HEADER
            };
            if let Err(e) = writeln!(csv.writer(), "{header}") {
                failure = Some(e);
            }
        }
        Ok(BatchCli {
            bar,
            stop,
            csv,
            failure,
            to_stdout,
        })
    }

    /// True when the rows go to standard output (the summary then goes to standard error).
    pub fn csv_to_stdout(&self) -> bool {
        self.to_stdout
    }

    /// Clears the bar, then flushes and saves the rows (those of the games finished, when the
    /// batch was stopped); reports a write failure.
    pub fn finish(&mut self) -> Result<()> {
        self.bar.finish_and_clear();
        if let Some(e) = self.failure.take() {
            return Err(anyhow::Error::new(e).context("cannot write the CSV rows"));
        }
        match self.csv.take() {
            Some(Csv::Stdout(mut w)) => w.flush().context("cannot write the CSV rows")?,
            Some(Csv::File(f)) => f.commit().map_err(bad_input)?,
            None => {}
        }
        Ok(())
    }
}

impl Drop for BatchCli {
    /// A batch that ends in an error never reaches `finish`; the bar is cleared all the same,
    /// so the error is not printed after a half-drawn bar.
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

impl BatchSink for BatchCli {
    fn progress(&self, games: u64) {
        self.bar.inc(games);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn wants_records(&self) -> bool {
        self.csv.is_some()
    }

    fn record(&mut self, r: &GameRecord) -> bool {
        let Some(csv) = &mut self.csv else {
            return true;
        };
        match writeln!(csv.writer(), "{}", text::csv_row(r)) {
            Ok(()) => true,
            Err(e) => {
                self.failure = Some(e);
                false
            }
        }
    }
}

/// After the summary is printed: the error (exit status 130) of a batch stopped by Ctrl-C.
pub fn check_interrupted(interrupted: bool, games: u64, of: u64) -> Result<()> {
    if interrupted {
        return Err(anyhow::Error::new(super::Interrupted(format!(
            "interrupted: {games} of {of} games played"
        ))));
    }
    Ok(())
}
