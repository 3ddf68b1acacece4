//! `wumpus solve`: the agent on a batch of random worlds, summed up.

use super::batch::{check_interrupted, interrupted_line, BatchCli};
use super::cave::{self, RulesArg, VariantArg};
use super::{bad_input, parse_probability, AgentArg, GridSize, ScoringArg};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::run::{solve_grid, AgentKind, Batch, GameOptions, GameRecord, Shard, Summary};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Number of random worlds.
    #[arg(long, default_value_t = 1000)]
    worlds: u64,
    /// Seed of the first world; world i has seed S + i (replay one with `trace --seed`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Grid size, rows x columns.
    #[arg(long, default_value = "5x5")]
    size: GridSize,
    /// Probability that a cell other than 0,0 holds a pit.
    #[arg(long, default_value = "0.2", value_parser = parse_probability)]
    pit_prob: f64,
    /// How scores are counted.
    #[arg(long, value_enum, default_value_t)]
    scoring: ScoringArg,
    /// Which agent plays (default: risk on the grid, logic in the cave, where it weighs odds too).
    #[arg(long, value_enum)]
    agent: Option<AgentArg>,
    /// Threads (default: all cores). `--threads 1` measures one core.
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write one CSV row per game (seed,outcome,score,moves) to FILE, or to standard output
    /// with `-` (the summary table then goes to standard error).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Play only shard K of N (contiguous ranges of games); `wumpus merge` adds up the shards'
    /// `--json` summaries.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Reason with the rules in this file instead of the built-in kb/grid.kb.
    #[arg(long)]
    kb: Option<PathBuf>,
    /// The rule set.
    #[arg(long, value_enum, default_value_t)]
    rules: RulesArg,
    /// Cave map file, either format (default: the standard dodecahedron).
    #[arg(long)]
    map: Option<PathBuf>,
    /// The classic cave's rules.
    #[arg(long, value_enum, default_value_t)]
    variant: VariantArg,
    /// Give the cave agent the whole map up front (default: it knows the room count and learns
    /// each room's tunnels by standing in it).
    #[arg(long)]
    map_known: bool,
}

pub fn run(args: SolveArgs) -> Result<()> {
    if args.worlds == 0 {
        return Err(bad_input(anyhow::anyhow!("--worlds must be at least 1")));
    }
    if args.rules != RulesArg::Grid {
        // The cave batches run on rayon's global pool: size it as asked.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads.unwrap_or(0))
            .build()
            .map_err(|e| anyhow::anyhow!("cannot start the threads: {e}"))?;
        return pool.install(|| run_on_pool(args));
    }
    run_on_pool(args)
}

fn run_on_pool(args: SolveArgs) -> Result<()> {
    let refuse = |why: &str| Err(bad_input(anyhow::anyhow!("{why}")));
    if args.json && args.csv.as_deref() == Some(std::path::Path::new("-")) {
        return refuse("--csv - writes rows to standard output: give --csv a file to keep --json");
    }
    match (args.rules, args.agent) {
        (RulesArg::Grid, None | Some(AgentArg::Logic | AgentArg::Risk)) => {}
        (RulesArg::Grid, Some(AgentArg::Random)) => {
            return refuse("the random agent plays the cave: use --rules cave")
        }
        (RulesArg::Cave, agent) => {
            return cave::solve(cave::SolveOptions {
                map: args.map,
                variant: args.variant.into(),
                agent: match agent {
                    Some(AgentArg::Random) => cave::AgentArg::Random,
                    None | Some(AgentArg::Logic | AgentArg::Risk) => cave::AgentArg::Logic,
                },
                map_known: args.map_known,
                games: args.worlds,
                seed: args.seed,
                output: if args.json {
                    cave::OutputFormat::Json
                } else {
                    cave::OutputFormat::Text
                },
                shard: args.shard,
                csv: args.csv,
            });
        }
        (RulesArg::Maze, Some(AgentArg::Random)) => {
            return refuse("the random agent plays the classic cave: use --rules cave")
        }
        (RulesArg::Maze, _) => {
            if args.variant != VariantArg::Event {
                return refuse("--variant is for the classic cave (--rules cave)");
            }
            return cave::solve_maze(
                args.map,
                args.worlds,
                args.seed,
                args.json,
                args.shard,
                args.csv,
            );
        }
    }
    if args.map.is_some() || args.variant != VariantArg::Event || args.map_known {
        return refuse("--map, --map-known and --variant are for --rules cave");
    }
    let rules = match &args.kb {
        Some(path) => Some(Arc::new(super::read_rules(path)?)),
        None => None,
    };
    let batch = Batch {
        worlds: args.worlds,
        seed: args.seed,
        rows: args.size.rows,
        cols: args.size.cols,
        pit_prob: args.pit_prob,
        game: GameOptions {
            agent: match args.agent {
                Some(AgentArg::Logic) => AgentKind::Logic,
                _ => AgentKind::Risk,
            },
            pit_prob: args.pit_prob,
            explain: false,
            scoring: args.scoring.into(),
            rules,
        },
        threads: args.threads,
        shard: args.shard,
    };
    let games = match batch.shard {
        Some(shard) => shard.range(batch.worlds),
        None => 0..batch.worlds,
    };
    let mut sink = BatchCli::new(
        games.end - games.start,
        args.csv.as_deref(),
        "seed,outcome,score,moves",
        grid_row,
    )?;
    let summary = solve_grid(&batch, &mut sink).map_err(bad_input)?;
    sink.finish()?;
    if args.json {
        super::out(serde_json::to_string(&summary)? + "\n")?;
    } else if sink.csv_to_stdout() {
        eprint!("{}", table(&summary));
    } else {
        super::out(table(&summary))?;
    }
    check_interrupted(summary.interrupted, summary.games, games.end - games.start)
}

/// A grid game's CSV row.
fn grid_row(r: &GameRecord) -> String {
    let seed = r.seed.map_or(String::new(), |s| s.to_string());
    format!("{seed},{},{},{}", r.outcome.name(), r.score, r.moves)
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

/// Adds up the summaries of a batch's shards into the whole batch's.
pub fn merge(args: MergeArgs) -> Result<()> {
    let mut parts = Vec::new();
    let mut caves = Vec::new();
    for path in &args.files {
        let text = wumpus::files::read_text(path).map_err(bad_input)?;
        let rules = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("rules").and_then(|r| r.as_str()).map(str::to_string));
        if matches!(rules.as_deref(), Some("cave" | "maze")) {
            let batch: wumpus::run::CaveBatch = serde_json::from_str(&text).map_err(|e| {
                bad_input(anyhow::anyhow!(
                    "{}: not a solve --rules cave|maze --json summary: {e}",
                    path.display()
                ))
            })?;
            caves.push(batch);
            continue;
        }
        let summary: Summary = serde_json::from_str(&text).map_err(|e| {
            bad_input(anyhow::anyhow!(
                "{}: not a solve --json summary: {e}",
                path.display()
            ))
        })?;
        parts.push(summary);
    }
    match (parts.is_empty(), caves.is_empty()) {
        (true, false) => {
            let whole = wumpus::run::merge_cave(&caves).map_err(bad_input)?;
            return cave::print_batch(&whole, args.json, false);
        }
        (false, false) => {
            return Err(bad_input(anyhow::anyhow!(
                "cannot merge grid summaries with cave or maze ones"
            )))
        }
        _ => {}
    }
    let whole = wumpus::run::merge(&parts).map_err(bad_input)?;
    if args.json {
        super::out(serde_json::to_string(&whole)? + "\n")
    } else {
        super::out(table(&whole))
    }
}

fn table(s: &Summary) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let range = s.range();
    let shard = match s.shard {
        Some(shard) => format!(", shard {shard} of {} worlds", s.worlds),
        None => String::new(),
    };
    interrupted_line(s.interrupted, s.games, range.end - range.start)
        + &format!(
            "agent {} on {} {} worlds (pit probability {}, seeds {}..{}{shard}), {} scoring\n\
         games                     {}\n\
         wins (out with gold)      {} ({})\n\
         deaths                    {}\n\
         climbed out without gold  {}\n\
         mean score                {:.1}\n\
         mean moves                {:.1}\n\
         ceiling (winnable worlds) {}\n\
         wins of ceiling           {}\n\
         solver calls a game       {:.1}\n\
         mean decision time        {:.1} us\n\
         time                      {:.3} s on {} thread{}\n\
         games per second          {:.0}\n",
            s.agent.name(),
            range.end - range.start,
            s.size,
            s.pit_prob,
            s.seed.wrapping_add(range.start),
            s.seed.wrapping_add(range.end).wrapping_sub(1),
            s.scoring.name(),
            s.games,
            s.wins,
            pct(s.win_rate),
            s.deaths,
            s.climbed_out_without_gold,
            s.mean_score,
            s.mean_moves,
            pct(s.ceiling),
            pct(s.wins_of_ceiling),
            s.solver_calls_per_game,
            s.mean_decision_us,
            s.seconds,
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            s.games_per_second,
        )
        + &if s.cut_off > 0 {
            format!("cut off (too many moves)  {}\n", s.cut_off)
        } else {
            String::new()
        }
}
