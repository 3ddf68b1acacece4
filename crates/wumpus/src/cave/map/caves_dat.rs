//! Seed 000's `caves.dat` format (`worlds/caves.dat`): the count, then a line
//! `id a1 a2 a3 name` a cave (0-based), where the name may run straight on from the last
//! number (`0 1 4 9The Fountainhead`).
//!
//! A parser only: it takes text, never a file, and must never build a map but through
//! `CaveMap::new`.

use super::parse::{at, content_lines, number, record_room, room_count};
use super::{CaveMap, MapError, MapErrorKind, MapFormat, TUNNELS};

/// Splits a `caves.dat` line into its four numbers and its name. The fourth number may run
/// straight into the name (`0 1 4 9The Fountainhead`).
fn split_cave_line(line: usize, text: &str) -> Result<([usize; 4], &str), MapError> {
    const FORM: &str = "id a1 a2 a3 name";
    let mut numbers = [0; 4];
    let mut rest = text;
    for (i, slot) in numbers.iter_mut().enumerate() {
        rest = rest.trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if digits == 0 {
            if rest.is_empty() {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i,
                    },
                ));
            }
            // A word where a number belongs: a short line ("2 4 7The Hall of Kings") or a typo.
            let word = &rest[..word_end];
            if word.chars().next().is_some_and(|c| c.is_alphabetic()) {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i,
                    },
                ));
            }
            return Err(at(
                line,
                MapErrorKind::NotANumber {
                    what: "a cave number",
                    found: word.to_string(),
                },
            ));
        }
        // Only the last number may run into the name; a number running into a word earlier
        // means the line is short of numbers ("2 4 7The Hall of Kings").
        if i < 3 && digits != word_end {
            if rest[digits..].starts_with(char::is_alphabetic) {
                return Err(at(
                    line,
                    MapErrorKind::RoomFields {
                        form: FORM,
                        found: i + 1,
                    },
                ));
            }
            return Err(at(
                line,
                MapErrorKind::NotANumber {
                    what: "a cave number",
                    found: rest[..word_end].to_string(),
                },
            ));
        }
        *slot = number(line, &rest[..digits], "a cave number")?;
        rest = &rest[digits..];
    }
    Ok((numbers, rest.trim()))
}

/// Parses seed 000's `caves.dat` format.
pub fn parse_caves_dat(text: &str) -> Result<CaveMap, MapError> {
    let mut lines = content_lines(text);
    let (l, t) = lines.next().ok_or(MapError {
        line: None,
        kind: MapErrorKind::Empty,
    })?;
    let count = room_count(l, t)?;
    let mut rooms = vec![None; count];
    let mut names = vec![None; count];
    for found in 0..count {
        let (l, t) = lines.next().ok_or(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found, count },
        })?;
        let (numbers, name) = split_cave_line(l, t)?;
        let id = record_room(l, numbers, 0, &mut rooms)?;
        if name.is_empty() {
            return Err(at(l, MapErrorKind::MissingName(numbers[0])));
        }
        names[id] = Some(name.to_string());
    }
    if let Some((l, _)) = lines.next() {
        return Err(at(l, MapErrorKind::ExtraLine("cave")));
    }
    let tunnels: Vec<[usize; TUNNELS]> = rooms
        .into_iter()
        .map(|r| r.expect("every room listed").0)
        .collect();
    CaveMap::new(&tunnels, MapFormat::CavesDat, 1, names, Vec::new())
        .map_err(|kind| MapError { line: None, kind })
}
