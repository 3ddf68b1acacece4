//! Writing a map back in the format it was read from.
//!
//! What it writes, `parse_map` reads back to the same map; it must never write a map in a
//! form its own parser refuses.

use super::{CaveMap, MapFormat};
use std::fmt::Write as _;

/// Writes a map in the format it was read from; [`parse_map`](super::parse_map) reads it back
/// unchanged.
pub fn format_map(map: &CaveMap) -> String {
    let mut out = String::new();
    let first = map.first_number();
    match map.format() {
        MapFormat::Event => {
            let _ = writeln!(out, "{}", map.warning_distance());
            let _ = writeln!(out, "{}", map.len());
            for room in map.rooms() {
                let [a, b, c] = map.outs(room).map(|p| p.index() + first);
                let _ = writeln!(out, "{} {a} {b} {c}", map.label(room));
            }
            if map.rooms().all(|r| map.position(r).is_some()) {
                for room in map.rooms() {
                    let (x, y) = map.position(room).expect("checked");
                    let _ = writeln!(out, "{} {x} {y}", map.label(room));
                }
            }
        }
        MapFormat::CavesDat => {
            let _ = writeln!(out, "{}", map.len());
            for room in map.rooms() {
                let [a, b, c] = map.outs(room).map(|p| p.index() + first);
                let _ = writeln!(out, "{} {a} {b} {c} {}", map.label(room), map.name(room));
            }
        }
    }
    out
}
