use super::*;

#[test]
fn models_answer_without_calls_until_a_clause_is_added() {
    for mut s in [Sat::whole(), Sat::splitting_at(0, MAX_SOLVERS)] {
        let (a, b) = (s.new_lit(), s.new_lit());
        s.add_clause(&[a, b]);
        assert!(s.solve(&[a], true));
        let calls = s.calls;
        assert!(s.known_possible(&[a]));
        assert_eq!(s.calls, calls);
        s.add_clause(&[!a]);
        assert!(!s.known_possible(&[a]));
        assert!(!s.solve(&[a], true));
        assert_eq!(s.failed_core(), vec![a]);
    }
}

#[test]
fn one_solver_per_component_answers_as_one_solver_does() {
    use rand::Rng;
    let mut rng = crate::rng::seeded(3);
    for round in 0..1000 {
        // Every other round, solvers are dropped and made again all the time.
        let (mut whole, mut split) = (
            Sat::whole(),
            // Split from the start, or after a few variables, keeping few solvers or many.
            Sat::splitting_at(round % 3, if round % 2 == 0 { MAX_SOLVERS } else { 2 }),
        );
        let vars = rng.random_range(1..14);
        let lits: Vec<Lit> = (0..vars)
            .map(|_| {
                let l = whole.new_lit();
                assert_eq!(split.new_lit(), l);
                l
            })
            .collect();
        let pick = |rng: &mut crate::rng::GameRng| {
            let l = lits[rng.random_range(0..lits.len())];
            if rng.random_bool(0.5) {
                l
            } else {
                !l
            }
        };
        for _ in 0..rng.random_range(0..30) {
            let len = if rng.random_bool(0.01) {
                0
            } else {
                rng.random_range(1..4)
            };
            let clause: Vec<Lit> = (0..len).map(|_| pick(&mut rng)).collect();
            whole.add_clause(&clause);
            split.add_clause(&clause);
            for _ in 0..3 {
                let asked: Vec<Lit> = (0..rng.random_range(0..4))
                    .map(|_| pick(&mut rng))
                    .collect();
                let known = split.known_possible(&asked);
                let expected = whole.solve(&asked, true);
                assert!(!known || expected, "round {round}: a kept model lied");
                assert_eq!(split.solve(&asked, true), expected, "round {round}");
                if !expected {
                    // The core is a subset of the assumptions that fails on its own.
                    let core = split.failed_core();
                    assert!(core.iter().all(|l| asked.contains(l)));
                    assert!(!whole.solve(&core, false), "round {round}");
                }
            }
            if split.solve(&[], true) {
                // The latest models of the components make a model of the whole.
                let value = |l: Lit| split.model_value(l).unwrap_or(!l.is_positive());
                for c in split.clauses() {
                    assert!(c.iter().any(|&l| value(l)), "round {round}: {c:?}");
                }
            }
        }
    }
}

#[test]
fn change_tracking_follows_shared_clauses() {
    let mut s = Sat::whole();
    let (a, b, c) = (s.new_lit(), s.new_lit(), s.new_lit());
    s.add_clause(&[a, b]);
    let t = s.now();
    s.add_clause(&[!c]);
    assert!(!s.changed_since(a, t));
    assert!(s.changed_since(c, t));
    s.add_clause(&[b, c]);
    assert!(s.changed_since(a, t), "a joined c's component");
}

#[test]
fn watches_fire_once_after_their_component_changes() {
    let mut s = Sat::whole();
    let (a, b, c, d) = (s.new_lit(), s.new_lit(), s.new_lit(), s.new_lit());
    s.add_clause(&[a, b]);
    let t = s.now();
    let mut fired = Vec::new();
    s.watch(a, 1, t, &mut fired);
    s.watch(c, 2, t, &mut fired);
    s.watch(d, 3, 0, &mut fired);
    assert_eq!(fired, vec![3], "d was created after time 0");
    fired.clear();
    s.add_clause(&[!c]);
    s.drain_changed(&mut fired);
    assert_eq!(fired, vec![2]);
    fired.clear();
    // a's watch moves into c's component when they merge, then fires.
    s.add_clause(&[b, c]);
    s.drain_changed(&mut fired);
    assert_eq!(fired, vec![1]);
    fired.clear();
    s.add_clause(&[a, c]);
    s.drain_changed(&mut fired);
    assert!(fired.is_empty(), "a watch fires once");
}
