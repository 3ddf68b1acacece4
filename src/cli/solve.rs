//! `wumpus solve` and `wumpus merge`: an agent on a batch of seeded games, or of world (or
//! hazard) files, summed up, and the shards of a batch added up, written once for every rule
//! set over the library's one batch loop ([`wumpus::run::solve`], [`wumpus::run::solve_files`]).

use super::args::GameArgs;
use super::batch::{check_interrupted, BatchCli};
use super::{bad_input, text};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use wumpus::run::{BatchJob, Shard, Summary};

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    rules: GameArgs,
    /// Play the world files (grid) or hazard files (caves) in these folders and files instead
    /// of dealing: a folder's regular files in the order of their names, one game each (the
    /// course tournament's files are read as they are). --csv rows are named by file.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with = "worlds")]
    files: Vec<PathBuf>,
    /// Number of games (random worlds, or random hazards on the map).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    worlds: u64,
    /// Seed of the first game; game i has seed S + i (replay one with `trace --seed`).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    seed: u64,
    /// Threads, 1 to 256 (default: all cores). `--threads 1` measures one core.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=super::args::MAX_THREADS as u64), allow_negative_numbers = true)]
    threads: Option<u64>,
    /// Print one JSON object (schema in docs/trace-json.md) instead of the table.
    #[arg(long)]
    json: bool,
    /// Write one CSV row per game (seed,outcome,score,moves,shots) to FILE, or to standard
    /// output with `-` (the summary table then goes to standard error).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Play only shard K of N (contiguous ranges of games); `wumpus merge` adds up the shards'
    /// `--json` summaries.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

pub fn run(args: SolveArgs) -> Result<()> {
    if args.json && args.csv.as_deref() == Some(std::path::Path::new("-")) {
        return Err(bad_input(anyhow::anyhow!(
            "--csv - writes rows to standard output: give --csv a file to keep --json"
        )));
    }
    args.rules.check(&[])?;
    let spec = &args.rules.spec;
    let job = BatchJob::new(
        spec,
        args.worlds,
        args.seed,
        args.threads.map(|t| t as usize),
        args.shard,
        &args.files,
    )
    .map_err(super::job_error)?;
    let games = job.games();
    let mut sink = BatchCli::new(games, args.csv.as_deref(), !job.files.is_empty())?;
    let solved = job.run(spec, &mut sink).map_err(super::job_error)?;
    sink.finish()?;
    if let Some(report) = solved.report {
        eprintln!("{report}");
    }
    let summary = solved.summary;
    if args.json {
        super::out(serde_json::to_string(&summary)? + "\n")?;
    } else if sink.csv_to_stdout() {
        eprint!("{}", text::summary_text(&summary));
    } else {
        super::out(text::summary_text(&summary))?;
    }
    check_interrupted(summary.interrupted, summary.games, games)
}

/// Flags of `wumpus merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' `solve --json --shard K/N` outputs, in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Adds up the summaries of a batch's shards into the whole batch's, for any rule set.
pub fn merge(args: MergeArgs) -> Result<()> {
    let mut parts = Vec::new();
    for path in &args.files {
        let text = wumpus::files::read_text(path).map_err(bad_input)?;
        let summary: Summary = serde_json::from_str(&text).map_err(|e| {
            let at = format!(" at line {} column {}", e.line(), e.column());
            let why = e.to_string();
            bad_input(anyhow::anyhow!(
                "{}:{}: not a solve --json summary: {} (column {})",
                path.display(),
                e.line(),
                why.strip_suffix(&at).unwrap_or(&why),
                e.column()
            ))
        })?;
        parts.push(summary);
    }
    let whole = wumpus::run::merge(&parts).map_err(|e| match e.part() {
        Some(n) => bad_input(anyhow::anyhow!("{}: {e}", args.files[n - 1].display())),
        None => bad_input(e),
    })?;
    if args.json {
        super::out(serde_json::to_string(&whole)? + "\n")
    } else {
        super::out(text::summary_text(&whole))
    }
}
