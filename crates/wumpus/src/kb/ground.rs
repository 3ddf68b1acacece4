//! Grounding: a rule's formula, instantiated at places of the topology, becomes clauses over
//! ground atoms.
//!
//! Variables are replaced by places, `start` by the game's start, `any`/`all` by a
//! disjunction/conjunction over the neighbour set read from the topology, and conditions on
//! places (`X in out(Y)`, `X = Y`) by true or false. An atom is mapped to the knowledge base's
//! predicate of its epoch: `p(X)` through [`Ground::now`], `next p(X)` through
//! [`Ground::next`]. The result is put in
//! negation normal form and then in conjunctive normal form by distribution, without auxiliary
//! variables: the formulas of a rule file are small (a place and its few neighbours), and every
//! extra variable would make each solver call slower. A cap on the clause count turns a
//! runaway formula into an error instead of a memory blow-up.

use super::rules::{Formula, NeighbourSet, PredId, Term};
use crate::topology::{Place, Topology};
use petgraph::Direction as EdgeDir;

/// A ground atom: a predicate at a place, or a proposition (`place == None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    /// The predicate.
    pub pred: PredId,
    /// The place, for a per-place predicate.
    pub place: Option<Place>,
}

/// A ground literal: an atom, true or false.
pub type GroundLit = (Atom, bool);

/// A ground clause: a disjunction of literals.
pub type GroundClause = Vec<GroundLit>;

/// The most clauses one rule instance may produce.
pub const MAX_CLAUSES: usize = 4096;

/// Why an instance cannot be grounded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundError {
    /// The rules use `start` but the game has none.
    #[error("the rules mention 'start', but this game has no start place")]
    NoStart,
    /// Distribution would produce too many clauses.
    #[error("a rule grounds to more than {MAX_CLAUSES} clauses; split it into smaller rules")]
    TooLarge,
    /// A rule would ground to too much on this world, found before grounding it.
    #[error("the rule on line {0}: {1}")]
    RuleTooLarge(usize, String),
}

#[derive(Clone, Debug)]
enum Nnf {
    Const(bool),
    Lit(GroundLit),
    And(Vec<Nnf>),
    Or(Vec<Nnf>),
}

/// What grounding needs to know of the world.
pub struct Ground<'a> {
    /// The world's graph.
    pub topology: &'a Topology,
    /// The start place, if the game has one.
    pub start: Option<Place>,
    /// The predicate an atom `p(X)` stands for, by `p`; `None`: `p` itself.
    pub now: Option<&'a [PredId]>,
    /// The predicate an atom `next p(X)` stands for, by `p`; `None`: `p` itself.
    pub next: Option<&'a [PredId]>,
}

impl<'a> Ground<'a> {
    /// Grounding on `topology` with `start`, every atom standing for its own predicate.
    pub fn new(topology: &'a Topology, start: Option<Place>) -> Ground<'a> {
        Ground {
            topology,
            start,
            now: None,
            next: None,
        }
    }

    /// Clauses equivalent to `formula` (or its negation when `positive` is false), with the
    /// variables in `env` bound to places.
    pub fn clauses(
        &self,
        formula: &Formula,
        env: &mut Vec<(String, Place)>,
        positive: bool,
    ) -> Result<Vec<GroundClause>, GroundError> {
        let nnf = simplify(self.nnf(formula, env, positive)?);
        let mut clauses = match nnf {
            Nnf::Const(true) => Vec::new(),
            Nnf::Const(false) => vec![Vec::new()],
            other => cnf(&other)?,
        };
        for clause in &mut clauses {
            clause.sort();
            clause.dedup();
        }
        // Drop tautologies (a literal with its negation).
        clauses.retain(|c| !c.windows(2).any(|w| w[0].0 == w[1].0));
        clauses.sort();
        clauses.dedup();
        Ok(clauses)
    }

    fn place(&self, term: &Term, env: &[(String, Place)]) -> Result<Place, GroundError> {
        match term {
            Term::Start => self.start.ok_or(GroundError::NoStart),
            Term::Var(v) => Ok(env
                .iter()
                .rev()
                .find(|(name, _)| name == v)
                .map(|&(_, p)| p)
                .expect("the parser rejects unbound variables")),
        }
    }

    /// The places in `set` of `centre`, sorted, each once.
    fn neighbours(&self, set: NeighbourSet, centre: Place) -> Vec<Place> {
        let mut places: Vec<Place> = match set {
            NeighbourSet::Adj => self.topology.linked(centre),
            NeighbourSet::Out => self.topology.neighbours(centre).collect(),
            NeighbourSet::In => self
                .topology
                .graph()
                .neighbors_directed(centre, EdgeDir::Incoming)
                .collect(),
        };
        places.sort_unstable();
        places.dedup();
        places
    }

    fn nnf(
        &self,
        f: &Formula,
        env: &mut Vec<(String, Place)>,
        pos: bool,
    ) -> Result<Nnf, GroundError> {
        Ok(match f {
            Formula::Atom(pred, term) | Formula::Next(pred, term) => {
                let place = match term {
                    Some(t) => Some(self.place(t, env)?),
                    None => None,
                };
                let map = if matches!(f, Formula::Next(..)) {
                    self.next
                } else {
                    self.now
                };
                let pred = map.map_or(*pred, |m| m[*pred]);
                Nnf::Lit((Atom { pred, place }, pos))
            }
            Formula::Member { item, set, of } => {
                let item = self.place(item, env)?;
                let centre = self.place(of, env)?;
                Nnf::Const(self.neighbours(*set, centre).contains(&item) == pos)
            }
            Formula::Equal(a, b) => Nnf::Const((self.place(a, env)? == self.place(b, env)?) == pos),
            Formula::Not(g) => self.nnf(g, env, !pos)?,
            Formula::And(parts) | Formula::Or(parts) => {
                let conj = matches!(f, Formula::And(_)) == pos;
                let kids = parts
                    .iter()
                    .map(|g| self.nnf(g, env, pos))
                    .collect::<Result<Vec<_>, _>>()?;
                if conj {
                    Nnf::And(kids)
                } else {
                    Nnf::Or(kids)
                }
            }
            Formula::Implies(a, b) => {
                // a -> b  ==  not a | b
                let na = self.nnf(a, env, !pos)?;
                let nb = self.nnf(b, env, pos)?;
                if pos {
                    Nnf::Or(vec![na, nb])
                } else {
                    // not (a -> b) == a & not b
                    Nnf::And(vec![self.nnf(a, env, true)?, self.nnf(b, env, false)?])
                }
            }
            Formula::Iff(a, b) => {
                // a <-> b == (not a | b) & (a | not b); its negation swaps one side.
                let (a_pos, a_neg) = (self.nnf(a, env, true)?, self.nnf(a, env, false)?);
                let (b_pos, b_neg) = (self.nnf(b, env, pos)?, self.nnf(b, env, !pos)?);
                Nnf::And(vec![
                    Nnf::Or(vec![a_neg, b_pos]),
                    Nnf::Or(vec![a_pos, b_neg]),
                ])
            }
            Formula::Quant {
                all,
                var,
                set,
                of,
                body,
            } => {
                let centre = self.place(of, env)?;
                let places = self.neighbours(*set, centre);
                let mut kids = Vec::with_capacity(places.len());
                for p in places {
                    env.push((var.clone(), p));
                    let kid = self.nnf(body, env, pos);
                    env.pop();
                    kids.push(kid?);
                }
                if *all == pos {
                    Nnf::And(kids)
                } else {
                    Nnf::Or(kids)
                }
            }
        })
    }
}

/// Folds the constants away: what is left is a constant alone or has no constant inside.
fn simplify(f: Nnf) -> Nnf {
    match f {
        Nnf::And(kids) => {
            let mut out = Vec::with_capacity(kids.len());
            for k in kids {
                match simplify(k) {
                    Nnf::Const(true) => {}
                    Nnf::Const(false) => return Nnf::Const(false),
                    other => out.push(other),
                }
            }
            if out.is_empty() {
                Nnf::Const(true)
            } else {
                Nnf::And(out)
            }
        }
        Nnf::Or(kids) => {
            let mut out = Vec::with_capacity(kids.len());
            for k in kids {
                match simplify(k) {
                    Nnf::Const(false) => {}
                    Nnf::Const(true) => return Nnf::Const(true),
                    other => out.push(other),
                }
            }
            if out.is_empty() {
                Nnf::Const(false)
            } else {
                Nnf::Or(out)
            }
        }
        other => other,
    }
}

fn cnf(f: &Nnf) -> Result<Vec<GroundClause>, GroundError> {
    match f {
        Nnf::Const(true) => Ok(Vec::new()),
        Nnf::Const(false) => Ok(vec![Vec::new()]),
        Nnf::Lit(l) => Ok(vec![vec![*l]]),
        Nnf::And(kids) => {
            let mut out = Vec::new();
            for k in kids {
                out.extend(cnf(k)?);
                if out.len() > MAX_CLAUSES {
                    return Err(GroundError::TooLarge);
                }
            }
            Ok(out)
        }
        Nnf::Or(kids) => {
            // The empty disjunction is false: one empty clause.
            let mut acc: Vec<GroundClause> = vec![Vec::new()];
            for k in kids {
                let kc = cnf(k)?;
                if kc.len() * acc.len() > MAX_CLAUSES {
                    return Err(GroundError::TooLarge);
                }
                if let [single] = kc.as_slice() {
                    // The common case (a literal or one clause): extend in place, so a long
                    // disjunction costs linear time, not quadratic copying.
                    for a in &mut acc {
                        a.extend_from_slice(single);
                    }
                    continue;
                }
                let mut next = Vec::with_capacity(acc.len() * kc.len());
                for a in &acc {
                    for c in &kc {
                        let mut merged = a.clone();
                        merged.extend_from_slice(c);
                        next.push(merged);
                    }
                }
                acc = next;
            }
            Ok(acc)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kb::rules::{parse_rules, GRID_RULES};

    #[test]
    fn breeze_grounds_to_the_usual_clauses() {
        let rules = parse_rules(GRID_RULES).unwrap();
        let topo = Topology::grid(3, 3).unwrap();
        let g = Ground::new(&topo, topo.cell(0, 0));
        let breeze = rules.predicate("breeze").unwrap();
        let rule = rules.percept_rule(breeze).unwrap();
        let corner = topo.cell(0, 0).unwrap();
        let mut env = vec![("X".to_string(), corner)];
        let present = g.clauses(&rule.body, &mut env, true).unwrap();
        assert_eq!(present.len(), 1);
        assert_eq!(present[0].len(), 2);
        let absent = g.clauses(&rule.body, &mut env, false).unwrap();
        assert_eq!(absent.len(), 2);
        assert!(absent.iter().all(|c| c.len() == 1 && !c[0].1));
    }

    #[test]
    fn iff_and_implication_negate_correctly() {
        let rules = parse_rules("hidden a.\nhidden b.\na <-> b.\na -> b.\n").unwrap();
        let topo = Topology::grid(2, 2).unwrap();
        let g = Ground::new(&topo, None);
        // a <-> b: 2 clauses; its negation (a xor b): 2 clauses.
        assert_eq!(
            g.clauses(&rules.facts[0].formula, &mut vec![], true)
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            g.clauses(&rules.facts[0].formula, &mut vec![], false)
                .unwrap()
                .len(),
            2
        );
        // not (a -> b) = a & not b: two unit clauses.
        let neg = g
            .clauses(&rules.facts[1].formula, &mut vec![], false)
            .unwrap();
        assert_eq!(neg.len(), 2);
        assert!(neg.iter().all(|c| c.len() == 1));
    }

    #[test]
    fn start_is_required_when_used() {
        let rules = parse_rules("hidden a(X).\nnot a(start).\n").unwrap();
        let topo = Topology::grid(2, 2).unwrap();
        let g = Ground::new(&topo, None);
        assert_eq!(
            g.clauses(&rules.facts[0].formula, &mut vec![], true),
            Err(GroundError::NoStart)
        );
    }

    #[test]
    fn a_long_disjunction_grounds_in_linear_time() {
        // Found by fuzzing: `a | a | ... | a` with 200,000 terms took minutes (every term
        // copied the clause built so far).
        let text = format!(
            "hidden a.\nhidden b(X).\n{}b(start).\n",
            "a | ".repeat(200_000)
        );
        let rules = parse_rules(&text).unwrap();
        let topo = Topology::grid(2, 2).unwrap();
        let g = Ground::new(&topo, topo.cell(0, 0));
        // Linear in the number of terms, not quadratic.
        let clauses = g
            .clauses(&rules.facts[0].formula, &mut vec![], true)
            .unwrap();
        assert_eq!(clauses.len(), 1);
        assert_eq!(clauses[0].len(), 2);
    }

    #[test]
    fn runaway_distribution_is_an_error() {
        // (a1 & b1) | (a2 & b2) | ... over 16 neighbours of a big cave room.
        let tunnels: Vec<Vec<usize>> = (0..17)
            .map(|r| if r == 0 { (1..17).collect() } else { vec![0] })
            .collect();
        let topo = Topology::cave(&tunnels, 0, vec![None; 17], vec![None; 17]);
        let rules =
            parse_rules("hidden a(X).\nhidden b(X).\nany N in out(start): (a(N) & b(N)).\n")
                .unwrap();
        let g = Ground::new(&topo, Some(Place::new(0)));
        assert_eq!(
            g.clauses(&rules.facts[0].formula, &mut vec![], true),
            Err(GroundError::TooLarge)
        );
    }
}
