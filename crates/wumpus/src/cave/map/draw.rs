//! A map drawn as text for `world show`: a line a room with its tunnels, one-way tunnels and
//! tunnels to the room itself marked, then, when the map has drawing positions, a plot.
//!
//! Drawing only reads the map; it must never change it, and the library never prints it (the
//! command line does).

use super::{CaveMap, MapFormat};
use std::fmt::Write as _;

/// What to mark on a drawing of a map: for each room, short tags such as `wumpus` or `pit`.
pub type RoomTags = Vec<Vec<&'static str>>;

/// Draws a map as text: a line a room with its tunnels (one-way tunnels and tunnels to the room
/// itself marked, one-way entrances listed), the room's tags when given, then, when the map has
/// drawing positions, a plot of the room numbers at their positions.
pub fn draw_map(map: &CaveMap, tags: Option<&RoomTags>) -> String {
    let mut out = String::new();
    let first = map.first_number();
    let _ = writeln!(
        out,
        "{}: {} rooms, numbered {} to {}, warning distance {}",
        map.format().name(),
        map.len(),
        first,
        map.len() - 1 + first,
        map.warning_distance()
    );
    let width = (map.len() - 1 + first).to_string().len();
    for room in map.rooms() {
        let label = map.label(room);
        let mut line = format!("{label:>width$}");
        if map.format() == MapFormat::CavesDat {
            let _ = write!(line, " {}", map.name(room));
        }
        line.push_str(": to");
        for (i, &to) in map.outs(room).iter().enumerate() {
            let _ = write!(line, "{} {}", if i == 0 { "" } else { "," }, map.label(to));
            if to == room {
                line.push_str(" (itself)");
            } else if !map.outs(to).contains(&room) {
                line.push_str(" (one-way)");
            }
        }
        let mut one_way_in: Vec<usize> = map
            .ins(room)
            .iter()
            .filter(|&&from| !map.outs(room).contains(&from))
            .map(|&from| map.label(from))
            .collect();
        one_way_in.dedup();
        if !one_way_in.is_empty() {
            let list: Vec<String> = one_way_in.iter().map(usize::to_string).collect();
            let _ = write!(line, "; one-way in from {}", list.join(", "));
        }
        if let Some(tags) = tags {
            if !tags[room.index()].is_empty() {
                let _ = write!(line, "  [{}]", tags[room.index()].join(", "));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    if map.rooms().all(|r| map.position(r).is_some()) {
        out.push('\n');
        out.push_str(&plot(map, tags));
    }
    out
}

/// Plots room numbers at their drawing positions on a character canvas; a tagged room shows the
/// first letter of each tag after its number (`7W`).
fn plot(map: &CaveMap, tags: Option<&RoomTags>) -> String {
    const COLS: usize = 64;
    const ROWS: usize = 22;
    let points: Vec<(f64, f64)> = map.rooms().filter_map(|r| map.position(r)).collect();
    let (min_x, max_x) = bounds(points.iter().map(|p| p.0));
    let (min_y, max_y) = bounds(points.iter().map(|p| p.1));
    let mut canvas = vec![vec![' '; COLS + 4]; ROWS + 1];
    for room in map.rooms() {
        let (x, y) = map.position(room).expect("checked");
        let col = ((x - min_x) / (max_x - min_x) * COLS as f64).round() as usize;
        let row = ((y - min_y) / (max_y - min_y) * ROWS as f64).round() as usize;
        let mut text = map.label(room).to_string();
        if let Some(tags) = tags {
            for tag in &tags[room.index()] {
                text.push(tag.chars().next().unwrap_or('?').to_ascii_uppercase());
            }
        }
        let start = col.saturating_sub(text.len() / 2);
        for (i, ch) in text.chars().enumerate() {
            if let Some(cell) = canvas[row.min(ROWS)].get_mut(start + i) {
                *cell = ch;
            }
        }
    }
    let mut out = String::new();
    for row in canvas {
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if hi - lo < 1e-9 {
        (lo - 0.5, lo + 0.5)
    } else {
        (lo, hi)
    }
}
