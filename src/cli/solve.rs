//! `wumpus solve` and `wumpus merge`: an agent on a batch of seeded games, or of world (or
//! hazard) files, summed up, and the shards of a batch added up, written once for every rule
//! set over the library's one batch loop ([`wumpus::run::solve`], [`wumpus::run::solve_files`]).

use super::args::GameArgs;
use super::batch::{check_interrupted, BatchCli};
use super::{bad_input, text};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::{BatchId, Shard, Summary};

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

pub fn run(mut args: SolveArgs) -> Result<()> {
    if !args.files.is_empty() {
        if args.rules.given("size") || args.rules.given("deal") {
            return Err(bad_input(anyhow::anyhow!(
                "--files plays each file's own world: --size and --deal deal worlds instead"
            )));
        }
        args.files = list_files(&args.files)?;
        args.worlds = args.files.len() as u64;
    }
    if args.worlds == 0 {
        return Err(bad_input(anyhow::anyhow!("--worlds must be at least 1")));
    }
    if args.json && args.csv.as_deref() == Some(std::path::Path::new("-")) {
        return Err(bad_input(anyhow::anyhow!(
            "--csv - writes rows to standard output: give --csv a file to keep --json"
        )));
    }
    if let Some(shard) = args.shard {
        if args.worlds < shard.count {
            return Err(bad_input(anyhow::anyhow!(
                "{} shards need at least {} games, but --worlds is {}: some shards would be \
                 empty (give --worlds at least {} for {} shards)",
                shard.count,
                shard.count,
                args.worlds,
                shard.count,
                shard.count
            )));
        }
    }
    args.rules.check(&[])?;
    let rules = args.rules.clone();
    rules.dispatch(args, false)
}

impl OnRules for SolveArgs {
    type Out = Result<()>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<()> {
        let agents = game.agents().map_err(super::args::spec_error)?;
        let batch = wumpus::run::Batch {
            worlds: self.worlds,
            seed: self.seed,
            threads: self.threads.map(|t| t as usize),
            shard: self.shard,
        };
        let id = BatchId {
            rules: S::RULES,
            agent: game.agent.name().to_string(),
            setup: game.describe(),
            seed: self.seed,
            worlds: self.worlds,
            shard: self.shard,
        };
        let games = batch.range();
        let on_files = !self.files.is_empty();
        let mut sink = BatchCli::new(games.end - games.start, self.csv.as_deref(), on_files)?;
        let summary = if on_files {
            let mut id = id;
            id.setup = game.describe_files();
            id.setup
                .insert("files".into(), files_label(&self.files).into());
            wumpus::run::solve_files(
                &game.setup,
                &self.files,
                agents.as_ref(),
                &batch,
                id,
                &mut sink,
            )
        } else {
            wumpus::run::solve(&game.setup, agents.as_ref(), &batch, id, &mut sink)
        }
        .map_err(super::run_error)?;
        sink.finish()?;
        if let Some(report) = agents.report() {
            eprintln!("{report}");
        }
        if self.json {
            super::out(serde_json::to_string(&summary)? + "\n")?;
        } else if sink.csv_to_stdout() {
            eprint!("{}", text::summary_text(&summary));
        } else {
            super::out(text::summary_text(&summary))?;
        }
        check_interrupted(summary.interrupted, summary.games, games.end - games.start)
    }
}

/// The files `--files` names: each folder's regular files (not those whose names start with a
/// dot) in the order of their names, and each file given.
fn list_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path)
            .map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", path.display())))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut inside: Vec<PathBuf> = Vec::new();
        let entries = std::fs::read_dir(path)
            .map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", path.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| bad_input(anyhow::anyhow!("{}: {e}", path.display())))?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let file = entry.path();
            // Links are followed: a link to a world file plays it; a folder inside is not
            // searched; anything else (a FIFO, a device, a link loop or one that leads
            // nowhere) is refused by name rather than skipped without a word.
            match std::fs::metadata(&file) {
                Ok(m) if m.is_file() => inside.push(file),
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(bad_input(anyhow::anyhow!(
                        "{}: not a regular file (a FIFO, a device or a socket): a folder \
                         given to --files holds world or hazard files only",
                        file.display()
                    )))
                }
                Err(e) => {
                    return Err(bad_input(anyhow::anyhow!(
                        "{}: {}",
                        file.display(),
                        e.to_string().to_lowercase()
                    )))
                }
            }
        }
        if inside.is_empty() {
            return Err(bad_input(anyhow::anyhow!(
                "{}: the folder holds no files to play",
                path.display()
            )));
        }
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// How a batch over files names them in its summary: the one folder or file, or the first and
/// the count.
fn files_label(files: &[PathBuf]) -> String {
    let parent = files[0].parent();
    if files.len() > 1 && files.iter().all(|f| f.parent() == parent) {
        format!(
            "{} files in {}",
            files.len(),
            parent.map_or(".".into(), |p| p.display().to_string())
        )
    } else if files.len() == 1 {
        files[0].display().to_string()
    } else {
        format!("{} files from {}", files.len(), files[0].display())
    }
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
            bad_input(anyhow::anyhow!(
                "{}: not a solve --json summary: {e}",
                path.display()
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
