use super::*;

pub(crate) const STANDARD: &str = include_str!("../../../../../worlds/cave-standard.txt");
const MOBIUS: &str = include_str!("../../../../../worlds/cave-mobius.txt");
const WATERSLIDE: &str = include_str!("../../../../../worlds/cave-waterslide.txt");
const RISK: &str = include_str!("../../../../../worlds/cave-risk.txt");
const CAVES_DAT: &str = include_str!("../../../../../worlds/caves.dat");

fn kind(text: &str) -> (Option<usize>, MapErrorKind) {
    let e = parse_map(text).unwrap_err();
    (e.line, e.kind)
}

fn p(i: usize) -> Place {
    Place::new(i)
}

#[test]
fn the_four_event_maps_parse() {
    for text in [STANDARD, MOBIUS, WATERSLIDE, RISK] {
        let map = parse_map(text).unwrap();
        assert_eq!(map.format(), MapFormat::Event);
        assert_eq!(map.len(), 20);
        assert_eq!(map.warning_distance(), 1);
        assert!(map.rooms().all(|r| map.position(r).is_some()));
        // Three tunnels out of every room, counted from the one graph.
        for r in map.rooms() {
            assert_eq!(map.topology().exits(r).count(), 3);
        }
    }
}

#[test]
fn standard_map_is_the_dodecahedron() {
    let map = parse_map(STANDARD).unwrap();
    assert_eq!(map.outs(p(0)), &[p(1), p(4), p(7)]);
    // Every tunnel has its way back, and every room has three distinct neighbours.
    for r in map.rooms() {
        for &to in map.outs(r) {
            assert!(map.outs(to).contains(&r));
        }
        assert_eq!(map.topology().linked(r).len(), 3);
    }
    assert_eq!(map.label(p(0)), 1);
    assert_eq!(map.room(20), Some(p(19)));
    assert_eq!(map.room(0), None);
    assert_eq!(map.room(21), None);
    assert_eq!(map.name(p(4)), "room 5");
}

#[test]
fn waterslide_has_one_way_tunnels_and_ins_follow_the_host() {
    let map = parse_map(WATERSLIDE).unwrap();
    // 17 -> 2 and 2 -> 5 have no way back; 2 lists 17 among its entrances, not 5.
    assert!(map.outs(p(16)).contains(&p(1)));
    assert!(!map.outs(p(1)).contains(&p(16)));
    assert_eq!(map.outs(p(1)), &[p(0), p(2), p(4)]);
    assert_eq!(map.ins(p(1)), &[p(0), p(2), p(16)]);
    assert!(map.joined(p(1), p(16)));
    assert!(!map.joined(p(1), p(15)));
}

#[test]
fn caves_dat_is_the_issues_corrected_listing() {
    let map = parse_map(CAVES_DAT).unwrap();
    assert_eq!(map.format(), MapFormat::CavesDat);
    assert_eq!(map.len(), 20);
    assert_eq!(map.name(p(0)), "The Fountainhead");
    assert_eq!(map.name(p(14)), "Shelob's Lair");
    assert_eq!(map.label(p(0)), 0);
    assert_eq!(map.room(0), Some(p(0)));
    for r in 15..20 {
        assert_eq!(map.name(p(r)), "The Lost Caverns of the Wyrm");
    }
    assert_eq!(map.outs(p(15)), &[p(15), p(16), p(19)]);
    assert_eq!(map.outs(p(17)), &[p(16), p(17), p(18)]);
    // The Lost Caverns: in from 14 (one-way) and 13, out only by 18 -> 13.
    let caverns = |r: Place| r.index() >= 15;
    let ways_in: Vec<(usize, usize)> = map
        .rooms()
        .filter(|&r| !caverns(r))
        .flat_map(|r| map.outs(r).iter().map(move |&to| (r, to)))
        .filter(|&(_, to)| caverns(to))
        .map(|(r, to)| (r.index(), to.index()))
        .collect();
    assert_eq!(ways_in, [(13, 18), (14, 15)]);
    let ways_out: Vec<(usize, usize)> = map
        .rooms()
        .filter(|&r| caverns(r))
        .flat_map(|r| map.outs(r).iter().map(move |&to| (r, to)))
        .filter(|&(_, to)| !caverns(to))
        .map(|(r, to)| (r.index(), to.index()))
        .collect();
    assert_eq!(ways_out, [(18, 13)]);
}

#[test]
fn caves_dat_names_may_touch_the_last_number() {
    let glued = "3\n0 1 2 0The Fountainhead\n1 0 2 1 The Rumpus Room\n2 0 1 2Ess four 2\n";
    let map = parse_map(glued).unwrap();
    assert_eq!(map.name(p(0)), "The Fountainhead");
    assert_eq!(map.name(p(1)), "The Rumpus Room");
    assert_eq!(map.name(p(2)), "Ess four 2");
    assert_eq!(map.outs(p(0)), &[p(1), p(2), p(0)]);
}

#[test]
fn the_seeds_damaged_listing_is_refused_at_its_first_bad_line() {
    let damaged = "20\n0 1 4 9The Fountainhead\n1 0 2 5The Rumpus Room\n2 1 3 6Buford's Folly\n   2 4 7The Hall of Kings\n4\n";
    let (line, kind) = kind(damaged);
    assert_eq!(line, Some(5));
    assert!(matches!(kind, MapErrorKind::RoomFields { found: 3, .. }));
}

#[test]
fn round_trips_both_formats() {
    for text in [STANDARD, MOBIUS, WATERSLIDE, RISK, CAVES_DAT] {
        let map = parse_map(text).unwrap();
        let again = parse_map(&format_map(&map)).unwrap();
        assert_eq!(format_map(&again), format_map(&map));
        for r in map.rooms() {
            assert_eq!(map.outs(r), again.outs(r));
            assert_eq!(map.name(r), again.name(r));
            assert_eq!(map.position(r), again.position(r));
        }
    }
}

#[test]
fn positions_are_optional_but_all_or_none() {
    let map = parse_map("1\n2\n1 2 2 1\n2 1 1 2\n").unwrap();
    assert_eq!(map.position(p(0)), None);
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0.5 0.5\n"),
        (None, MapErrorKind::MissingPositions { found: 1, count: 2 })
    ));
    let map = parse_map("1\n2\n2 1 1 2\n1 2 2 1\n2 0 1\n1 .5 0.5\n").unwrap();
    assert_eq!(map.position(p(0)), Some((0.5, 0.5)));
    assert_eq!(map.outs(p(1)), &[p(0), p(0), p(1)]);
}

#[test]
fn every_error_names_its_line() {
    use MapErrorKind as K;
    assert!(matches!(kind(""), (None, K::Empty)));
    assert!(matches!(kind("x\n2\n"), (Some(1), K::NotANumber { .. })));
    assert!(matches!(kind("0\n2\n"), (Some(1), K::ZeroWarningDistance)));
    assert!(matches!(kind("1\n0\n"), (Some(2), K::RoomCount(0))));
    assert!(matches!(
        kind("1\n2\n1 2 2\n"),
        (Some(3), K::RoomFields { found: 3, .. })
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 3\n"),
        (Some(3), K::UnknownTunnel { room: 3, .. })
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 0\n"),
        (Some(3), K::UnknownTunnel { room: 0, .. })
    ));
    assert!(matches!(
        kind("1\n2\n3 2 2 1\n"),
        (Some(3), K::UnknownRoom { room: 3, .. })
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n1 2 2 1\n"),
        (
            Some(4),
            K::DuplicateRoom {
                room: 1,
                first_line: 3
            }
        )
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 x 2\n"),
        (Some(4), K::NotANumber { .. })
    ));
    assert!(matches!(
        kind("1\n3\n1 2 2 1\n2 1 1 2\n"),
        (None, K::MissingRooms { found: 2, count: 3 })
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 0\n1 0 0\n"),
        (Some(6), K::DuplicatePosition { room: 1, .. })
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 nan\n"),
        (Some(5), K::BadPosition(_))
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0\n"),
        (Some(5), K::PositionFields(2))
    ));
    assert!(matches!(
        kind("1\n2\n1 2 2 1\n2 1 1 2\n1 0 0\n2 0 0\n9 9 9\n"),
        (Some(7), K::ExtraLine(_))
    ));
    // caves.dat
    assert!(matches!(
        kind("2\n0 1 1 0\n1 0 0 1 B\n"),
        (Some(2), K::MissingName(0))
    ));
    assert!(matches!(
        kind("2\n0 1 1 2 A\n"),
        (Some(2), K::UnknownTunnel { room: 2, .. })
    ));
    assert!(matches!(
        kind("2\n0 1.5 1 0 A\n1 0 0 1 B\n"),
        (Some(2), K::NotANumber { .. })
    ));
    assert!(matches!(
        kind("2\n0 1 1 0 A\n1 0 0 1 B\n2 0 0 1 C\n"),
        (Some(4), K::ExtraLine(_))
    ));
    assert!(matches!(
        kind("2\n0 1 1 0 A\n0 0 0 1 B\n"),
        (
            Some(3),
            K::DuplicateRoom {
                room: 0,
                first_line: 2
            }
        )
    ));
    assert!(matches!(
        kind("2\n0 1 1 0 A\n"),
        (None, K::MissingRooms { found: 1, count: 2 })
    ));
}

#[test]
fn detects_formats_and_cave_maps() {
    assert_eq!(detect_format(STANDARD), MapFormat::Event);
    assert_eq!(detect_format(CAVES_DAT), MapFormat::CavesDat);
    assert!(looks_like_cave_map(STANDARD));
    assert!(looks_like_cave_map(CAVES_DAT));
    assert!(!looks_like_cave_map("SIZE 4 4\nWUMPUS 1 1\n"));
    assert!(!looks_like_cave_map(""));
}

#[test]
fn smell_spreads_by_the_warning_distance() {
    let map = parse_map(STANDARD).unwrap();
    let one = map.within(p(0), 1);
    assert_eq!(one.iter().filter(|&&b| b).count(), 3);
    assert!(one[1] && one[4] && one[7] && !one[0]);
    let two = map.within(p(0), 2);
    // Three neighbours, six rooms two away, and room 1 itself by walking back.
    assert_eq!(two.iter().filter(|&&b| b).count(), 10);
    assert!(two[0]);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A random map: 1 to 30 rooms, three tunnels each to any room.
    fn tunnel_table() -> impl Strategy<Value = Vec<[usize; TUNNELS]>> {
        (1usize..30)
            .prop_flat_map(|n| proptest::collection::vec(proptest::array::uniform3(0..n), n))
    }

    proptest! {
        #[test]
        fn parsing_any_text_never_panics(text in "[0-9 .a-z\n-]{0,200}") {
            let _ = parse_map(&text);
            let _ = parse_caves_dat(&text);
            let _ = parse_event_map(&text);
        }

        #[test]
        fn random_maps_round_trip_in_both_formats(
            tunnels in tunnel_table(),
            glue in any::<bool>(),
        ) {
            let n = tunnels.len();
            let event = CaveMap::new(&tunnels, MapFormat::Event, 1, Vec::new(), Vec::new())
                .unwrap();
            let again = parse_map(&format_map(&event)).unwrap();
            prop_assert_eq!(again.format(), MapFormat::Event);
            let names = (0..n).map(|i| Some(format!("Cave {i} of {n}"))).collect();
            let dat = CaveMap::new(&tunnels, MapFormat::CavesDat, 1, names, Vec::new())
                .unwrap();
            let mut text = format_map(&dat);
            if glue {
                // The seed's listing: no space between the last number and the name.
                text = text.replace(" Cave", "Cave");
            }
            let dat_again = parse_map(&text).unwrap();
            for r in event.rooms() {
                prop_assert_eq!(event.outs(r), again.outs(r));
                prop_assert_eq!(dat.outs(r), dat_again.outs(r));
                prop_assert_eq!(dat.name(r), dat_again.name(r));
                // ins lists each tunnel into the room once.
                let into = event.rooms().map(|f| {
                    event.outs(f).iter().filter(|&&t| t == r).count()
                }).sum::<usize>();
                prop_assert_eq!(event.ins(r).len(), into);
            }
        }
    }
}

#[test]
fn drawing_marks_one_way_self_loops_and_tags() {
    let map = parse_map(CAVES_DAT).unwrap();
    let mut tags: RoomTags = vec![Vec::new(); 20];
    tags[16].push("wumpus");
    let text = draw_map(&map, Some(&tags));
    assert!(text.contains("15 The Lost Caverns of the Wyrm: to 15 (itself), 16, 19"));
    assert!(text.contains("14 Shelob's Lair: to 4, 10, 15 (one-way)"));
    assert!(text.contains("one-way in from 14"));
    assert!(text.contains("[wumpus]"));
    let plot = draw_map(&parse_map(STANDARD).unwrap(), None);
    assert!(plot.lines().count() > 25, "{plot}");
}
