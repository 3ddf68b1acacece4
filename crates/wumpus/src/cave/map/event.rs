//! The event host's map format (`worlds/cave-*.txt`): the warning distance, the room count,
//! a line `id out1 out2 out3` a room (1-based), then optionally a line `id x y` a room giving
//! its drawing position.
//!
//! A parser only: it takes text, never a file, and must never build a map but through
//! `CaveMap::new`.

use super::parse::{at, content_lines, index_of, number, one_number, record_room, room_count};
use super::{CaveMap, MapError, MapErrorKind, MapFormat, TUNNELS};

/// Parses the event host's format.
pub fn parse_event_map(text: &str) -> Result<CaveMap, MapError> {
    const FORM: &str = "id out1 out2 out3";
    let mut lines = content_lines(text);
    let (l, t) = lines.next().ok_or(MapError {
        line: None,
        kind: MapErrorKind::Empty,
    })?;
    let distance = one_number(l, t, "the warning distance")?;
    let Some((count_line, count_text)) = lines.next() else {
        // One number alone is a room count with no rooms after it (the warning distance, a
        // line before it, is a detail a map this short cannot be about): say what is wrong
        // with that count, or that its rooms are missing.
        let count = room_count(l, t)?;
        return Err(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found: 0, count },
        });
    };
    let distance = u32::try_from(distance).map_err(|_| {
        at(
            l,
            MapErrorKind::NotANumber {
                what: "the warning distance",
                found: t.to_string(),
            },
        )
    })?;
    if distance == 0 {
        return Err(at(l, MapErrorKind::ZeroWarningDistance));
    }
    let count = room_count(count_line, count_text)?;
    let mut rooms = vec![None; count];
    for found in 0..count {
        let (l, t) = lines.next().ok_or(MapError {
            line: None,
            kind: MapErrorKind::MissingRooms { found, count },
        })?;
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() != 4 {
            return Err(at(
                l,
                MapErrorKind::RoomFields {
                    form: FORM,
                    found: words.len(),
                },
            ));
        }
        let mut numbers = [0; 4];
        for (n, w) in numbers.iter_mut().zip(&words) {
            *n = number(l, w, "a room number")?;
        }
        record_room(l, numbers, 1, &mut rooms)?;
    }
    let mut positions: Vec<Option<(f64, f64)>> = vec![None; count];
    let mut position_lines = vec![0usize; count];
    let mut found = 0;
    while found < count {
        let Some((l, t)) = lines.next() else {
            if found == 0 {
                break; // no drawing positions: allowed
            }
            return Err(MapError {
                line: None,
                kind: MapErrorKind::MissingPositions { found, count },
            });
        };
        let words: Vec<&str> = t.split_whitespace().collect();
        if words.len() != 3 {
            return Err(at(l, MapErrorKind::PositionFields(words.len())));
        }
        let id = index_of(l, number(l, words[0], "a room number")?, 1, count)?;
        if position_lines[id] != 0 {
            return Err(at(
                l,
                MapErrorKind::DuplicatePosition {
                    room: id + 1,
                    first_line: position_lines[id],
                },
            ));
        }
        let coordinate = |w: &str| {
            w.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(l, MapErrorKind::BadPosition(w.to_string())))
        };
        positions[id] = Some((coordinate(words[1])?, coordinate(words[2])?));
        position_lines[id] = l;
        found += 1;
    }
    if let Some((l, _)) = lines.next() {
        return Err(at(l, MapErrorKind::ExtraLine("room position")));
    }
    let tunnels: Vec<[usize; TUNNELS]> = rooms
        .into_iter()
        .map(|r| r.expect("every room listed").0)
        .collect();
    let positions = if found == 0 { Vec::new() } else { positions };
    CaveMap::new(&tunnels, MapFormat::Event, distance, Vec::new(), positions)
        .map_err(|kind| MapError { line: None, kind })
}
