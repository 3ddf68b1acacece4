//! Words for people, written once for every rule set: a step of a trace, a hint, what the
//! player's percepts prove (drawn as a map on a grid), a CSV row; a batch summary's table is
//! in [`summary`].

pub mod summary;
pub use summary::summary_text;

use wumpus::game::Board;
use wumpus::run::event::{ChoiceView, OddsView};
use wumpus::run::{GameRecord, Label, StepEvent};

/// A chance as a percentage for people: `37%`, `<1%`, `0%`, `100%`.
pub fn percent(p: f64) -> String {
    wumpus::run::event::percent(p)
}

fn list<T: std::ops::Deref<Target = str>>(items: &[T]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.iter().map(|i| &**i).collect::<Vec<&str>>().join(", ")
    }
}

/// One step of a trace: what was perceived and said, what was proven and why, the odds and
/// choices, the action and why.
pub fn step_text(e: &StepEvent) -> String {
    let mut s = String::new();
    let percepts: Vec<&str> = e.percepts.iter().map(|p| p.name()).collect();
    s.push_str(&format!(
        "\nStep {} at {}{}: {}\n",
        e.step,
        e.at.as_deref().unwrap_or("?"),
        e.facing
            .as_deref()
            .map_or(String::new(), |f| format!(" facing {f}")),
        if percepts.is_empty() {
            "nothing".to_string()
        } else {
            percepts.join(", ")
        }
    ));
    if !e.messages.is_empty() {
        s.push_str(&format!("  the game said: {}\n", e.messages.join(" ")));
    }
    s.push_str(&status_line(e));
    s.push_str(&whereabouts_text(e, "where am I"));
    for p in &e.learned {
        if p.because.is_empty() {
            s.push_str(&format!("  proved {} {}\n", p.place, p.fact));
        } else {
            s.push_str(&format!(
                "  proved {} {}: {}\n",
                p.place,
                p.fact,
                p.because.join("; ")
            ));
        }
    }
    for way in &e.proven_ways {
        s.push_str(&format!("  proven: {way}\n"));
    }
    s.push_str(&odds_text(&e.odds, "  odds"));
    s.push_str(&choices_text(&e.choices, e.depth));
    s.push_str(&format!("  action: {}\n  why: {}\n", e.action, e.reason));
    s
}

/// Where the player may be, with the chance of each, when it is not certain (the maze).
fn whereabouts_text(e: &StepEvent, head: &str) -> String {
    if e.whereabouts.len() <= 1 {
        return String::new();
    }
    let w: Vec<String> = e
        .whereabouts
        .iter()
        .map(|w| format!("{} {}", w.place, percent(w.chance)))
        .collect();
    format!("  {head}: {}\n", w.join(", "))
}

/// Arrows, moves and the ways on, in one line.
fn status_line(e: &StepEvent) -> String {
    let mut parts = Vec::new();
    if !e.exits.is_empty() {
        let ways: Vec<String> = e
            .exits
            .iter()
            .map(|x| format!("{} to {}", x.tunnel, x.to.as_deref().unwrap_or("?")))
            .collect();
        let mut w = format!("tunnels {}", ways.join(", "));
        if !e.entries.is_empty() {
            w.push_str(&format!("; in from {}", e.entries.join(", ")));
        }
        parts.push(w);
    }
    if let Some(a) = e.arrows {
        parts.push(format!("{a} {} left", plural(a as u64, "arrow", "arrows")));
    }
    parts.push(format!(
        "{} {}",
        e.moves,
        plural(e.moves as u64, "move", "moves")
    ));
    format!("  {}\n", parts.join("; "))
}

pub use wumpus::game::plural;

/// The chances of each hazard left open, most likely places first (six at most a line): a
/// hazard certain at a place whose other hazards are open is a proof, said as one.
fn odds_text(odds: &[OddsView], head: &str) -> String {
    if odds.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    let pad = " ".repeat(head.len() + 2);
    let mut first = true;
    for (name, pick) in [
        ("wumpus", (|o: &OddsView| o.wumpus) as fn(&OddsView) -> f64),
        ("pit", |o: &OddsView| o.pit),
        ("bats", |o: &OddsView| o.bats),
    ] {
        let mut places: Vec<(&str, f64)> = odds
            .iter()
            .map(|o| (o.place.as_str(), pick(o)))
            .filter(|&(_, p)| p > 0.0 && p < 1.0)
            .collect();
        if places.is_empty() {
            continue;
        }
        places.sort_by(|a, b| b.1.total_cmp(&a.1));
        let shown: Vec<String> = places
            .iter()
            .take(6)
            .map(|(p, c)| format!("{p} {}", percent(*c)))
            .collect();
        let more = if places.len() > 6 {
            format!(", and {} more", places.len() - 6)
        } else {
            String::new()
        };
        let lead = if first {
            format!("{head}: ")
        } else {
            pad.clone()
        };
        first = false;
        s.push_str(&format!("{lead}{name} {}{more}\n", shown.join(", ")));
    }
    s
}

/// The choices weighed: a table of every choice with its expected value and chances, or the
/// chances of the one taken when it is the only one the agent reports.
fn choices_text(choices: &[ChoiceView], depth: Option<u32>) -> String {
    if choices.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    if choices.len() > 1 || choices.iter().any(|c| c.expected.is_some()) {
        let valued = choices.iter().any(|c| c.expected.is_some());
        s.push_str(&format!(
            "  choices weighed{}{}:\n",
            if valued {
                " (expected final score)"
            } else {
                " (* the one taken)"
            },
            match depth {
                Some(d) if d > 1 => format!(", looking {d} steps ahead"),
                _ => String::new(),
            }
        ));
        let width = choices
            .iter()
            .map(|c| c.what.len())
            .max()
            .unwrap_or(0)
            .max(28);
        for c in choices {
            let mut line = format!(
                "    {} {:<width$}",
                if c.chosen { "*" } else { " " },
                c.what
            );
            if let (Some(p), Some(w)) = (c.pit, c.wumpus) {
                line.push_str(&format!(" pit {}  wumpus {} ", percent(p), percent(w)));
            }
            if let Some(k) = c.kill {
                line.push_str(&format!(" kill {} ", percent(k)));
            }
            if let Some(r) = c.risk {
                let what = if c.kill.is_some() {
                    "a wumpus runs in"
                } else {
                    "death"
                };
                line.push_str(&format!(" {what} {} ", percent(r)));
            }
            if let Some(v) = c.expected {
                line.push_str(&format!(
                    " expected {}{v:.1}",
                    if c.expected_is_bound { "at most " } else { "" }
                ));
            }
            s.push_str(line.trim_end());
            s.push('\n');
        }
    } else {
        for c in choices.iter().filter(|c| c.chosen) {
            if let Some(k) = c.kill {
                s.push_str(&format!("  chance of a kill: {}\n", percent(k)));
            }
            if let Some(r) = c.risk {
                s.push_str(&format!("  chance of dying: {}\n", percent(r)));
            }
        }
    }
    s
}

/// What a hint says: the agent's next action and why, the choices it weighed, and what the
/// player's percepts prove, drawn on `board`.
pub fn hint_text(e: &StepEvent, board: &Board, colour: bool) -> String {
    let mut s = format!("Hint: {} -- {}.\n", e.action, e.reason);
    if e.route.len() > 2 {
        let walk: Vec<&str> = e.route.iter().map(|p| &**p).collect();
        s.push_str(&format!("  the walk: {}\n", walk.join(" -> ")));
    }
    s.push_str(&choices_text(&e.choices, e.depth));
    s.push_str(&whereabouts_text(e, "you may be in"));
    s.push_str("What your percepts prove so far:\n");
    if board.shape == "grid" {
        let map = knowledge_map(e, board);
        s.push_str(&if colour { colour_map(&map) } else { map });
    } else if !e.proven_ways.is_empty() {
        // An agent without the map knows the ways on, not the places.
        for way in &e.proven_ways {
            s.push_str(&format!("  {way}\n"));
        }
    } else {
        s.push_str(&format!(
            "  proven safe (no pit, no wumpus, no bats): {}\n",
            list(&e.proven_safe)
        ));
        s.push_str(&format!(
            "  proven pits: {}; bats: {}; a live wumpus: {}\n",
            list(&e.proven_pit),
            list(&e.proven_bats),
            list(&e.proven_wumpus)
        ));
        s.push_str(&odds_text(&e.odds, "  odds (not proven)"));
    }
    s.trim_end().to_string()
}

/// The knowledge of a step drawn as a grid, north at the top: `@` the player, `v` visited,
/// `s` proven safe, `P` proven pit, `W` proven wumpus, `?` unknown.
pub fn knowledge_map(e: &StepEvent, board: &Board) -> String {
    let (rows, cols) = (board.rows.unwrap_or(0), board.cols.unwrap_or(0));
    let has = |set: &[Label], label: &str| set.iter().any(|p| &**p == label);
    let mut out = String::new();
    for row in (0..rows).rev() {
        out.push_str(&format!("{row:>4} "));
        for col in 0..cols {
            let label = format!("{row},{col}");
            let mark = if e.at.as_deref() == Some(label.as_str()) {
                '@'
            } else if has(&e.visited, &label) {
                'v'
            } else if has(&e.proven_safe, &label) {
                's'
            } else if has(&e.proven_pit, &label) {
                'P'
            } else if has(&e.proven_wumpus, &label) {
                'W'
            } else {
                '?'
            };
            out.push_str(&format!(" {mark} "));
        }
        out.push('\n');
    }
    out.push_str("     ");
    for col in 0..cols {
        out.push_str(&format!("{:^3}", col % 1000));
    }
    out.push_str(
        "\n(rows go north, columns east; @ you, v visited, s proven safe, P proven pit, \
         W proven wumpus, ? unknown)\n",
    );
    out
}

/// The knowledge map with its marks in colour (ANSI): the player bold, visited dim, safe
/// green, pits red, the wumpus bold magenta, unknown yellow. Labels and the legend stay plain.
pub fn colour_map(map: &str) -> String {
    let lines: Vec<&str> = map.lines().collect();
    let rows = lines.len().saturating_sub(2);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i < rows && line.len() > 5 {
            let (label, cells) = line.split_at(5);
            out.push_str(label);
            for ch in cells.chars() {
                let code = match ch {
                    '@' => "1",
                    'v' => "2",
                    's' => "32",
                    'P' => "31",
                    'W' => "1;35",
                    '?' => "33",
                    _ => "",
                };
                if code.is_empty() {
                    out.push(ch);
                } else {
                    out.push_str(&format!("\x1b[{code}m{ch}\x1b[0m"));
                }
            }
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The header of a per-game CSV file, the same for every rule set.
pub const CSV_HEADER: &str = "seed,outcome,score,moves,shots";

/// The CSV header of a batch over files: the file first.
pub const CSV_HEADER_FILES: &str = "file,seed,outcome,score,moves,shots";

/// A game's CSV row (the score is empty where the rule set keeps none), its file first in a
/// batch over files (quoted as CSV quotes a field when it holds a comma or a quote).
pub fn csv_row(r: &GameRecord) -> String {
    let file = r.file.as_deref().map(|f| {
        // A name's control characters are escaped: a row never moves a terminal's cursor.
        let f = super::printable(f);
        if f.contains([',', '"', '\n', '\r']) {
            format!("\"{}\",", f.replace('"', "\"\""))
        } else {
            format!("{f},")
        }
    });
    format!(
        "{}{},{},{},{},{}",
        file.unwrap_or_default(),
        r.seed.map_or(String::new(), |s| s.to_string()),
        r.ending.name(),
        r.score.map_or(String::new(), |s| s.to_string()),
        r.moves,
        r.shots
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_touches_the_marks_only() {
        let map = "   1  ?  s \n   0  @  P \n     0  1 \n(@ you, ? unknown)\n";
        let coloured = colour_map(map);
        assert!(coloured.contains("\x1b[33m?\x1b[0m"));
        assert!(coloured.contains("\x1b[1m@\x1b[0m"));
        assert!(coloured.contains("\x1b[31mP\x1b[0m"));
        assert!(coloured.ends_with("     0  1 \n(@ you, ? unknown)\n"));
        let plain: String = coloured
            .split('\x1b')
            .map(|part| part.split_once('m').map_or(part, |(_, rest)| rest))
            .collect();
        assert_eq!(plain, map);
    }
}
