//! The hazard file format: where a cave's hunter, wumpus (or wumpi), pits and bats start,
//! read with line-numbered errors and written back.
//!
//! The format (`docs/caves.md`): one item a line, `#` comments, keywords in any case,
//! rooms numbered as the map numbers them:
//!
//! ```text
//! # a classic cave's hazards (5 arrows, the hunter starts in room 1)
//! ROOMS 20
//! HUNTER 1
//! WUMPUS 14
//! PIT 3
//! PIT 17
//! BATS 8
//! BATS 19
//! ```
//!
//! `PLAYER` is another name for `HUNTER`. A maze file may give several `WUMPUS` lines and a
//! `GRENADES n` line (4 a wumpus when absent). `ROOMS n` is optional; when present it must match
//! the map, so a file saved for one cave is not played by mistake on another.
//!
//! A parser only: it takes text and a map, never a file, and must never build a layout but
//! through the layouts' own constructors, which check it.

use super::super::map::CaveMap;
use super::{ClassicHazards, HazardError, MazeHazards, ARROWS, GRENADES_PER_WUMPUS};
use crate::files::{quoted, LineError};
use crate::topology::Place;
use std::fmt::Write as _;

/// What is wrong with a hazard file, and on which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct HazardFileError {
    /// The 1-based line, or `None` when the fault is the file as a whole.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: HazardFileErrorKind,
}

impl LineError for HazardFileError {
    fn line(&self) -> Option<usize> {
        self.line
    }
}

/// The ways a hazard file can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HazardFileErrorKind {
    /// The first word is not a keyword.
    #[error(
        "unknown keyword {} (expected HUNTER, WUMPUS, PIT, BATS, GRENADES or ROOMS)",
        quoted(.0)
    )]
    UnknownKeyword(String),
    /// Not exactly one value after the keyword.
    #[error("{keyword} takes one number, found {found} values")]
    ArgumentCount {
        /// The keyword.
        keyword: &'static str,
        /// How many values were there.
        found: usize,
    },
    /// A value that is not a whole number.
    #[error("{} is not a whole number", quoted(.0))]
    NotANumber(String),
    /// A room the map does not have.
    #[error("no room {room} on this map: rooms are numbered {first} to {last}")]
    UnknownRoom {
        /// The number given.
        room: usize,
        /// The first room's number.
        first: usize,
        /// The last room's number.
        last: usize,
    },
    /// `ROOMS` disagrees with the map.
    #[error("the file is for a cave of {file} rooms, but this map has {map}")]
    RoomCount {
        /// The file's count.
        file: usize,
        /// The map's count.
        map: usize,
    },
    /// A keyword given twice that may appear once.
    #[error("second {keyword} line (the first is on line {first_line})")]
    Second {
        /// The keyword.
        keyword: &'static str,
        /// The line of the first.
        first_line: usize,
    },
    /// A keyword that must appear is missing.
    #[error("no {0} line")]
    Missing(&'static str),
    /// `GRENADES` in a classic cave's file.
    #[error("GRENADES is for the maze; the classic cave's hunter has {arrows} arrows", arrows = ARROWS)]
    GrenadesInClassic,
    /// The layout breaks a rule.
    #[error(transparent)]
    Layout(#[from] HazardError),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Key {
    Rooms,
    Hunter,
    Wumpus,
    Pit,
    Bats,
    Grenades,
}

impl Key {
    fn name(self) -> &'static str {
        match self {
            Key::Rooms => "ROOMS",
            Key::Hunter => "HUNTER",
            Key::Wumpus => "WUMPUS",
            Key::Pit => "PIT",
            Key::Bats => "BATS",
            Key::Grenades => "GRENADES",
        }
    }

    fn thing(self) -> &'static str {
        match self {
            Key::Hunter => "the hunter",
            Key::Wumpus => "a wumpus",
            Key::Pit => "a pit",
            Key::Bats => "bats",
            Key::Rooms | Key::Grenades => "",
        }
    }
}

/// The loose lines of a hazard file: each keyword's values with their lines.
struct Loose {
    items: Vec<(Key, usize, usize)>,
}

fn err(line: usize, kind: HazardFileErrorKind) -> HazardFileError {
    HazardFileError {
        line: Some(line),
        kind,
    }
}

impl Loose {
    fn read(text: &str, map: &CaveMap, classic: bool) -> Result<Loose, HazardFileError> {
        let mut items: Vec<(Key, usize, usize)> = Vec::new();
        let mut holder: Vec<Option<(Key, usize)>> = vec![None; map.len()];
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("");
            let words: Vec<&str> = content.split_whitespace().collect();
            let Some((&word, args)) = words.split_first() else {
                continue;
            };
            let key = match word.to_ascii_uppercase().as_str() {
                "ROOMS" => Key::Rooms,
                "HUNTER" | "PLAYER" => Key::Hunter,
                "WUMPUS" => Key::Wumpus,
                "PIT" => Key::Pit,
                "BATS" => Key::Bats,
                "GRENADES" => Key::Grenades,
                _ => return Err(err(line, HazardFileErrorKind::UnknownKeyword(word.into()))),
            };
            if args.len() != 1 {
                return Err(err(
                    line,
                    HazardFileErrorKind::ArgumentCount {
                        keyword: key.name(),
                        found: args.len(),
                    },
                ));
            }
            let value: usize = args[0]
                .parse()
                .map_err(|_| err(line, HazardFileErrorKind::NotANumber(args[0].into())))?;
            let once = matches!(key, Key::Rooms | Key::Hunter | Key::Grenades)
                || (classic && key == Key::Wumpus);
            if once {
                if let Some(&(_, _, first_line)) = items.iter().find(|(k, _, _)| *k == key) {
                    return Err(err(
                        line,
                        HazardFileErrorKind::Second {
                            keyword: key.name(),
                            first_line,
                        },
                    ));
                }
            }
            match key {
                Key::Rooms if value != map.len() => {
                    return Err(err(
                        line,
                        HazardFileErrorKind::RoomCount {
                            file: value,
                            map: map.len(),
                        },
                    ))
                }
                Key::Grenades if classic => {
                    return Err(err(line, HazardFileErrorKind::GrenadesInClassic))
                }
                Key::Grenades if value == 0 => {
                    return Err(err(line, HazardError::NoGrenades.into()))
                }
                Key::Hunter | Key::Wumpus | Key::Pit | Key::Bats => {
                    let room = map.room(value).ok_or_else(|| {
                        err(
                            line,
                            HazardFileErrorKind::UnknownRoom {
                                room: value,
                                first: map.first_number(),
                                last: map.len() - 1 + map.first_number(),
                            },
                        )
                    })?;
                    if let Some((first, _)) = holder[room.index()] {
                        return Err(err(
                            line,
                            HazardError::Shared {
                                room: value,
                                first: first.thing(),
                                second: key.thing(),
                            }
                            .into(),
                        ));
                    }
                    holder[room.index()] = Some((key, line));
                    items.push((key, room.index(), line));
                    continue;
                }
                _ => {}
            }
            items.push((key, value, line));
        }
        Ok(Loose { items })
    }

    fn rooms(&self, key: Key) -> Vec<Place> {
        self.items
            .iter()
            .filter(|(k, _, _)| *k == key)
            .map(|&(_, v, _)| Place::new(v))
            .collect()
    }

    fn one(&self, key: Key) -> Result<usize, HazardFileError> {
        self.items
            .iter()
            .find(|(k, _, _)| *k == key)
            .map(|&(_, v, _)| v)
            .ok_or(HazardFileError {
                line: None,
                kind: HazardFileErrorKind::Missing(key.name()),
            })
    }
}

fn whole(e: HazardError) -> HazardFileError {
    HazardFileError {
        line: None,
        kind: e.into(),
    }
}

/// Reads a classic cave's hazard file for `map`: one `HUNTER`, one `WUMPUS`, any `PIT` and
/// `BATS` lines, optional `ROOMS`.
pub fn parse_classic_hazards(text: &str, map: &CaveMap) -> Result<ClassicHazards, HazardFileError> {
    let loose = Loose::read(text, map, true)?;
    let hunter = Place::new(loose.one(Key::Hunter)?);
    let wumpus = Place::new(loose.one(Key::Wumpus)?);
    ClassicHazards::new(
        map,
        hunter,
        wumpus,
        &loose.rooms(Key::Pit),
        &loose.rooms(Key::Bats),
    )
    .map_err(whole)
}

/// Reads a maze's hazard file for `map`: one `HUNTER` (or `PLAYER`), one or more `WUMPUS`, any
/// `PIT` and `BATS` lines, optional `GRENADES` (4 a wumpus when absent) and `ROOMS`.
pub fn parse_maze_hazards(text: &str, map: &CaveMap) -> Result<MazeHazards, HazardFileError> {
    let loose = Loose::read(text, map, false)?;
    let player = Place::new(loose.one(Key::Hunter)?);
    let wumpi = loose.rooms(Key::Wumpus);
    if wumpi.is_empty() {
        return Err(HazardFileError {
            line: None,
            kind: HazardFileErrorKind::Missing("WUMPUS"),
        });
    }
    let grenades = match loose.one(Key::Grenades) {
        Ok(n) => u32::try_from(n).unwrap_or(u32::MAX),
        Err(_) => GRENADES_PER_WUMPUS * wumpi.len() as u32,
    };
    MazeHazards::new(
        map,
        player,
        &wumpi,
        &loose.rooms(Key::Pit),
        &loose.rooms(Key::Bats),
        grenades,
    )
    .map_err(whole)
}

/// Writes a classic layout as a hazard file.
pub fn format_classic_hazards(h: &ClassicHazards, map: &CaveMap) -> String {
    let mut out = String::from("# classic cave hazards\n");
    let _ = writeln!(out, "ROOMS {}", map.len());
    let _ = writeln!(out, "HUNTER {}", map.label(h.hunter));
    let _ = writeln!(out, "WUMPUS {}", map.label(h.wumpus));
    for &p in &h.pits {
        let _ = writeln!(out, "PIT {}", map.label(p));
    }
    for &b in &h.bats {
        let _ = writeln!(out, "BATS {}", map.label(b));
    }
    out
}

/// Writes a maze layout as a hazard file.
pub fn format_maze_hazards(h: &MazeHazards, map: &CaveMap) -> String {
    let mut out = String::from("# maze hazards\n");
    let _ = writeln!(out, "ROOMS {}", map.len());
    let _ = writeln!(out, "PLAYER {}", map.label(h.player));
    for &w in &h.wumpi {
        let _ = writeln!(out, "WUMPUS {}", map.label(w));
    }
    for &p in &h.pits {
        let _ = writeln!(out, "PIT {}", map.label(p));
    }
    for &b in &h.bats {
        let _ = writeln!(out, "BATS {}", map.label(b));
    }
    let _ = writeln!(out, "GRENADES {}", h.grenades);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;
    use crate::rng::seeded;

    fn standard() -> CaveMap {
        parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap()
    }

    fn caves() -> CaveMap {
        parse_map(include_str!("../../../../../worlds/caves.dat")).unwrap()
    }

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    #[test]
    fn hazard_files_round_trip() {
        let map = standard();
        for seed in 0..50 {
            let h = ClassicHazards::deal(&map, &mut seeded(seed)).unwrap();
            let text = format_classic_hazards(&h, &map);
            assert_eq!(parse_classic_hazards(&text, &map).unwrap(), h);
        }
        let map = caves();
        for seed in 0..50 {
            let h = MazeHazards::deal(&map, &mut seeded(seed)).unwrap();
            let text = format_maze_hazards(&h, &map);
            assert_eq!(parse_maze_hazards(&text, &map).unwrap(), h);
        }
    }

    #[test]
    fn hazard_files_use_the_maps_numbers() {
        let text = "hunter 1 # the first room\nWumpus 20\nPIT 2\n";
        let h = parse_classic_hazards(text, &standard()).unwrap();
        assert_eq!(
            (h.hunter(), h.wumpus(), h.pits()),
            (p(0), p(19), &[p(1)][..])
        );
        assert!(h.bats().is_empty());
        let h = parse_maze_hazards("PLAYER 0\nWUMPUS 19\nWUMPUS 5\n", &caves()).unwrap();
        assert_eq!(
            (h.player(), h.wumpi(), h.grenades()),
            (p(0), &[p(19), p(5)][..], 8)
        );
    }

    proptest::proptest! {
        #[test]
        fn parsing_any_hazard_text_never_panics(text in "[0-9 A-Za-z#\n]{0,120}") {
            let _ = parse_classic_hazards(&text, &standard());
            let _ = parse_maze_hazards(&text, &caves());
        }
    }

    #[test]
    fn hazard_file_errors_name_their_lines() {
        use HazardFileErrorKind as K;
        let map = standard();
        let kind = |text: &str| {
            let e = parse_classic_hazards(text, &map).unwrap_err();
            (e.line, e.kind)
        };
        assert!(matches!(kind("GOLD 1\n"), (Some(1), K::UnknownKeyword(_))));
        assert!(matches!(
            kind("HUNTER\n"),
            (Some(1), K::ArgumentCount { found: 0, .. })
        ));
        assert!(matches!(kind("HUNTER x\n"), (Some(1), K::NotANumber(_))));
        assert!(matches!(
            kind("HUNTER 0\n"),
            (Some(1), K::UnknownRoom { room: 0, .. })
        ));
        assert!(matches!(
            kind("HUNTER 21\n"),
            (Some(1), K::UnknownRoom { room: 21, .. })
        ));
        assert!(matches!(
            kind("ROOMS 19\n"),
            (Some(1), K::RoomCount { file: 19, map: 20 })
        ));
        assert!(matches!(
            kind("HUNTER 1\nWUMPUS 2\nWUMPUS 3\n"),
            (
                Some(3),
                K::Second {
                    keyword: "WUMPUS",
                    first_line: 2
                }
            )
        ));
        assert!(matches!(
            kind("HUNTER 1\nPIT 2\nBATS 2\n"),
            (Some(3), K::Layout(HazardError::Shared { room: 2, .. }))
        ));
        assert!(matches!(kind("HUNTER 1\n"), (None, K::Missing("WUMPUS"))));
        assert!(matches!(kind("WUMPUS 1\n"), (None, K::Missing("HUNTER"))));
        assert!(matches!(
            kind("HUNTER 1\nWUMPUS 2\nGRENADES 4\n"),
            (Some(3), K::GrenadesInClassic)
        ));
        let e = parse_maze_hazards("PLAYER 0\nWUMPUS 1\nGRENADES 0\n", &caves()).unwrap_err();
        assert_eq!(e.line, Some(3));
        let e = parse_maze_hazards("PLAYER 0\n", &caves()).unwrap_err();
        assert_eq!(e.kind, K::Missing("WUMPUS"));
    }
}
