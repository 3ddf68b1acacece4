//! A batch summary for people, for every rule set: the table `solve` and `merge` print, read
//! from the library's [`Summary`] alone (never a figure worked out here that the summary does
//! not hold).

use super::plural;
use wumpus::run::best::BestScore;
use wumpus::run::Summary;

/// A batch summary for people.
pub fn summary_text(s: &Summary) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let range = s.range();
    if s.interrupted {
        let _ = writeln!(
            t,
            "interrupted: the summary covers the {} games finished of {}",
            s.games,
            range.end - range.start
        );
    }
    let setup = setup_words(s);
    let facts = wumpus::game_spec::facts(s.game.rules);
    let setup = crate::cli::printable(&setup);
    let _ = writeln!(
        t,
        "{} ({setup}), agent {}",
        facts.title,
        s.player
            .as_deref()
            .map_or_else(|| s.game.agent_kind().to_string(), |p| p.to_string())
    );
    let seeds = match (s.seeds, s.shard) {
        (None, Some(shard)) => format!(
            "shard {shard} of {} games is empty: it has no games to play",
            s.worlds
        ),
        (None, None) => "no games".to_string(),
        // A file's game is the file's; its seed deals only the agent's dice.
        (Some(_), shard) if s.files.is_some() => format!(
            "a file each: {}files {} to {}{}",
            if s.interrupted { "stopped among " } else { "" },
            range.start + 1,
            range.end,
            shard.map_or(String::new(), |_| format!(" of {}", s.worlds))
        ),
        (Some(r), shard) => format!(
            "{}seeds {} to {}{}",
            if s.interrupted { "stopped among " } else { "" },
            r.first,
            r.last,
            shard.map_or(String::new(), |k| format!(
                ", shard {k} of {} games",
                s.worlds
            ))
        ),
    };
    let pct = |n: u64| 100.0 * n as f64 / s.games.max(1) as f64;
    let _ = writeln!(t, "games                     {} ({seeds})", s.games);
    let _ = writeln!(
        t,
        "wins                      {} ({:.1}% ± {:.1}%)",
        s.wins,
        100.0 * s.win_rate,
        100.0 * s.win_rate_error
    );
    let losses = s.totals.losses();
    let _ = writeln!(
        t,
        "losses                    {losses} ({:.1}%)",
        pct(losses)
    );
    for (name, n) in &s.endings {
        let ending = wumpus::game::Ending::parse(name);
        if ending.is_some_and(|e| e.is_loss()) {
            let _ = writeln!(t, "  {:<23} {n} ({:.1}%)", name.replace('_', " "), pct(*n));
        }
    }
    for (name, n) in &s.endings {
        let label = match name.as_str() {
            "climbed_out" => "climbed out without gold",
            "unfinished" => "unfinished (cut off)",
            _ => continue,
        };
        let _ = writeln!(t, "{label:<25} {n} ({:.1}%)", pct(*n));
    }
    if let Some(m) = s.mean_score {
        match s.mean_score_error {
            Some(e) => {
                let _ = writeln!(t, "mean score                {m:.2} ± {e:.2}");
            }
            None => {
                let _ = writeln!(t, "mean score                {m:.2}");
            }
        }
    }
    let _ = writeln!(t, "mean moves                {:.2}", s.mean_moves);
    let shots = facts.shot[1];
    let _ = writeln!(
        t,
        "{shots:<25} {:.2} a game, {:.2} a won game",
        s.mean_shots, s.shots_per_win
    );
    if let Some(best) = s.best_win_rate() {
        // Where the game's exact value is known, the batch is measured against it: a player
        // playing for the score climbs out rather than risk death, and wins less than one
        // playing only to win.
        let _ = match s.best_mean_score() {
            Some(BestScore::Exact(_)) => writeln!(
                t,
                "best possible win rate    {:.2}% for a player playing only to win (exact; the agent plays for the score, measured below)",
                100.0 * best
            ),
            _ => writeln!(
                t,
                "best possible win rate    {:.2}% for any player (exact; this batch is {})",
                100.0 * best,
                sampling_gap(s.win_rate - best, s.win_rate_error)
            ),
        };
    }
    if let (Some(best), Some(mean)) = (s.best_mean_score(), s.mean_score) {
        let gap = sampling_gap(mean - best.value(), s.mean_score_error.unwrap_or(0.0));
        let _ = match best {
            BestScore::Exact(best) => writeln!(
                t,
                "best possible mean score  {best:.2} for any player (exact value of the game in this setting; this batch is {gap})",
            ),
            BestScore::AtMost(best) => writeln!(
                t,
                "best possible mean score  at most {best:.2} for any player on this deal (an upper bound, examples/tournament_bound.rs; this batch is {gap})",
            ),
        };
    }
    if let (Some(c), Some(w)) = (s.ceiling, s.wins_of_ceiling) {
        let _ = writeln!(
            t,
            "all-seeing ceiling        {:.1}% (worlds a player who sees the map could win)",
            100.0 * c
        );
        let _ = writeln!(t, "wins of that ceiling      {:.1}%", 100.0 * w);
    }
    if s.solver_calls_per_game > 0.0 {
        let _ = writeln!(
            t,
            "solver calls a game       {:.1}",
            s.solver_calls_per_game
        );
    }
    let _ = writeln!(t, "mean decision time        {:.1} us", s.mean_decision_us);
    let _ = writeln!(
        t,
        "time                      {:.3} s on {} {}",
        s.seconds,
        s.threads,
        plural(s.threads as u64, "thread", "threads")
    );
    let _ = writeln!(t, "games per second          {:.0}", s.games_per_second);
    t
}

/// How far a batch's figure lies from the exact one, in words (one game has no error).
fn sampling_gap(diff: f64, error: f64) -> String {
    let gap = diff / error;
    if error.is_nan() || error <= 0.0 {
        "too small a sample to compare".to_string()
    } else if gap.abs() <= 2.0 {
        "within sampling error of it".to_string()
    } else {
        format!(
            "{:.1} standard errors {}",
            gap.abs(),
            if gap > 0.0 { "above" } else { "below" }
        )
    }
}

/// A summary's game in words: `5x5, pit probability 0.2, standard scoring`, and the files a
/// batch over files played.
fn setup_words(s: &Summary) -> String {
    let mut words = match s.files {
        Some(_) => s.game.words_over_files(),
        None => s.game.words(),
    };
    if let Some(files) = &s.files {
        let on = format!("on {}", crate::cli::printable(files));
        words = if words.is_empty() {
            on
        } else {
            format!("{on}, {words}")
        };
    }
    words
}
