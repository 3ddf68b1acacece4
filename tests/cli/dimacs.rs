//! `wumpus kb --dimacs` checked by a second, independent SAT solver: a small DPLL written
//! here (no code shared with the knowledge base or varisat). For every cell the knowledge base
//! calls proven safe, the exported CNF plus "danger there" must be unsatisfiable; for every
//! proven pit or wumpus, the CNF plus its absence must be; and the CNF itself satisfiable.

use assert_cmd::Command;
use std::collections::HashMap;

/// A parsed export: clauses, the variable of each atom, and the conclusions it states.
struct Export {
    vars: usize,
    clauses: Vec<Vec<i32>>,
    atoms: HashMap<String, i32>,
    wumpus_alive: bool,
    safe: Vec<String>,
    pits: Vec<String>,
    wumpus: Vec<String>,
}

fn parse(text: &str) -> Export {
    let mut e = Export {
        vars: 0,
        clauses: Vec::new(),
        atoms: HashMap::new(),
        wumpus_alive: true,
        safe: Vec::new(),
        pits: Vec::new(),
        wumpus: Vec::new(),
    };
    let cells = |rest: &str| rest.split_whitespace().map(str::to_string).collect();
    let mut declared = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("c var ") {
            let (n, atom) = rest.split_once(' ').unwrap();
            e.atoms.insert(atom.to_string(), n.parse().unwrap());
        } else if let Some(rest) = line.strip_prefix("c proven safe (") {
            e.safe = cells(rest.split_once("):").expect("the closing parenthesis").1);
        } else if let Some(rest) = line.strip_prefix("c proven pit:") {
            e.pits = cells(rest);
        } else if let Some(rest) = line.strip_prefix("c proven wumpus:") {
            e.wumpus = cells(rest);
        } else if line.starts_with("c step ") {
            e.wumpus_alive = line.ends_with("wumpus alive: true");
        } else if let Some(rest) = line.strip_prefix("p cnf ") {
            let mut it = rest.split_whitespace().map(|w| w.parse::<usize>().unwrap());
            e.vars = it.next().unwrap();
            declared = it.next().unwrap();
        } else if !line.starts_with('c') {
            let lits: Vec<i32> = line
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            assert_eq!(lits.last(), Some(&0), "{line}");
            e.clauses.push(lits[..lits.len() - 1].to_vec());
        }
    }
    assert_eq!(e.clauses.len(), declared, "the header counts the clauses");
    for c in &e.clauses {
        assert!(c
            .iter()
            .all(|&l| l != 0 && l.unsigned_abs() as usize <= e.vars));
    }
    e
}

/// DPLL with unit propagation: is the formula satisfiable?
fn satisfiable(vars: usize, clauses: &[Vec<i32>]) -> bool {
    fn value(assign: &[i8], lit: i32) -> i8 {
        let v = assign[lit.unsigned_abs() as usize];
        if lit > 0 {
            v
        } else {
            -v
        }
    }
    fn solve(assign: &mut Vec<i8>, clauses: &[Vec<i32>]) -> bool {
        // Propagate units to a fixpoint; remember what was set, to undo on return.
        let mut trail = Vec::new();
        let result = loop {
            let mut changed = false;
            let mut open_clause = None;
            let mut conflict = false;
            for c in clauses {
                let mut unassigned = None;
                let mut count = 0;
                let mut sat = false;
                for &l in c {
                    match value(assign, l) {
                        1 => {
                            sat = true;
                            break;
                        }
                        0 => {
                            count += 1;
                            unassigned = Some(l);
                        }
                        _ => {}
                    }
                }
                if sat {
                    continue;
                }
                match count {
                    0 => {
                        conflict = true;
                        break;
                    }
                    1 => {
                        let l = unassigned.unwrap();
                        assign[l.unsigned_abs() as usize] = if l > 0 { 1 } else { -1 };
                        trail.push(l.unsigned_abs() as usize);
                        changed = true;
                    }
                    _ => open_clause = open_clause.or(unassigned),
                }
            }
            if conflict {
                break false;
            }
            if changed {
                continue;
            }
            match open_clause {
                None => break true,
                Some(l) => {
                    let var = l.unsigned_abs() as usize;
                    let mut found = false;
                    for v in [1, -1] {
                        assign[var] = v;
                        if solve(assign, clauses) {
                            found = true;
                            break;
                        }
                    }
                    assign[var] = 0;
                    break found;
                }
            }
        };
        if !result {
            for v in trail {
                assign[v] = 0;
            }
        }
        result
    }
    let mut assign = vec![0i8; vars + 1];
    solve(&mut assign, clauses)
}

/// Satisfiable with `lit` added as a unit clause?
fn possible(e: &Export, lit: i32) -> bool {
    let mut clauses = e.clauses.clone();
    clauses.push(vec![lit]);
    satisfiable(e.vars, &clauses)
}

fn export(args: &[&str]) -> Export {
    let out = Command::cargo_bin("wumpus")
        .unwrap()
        .args(["kb", "--dimacs"])
        .args(args)
        .assert()
        .success();
    parse(&String::from_utf8(out.get_output().stdout.clone()).unwrap())
}

fn check(e: &Export, what: &str) -> usize {
    assert!(
        satisfiable(e.vars, &e.clauses),
        "{what}: the CNF is unsatisfiable"
    );
    let var = |atom: String| {
        *e.atoms
            .get(&atom)
            .unwrap_or_else(|| panic!("{what}: no variable for {atom}"))
    };
    let mut checked = 0;
    for cell in &e.safe {
        assert!(
            !possible(e, var(format!("pit({cell})"))),
            "{what}: pit possible at safe {cell}"
        );
        if e.wumpus_alive {
            assert!(
                !possible(e, var(format!("wumpus({cell})"))),
                "{what}: wumpus possible at safe {cell}"
            );
        }
        checked += 1;
    }
    for cell in &e.pits {
        assert!(
            !possible(e, -var(format!("pit({cell})"))),
            "{what}: {cell} may lack its pit"
        );
        checked += 1;
    }
    for cell in &e.wumpus {
        assert!(
            !possible(e, -var(format!("wumpus({cell})"))),
            "{what}: {cell} may lack the wumpus"
        );
        checked += 1;
    }
    checked
}

#[test]
fn a_second_solver_agrees_with_every_proven_conclusion() {
    let mut checked = 0;
    let world = format!("{}/worlds/seed-example.txt", env!("CARGO_MANIFEST_DIR"));
    for step in ["1", "2", "3", "4", "6", "10"] {
        let e = export(&["--world", &world, "--step", step]);
        checked += check(&e, &format!("seed example, step {step}"));
    }
    let e = export(&["--world", &world]);
    assert!(e.wumpus.is_empty() || !e.wumpus_alive || !e.safe.is_empty());
    checked += check(&e, "seed example, the end");
    for seed in 0..12u64 {
        for (size, agent) in [("4x4", "logic"), ("5x5", "risk")] {
            for step in [None, Some("5")] {
                let seed_s = seed.to_string();
                let mut args = vec!["--seed", &seed_s, "--size", size, "--agent", agent];
                if let Some(s) = step {
                    args.extend(["--step", s]);
                }
                let out = Command::cargo_bin("wumpus")
                    .unwrap()
                    .args(["kb", "--dimacs"])
                    .args(&args)
                    .output()
                    .unwrap();
                if step.is_some() && out.status.code() == Some(2) {
                    // A game shorter than the step is refused with its real length.
                    let why = String::from_utf8_lossy(&out.stderr);
                    assert!(
                        why.contains("is past the end of the game: it has "),
                        "{why}"
                    );
                    continue;
                }
                let e = export(&args);
                checked += check(&e, &format!("seed {seed} {size} {agent} step {step:?}"));
            }
        }
    }
    assert!(checked > 200, "only {checked} conclusions checked");
}

#[test]
fn the_second_solver_is_not_vacuous() {
    // The DPLL itself: a satisfiable and an unsatisfiable formula.
    assert!(satisfiable(2, &[vec![1, 2], vec![-1, 2], vec![1, -2]]));
    assert!(!satisfiable(
        2,
        &[vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]
    ));
    // And the export's atoms are not all forced: at step 1 of the seed example 2,2 is unknown.
    let world = format!("{}/worlds/seed-example.txt", env!("CARGO_MANIFEST_DIR"));
    let e = export(&["--world", &world, "--step", "1"]);
    assert_eq!(e.safe, ["0,0", "0,1", "1,0"]);
    assert!(!e.atoms.contains_key("pit(2,2)"));
    assert!(possible(&e, -e.atoms["pit(0,0)"].abs()));
    assert!(!possible(&e, e.atoms["pit(0,0)"].abs()));
}
