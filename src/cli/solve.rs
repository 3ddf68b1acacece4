//! `wumpus solve`: the agent on a batch of random worlds, summed up.

use super::cave::{self, RulesArg, VariantArg};
use super::{bad_input, parse_probability, AgentArg, GridSize, ScoringArg};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::run::{solve_grid, AgentKind, Batch, GameOptions, Summary};

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
    let refuse = |why: &str| Err(bad_input(anyhow::anyhow!("{why}")));
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
            });
        }
        (RulesArg::Maze, Some(AgentArg::Random)) => {
            return refuse("the random agent plays the classic cave: use --rules cave")
        }
        (RulesArg::Maze, _) => {
            if args.variant != VariantArg::Event {
                return refuse("--variant is for the classic cave (--rules cave)");
            }
            return cave::solve_maze(args.map, args.worlds, args.seed, args.json);
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
    };
    let summary = solve_grid(&batch)?;
    if args.json {
        super::out(serde_json::to_string(&summary)? + "\n")?;
    } else {
        super::out(table(&summary))?;
    }
    Ok(())
}

fn table(s: &Summary) -> String {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    format!(
        "agent {} on {} {} worlds (pit probability {}, seeds {}..{}), {} scoring\n\
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
        s.games,
        s.size,
        s.pit_prob,
        s.seed,
        s.seed + s.games - 1,
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
    ) + &if s.cut_off > 0 {
        format!("cut off (too many moves)  {}\n", s.cut_off)
    } else {
        String::new()
    }
}
