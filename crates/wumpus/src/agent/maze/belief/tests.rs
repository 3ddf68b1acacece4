use super::*;
use crate::cave::map::{parse_map, CaveMap};

fn caves() -> CaveMap {
    parse_map(include_str!("../../../../../../worlds/caves.dat")).unwrap()
}

#[test]
fn the_deal_odds_with_nothing_observed() {
    let b = MazeBelief::new(20, Place::new(0));
    let o = b.odds().unwrap();
    // Pit and bats: one each, uniform over the 19 other caves.
    for c in 1..20 {
        assert!((o.pit[c] - 1.0 / 19.0).abs() < 1e-12);
        assert!((o.bats[c] - 1.0 / 19.0).abs() < 1e-12);
    }
    // Wumpi: 1 to 5 alike, so 3 on average over 19 caves.
    for c in 1..20 {
        assert!((o.wumpus[c] - 3.0 / 19.0).abs() < 1e-12, "{}", o.wumpus[c]);
    }
    for k in 1..=5 {
        assert!((o.alive[k] - 0.2).abs() < 1e-12);
    }
}

#[test]
fn senses_narrow_the_odds_and_a_blast_moves_the_wumpi() {
    let map = caves();
    let mut b = MazeBelief::new(20, Place::new(0));
    let near: Vec<Place> = map.outs(Place::new(0)).to_vec();
    b.stood(Place::new(0));
    b.smell(&near, true);
    b.feel(&near, false);
    b.hear(&near, false);
    let o = b.odds().unwrap();
    let total: f64 = near.iter().map(|c| o.wumpus[c.index()]).sum();
    assert!(total >= 1.0 - 1e-12);
    for c in &near {
        assert_eq!(o.pit[c.index()], 0.0);
    }
    // A miss into cave 1 (index 1): the wumpi next to it may run.
    let devour = b.devour_chance(&map, near[0], Place::new(0));
    assert!((0.0..1.0).contains(&devour));
    let before = b.odds().unwrap().weight;
    let devoured = b.toss(&map, near[0], Place::new(0), false);
    let o = b.odds().unwrap();
    // The player survived: no wumpus ran into cave 0; the weight lost is the devouring.
    assert_eq!(o.wumpus[0], 0.0);
    assert!((o.weight + devoured) <= before * (1.0 + 1e-9));
    assert!((o.pit.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert!((o.alive.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

/// Every layout (start, wumpus set, pit, bats) of a small maze, weighed by the deal,
/// filtered by random observations: the belief's odds must equal the enumeration's.
#[test]
fn odds_equal_brute_force_enumeration_before_any_blast() {
    use rand::{Rng, SeedableRng};
    let map = parse_map(
        "12\n0 1 2 3 A\n1 0 4 5 B\n2 0 6 7 C\n3 0 8 9 D\n4 1 10 11 E\n5 1 6 8 F\n\
         6 2 5 10 G\n7 2 9 11 H\n8 3 5 11 I\n9 3 7 10 J\n10 4 6 9 K\n11 4 7 8 L\n",
    )
    .unwrap();
    let n = map.len();
    let max_k = n / 4;
    for seed in 0..400u64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let start = Place::new(rng.random_range(0..n));
        let mut b = MazeBelief::new(n, start);
        // Layouts: (wumpus mask, pit, bats, weight).
        let mut layouts: Vec<(u64, usize, usize, f64)> = Vec::new();
        for m in 1u64..1 << n {
            let k = m.count_ones() as usize;
            if k > max_k || m >> start.index() & 1 == 1 {
                continue;
            }
            let deals = n as f64
                * binomial(n - 1, k)
                * (n as f64 - 1.0 - k as f64)
                * (n as f64 - 2.0 - k as f64);
            for p in 0..n {
                for q in 0..n {
                    let used = m | 1 << start.index();
                    if p != q && used >> p & 1 == 0 && used >> q & 1 == 0 {
                        layouts.push((m, p, q, 1.0 / (max_k as f64 * deals)));
                    }
                }
            }
        }
        for _ in 0..rng.random_range(1..6) {
            let cave = Place::new(rng.random_range(0..n));
            let near: Vec<Place> = map.outs(cave).to_vec();
            let nmask = MazeBelief::mask_of(&near);
            let present = rng.random_bool(0.5);
            let c = cave.index();
            match rng.random_range(0..5) {
                0 => {
                    b.stood(cave);
                    layouts.retain(|&(m, p, q, _)| m >> c & 1 == 0 && p != c && q != c);
                }
                1 => {
                    b.smell(&near, present);
                    layouts.retain(|&(m, ..)| (m & nmask != 0) == present);
                }
                2 => {
                    b.feel(&near, present);
                    layouts.retain(|&(_, p, ..)| (nmask >> p & 1 == 1) == present);
                }
                3 => {
                    b.hear(&near, present);
                    layouts.retain(|&(_, _, q, _)| (nmask >> q & 1 == 1) == present);
                }
                _ => {
                    b.landed(cave);
                    for l in &mut layouts {
                        l.3 /= n as f64 - l.0.count_ones() as f64 - 2.0;
                    }
                    layouts.retain(|&(m, p, q, _)| m >> c & 1 == 0 && p != c && q != c);
                }
            }
        }
        let total: f64 = layouts.iter().map(|l| l.3).sum();
        let Ok(o) = b.odds() else {
            assert_eq!(
                total, 0.0,
                "seed {seed}: layouts fit, yet the belief found none"
            );
            continue;
        };
        assert!(
            (o.weight - total).abs() <= 1e-9 * total,
            "seed {seed}: weight"
        );
        for x in 0..n {
            let w: f64 = layouts
                .iter()
                .filter(|l| l.0 >> x & 1 == 1)
                .map(|l| l.3)
                .sum();
            let pit: f64 = layouts.iter().filter(|l| l.1 == x).map(|l| l.3).sum();
            let bats: f64 = layouts.iter().filter(|l| l.2 == x).map(|l| l.3).sum();
            assert!(
                (o.wumpus[x] - w / total).abs() < 1e-9,
                "seed {seed}: wumpus {x}"
            );
            assert!(
                (o.pit[x] - pit / total).abs() < 1e-9,
                "seed {seed}: pit {x}"
            );
            assert!(
                (o.bats[x] - bats / total).abs() < 1e-9,
                "seed {seed}: bats {x}"
            );
            // What is impossible is exactly so: a proof is sought only where it is.
            for (odds, truth, what) in [
                (o.wumpus[x], w, "wumpus"),
                (o.pit[x], pit, "pit"),
                (o.bats[x], bats, "bats"),
            ] {
                assert_eq!(odds == 0.0, truth == 0.0, "seed {seed}: {what} {x} {odds}");
            }
        }
        for (k, &a) in o.alive.iter().enumerate() {
            let w: f64 = layouts
                .iter()
                .filter(|l| l.0.count_ones() as usize == k)
                .map(|l| l.3)
                .sum();
            assert!((a - w / total).abs() < 1e-9, "seed {seed}: alive {k}");
        }
    }
}
