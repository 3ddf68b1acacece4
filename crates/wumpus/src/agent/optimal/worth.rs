//! What a belief is worth as a function of the points already spent: the upper envelope of a
//! few lines, one line for each policy optimal at some spend.
//!
//! A fixed policy's expected final score falls linearly with what was spent before it: under
//! AIMA's scoring every ending is charged it (slope -1); under the standard scoring a death
//! scores 0 whatever was spent, so the slope is -(1 - the policy's chance to die). The best
//! of the policies is the highest of these lines at each spend: a convex, piecewise linear
//! function, which sums, scales, shifts and maxima keep convex and piecewise linear. So a
//! belief is solved once for every spend, instead of once per spend: this module must keep
//! every operation exact (no sampling of the spend), or the policy is no longer optimal.

use super::Value;
use smallvec::SmallVec;

/// One policy's worth: `score + slope * spent`, with its chances of winning and of dying.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// The expected final score with nothing spent before.
    pub score: f64,
    /// How the expected final score changes with each point spent before.
    pub slope: f64,
    /// Chance of climbing out with the gold.
    pub win: f32,
    /// Chance of dying.
    pub death: f32,
}

impl Line {
    /// A constant score with no chances.
    pub fn constant(score: f64) -> Line {
        Line {
            score,
            slope: 0.0,
            win: 0.0,
            death: 0.0,
        }
    }

    /// Its value after `spent`.
    pub fn at(&self, spent: f64) -> Value {
        Value {
            score: self.score + self.slope * spent,
            win: self.win as f64,
            death: self.death as f64,
        }
    }

    fn plus(self, o: Line) -> Line {
        Line {
            score: self.score + o.score,
            slope: self.slope + o.slope,
            win: self.win + o.win,
            death: self.death + o.death,
        }
    }

    fn scaled(self, p: f64) -> Line {
        Line {
            score: self.score * p,
            slope: self.slope * p,
            win: (self.win as f64 * p) as f32,
            death: (self.death as f64 * p) as f32,
        }
    }
}

/// A convex piecewise linear worth: the highest of its lines, each the highest somewhere on
/// the spends a game can reach (from 0 to the model's horizon), in order of slope.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Worth {
    lines: SmallVec<[Line; 1]>,
}

/// Two scores closer than this are one (the same policy reached two ways).
const SAME: f64 = 1e-9;

impl Worth {
    /// A worth of one line.
    pub fn line(line: Line) -> Worth {
        Worth {
            lines: SmallVec::from_buf([line]),
        }
    }

    /// A worth of `lines` already an envelope, in order of slope (as [`Worth::lines`] gives
    /// them).
    pub fn from_lines(lines: Vec<Line>) -> Worth {
        Worth {
            lines: SmallVec::from_vec(lines),
        }
    }

    /// The lines, in order of slope.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The worth after `spent`: the highest line there (the first among equals).
    pub fn at(&self, spent: f64) -> Value {
        let mut best = self.lines[0].at(spent);
        for l in &self.lines[1..] {
            let v = l.at(spent);
            if v.score > best.score + SAME {
                best = v;
            }
        }
        best
    }

    /// The same worth `cost` points later: what it is worth after spending `spent` is what
    /// this is worth after `spent + cost`.
    pub fn shifted(&self, cost: f64) -> Worth {
        Worth {
            lines: self
                .lines
                .iter()
                .map(|l| Line {
                    score: l.score + l.slope * cost,
                    ..*l
                })
                .collect(),
        }
    }

    /// This worth weighted by a chance `p`.
    pub fn scaled(&self, p: f64) -> Worth {
        Worth {
            lines: self.lines.iter().map(|l| l.scaled(p)).collect(),
        }
    }

    /// The sum of two worths (two outcomes of one plan): every pair of lines added, then
    /// the highest kept.
    pub fn plus(&self, o: &Worth, horizon: f64) -> Worth {
        if o.lines.len() == 1 {
            let add = o.lines[0];
            return Worth {
                lines: self.lines.iter().map(|l| l.plus(add)).collect(),
            };
        }
        if self.lines.len() == 1 {
            return o.plus(self, horizon);
        }
        let mut sums: Vec<Line> = Vec::with_capacity(self.lines.len() * o.lines.len());
        for a in &self.lines {
            for b in &o.lines {
                sums.push(a.plus(*b));
            }
        }
        Worth::highest(sums, horizon)
    }

    /// The upper envelope of `lines` on the spends from 0 to `horizon`: the lines highest
    /// somewhere there, in order of slope. Among lines equal everywhere the first is kept
    /// (the earlier plan, as ties are broken in play).
    pub fn highest(mut lines: Vec<Line>, horizon: f64) -> Worth {
        if lines.len() == 1 {
            return Worth::line(lines[0]);
        }
        // A stable sort: equal slopes keep their order, so the first of equal lines wins.
        lines.sort_by(|a, b| a.slope.total_cmp(&b.slope));
        let mut kept: Vec<Line> = Vec::with_capacity(lines.len());
        for l in lines {
            if let Some(last) = kept.last() {
                if (l.slope - last.slope).abs() <= SAME {
                    if l.score > last.score + SAME {
                        kept.pop();
                    } else {
                        continue;
                    }
                }
            }
            // Drop lines the new one and the one before make redundant (standard convex hull
            // of lines: `mid` is never above both `prev` and `l`).
            while kept.len() >= 2 {
                let (prev, mid) = (kept[kept.len() - 2], kept[kept.len() - 1]);
                // Where `prev` meets `mid` and where `mid` meets `l`.
                let x1 = (prev.score - mid.score) / (mid.slope - prev.slope);
                let x2 = (mid.score - l.score) / (l.slope - mid.slope);
                if x2 <= x1 {
                    kept.pop();
                } else {
                    break;
                }
            }
            kept.push(l);
        }
        // Keep only the lines highest somewhere on [0, horizon]: line k rules from where it
        // meets line k-1 to where it meets line k+1.
        let n = kept.len();
        let meet =
            |k: usize| (kept[k - 1].score - kept[k].score) / (kept[k].slope - kept[k - 1].slope);
        let out: SmallVec<[Line; 1]> = (0..n)
            .filter(|&k| {
                let from = if k == 0 { f64::NEG_INFINITY } else { meet(k) };
                let to = if k + 1 == n {
                    f64::INFINITY
                } else {
                    meet(k + 1)
                };
                to > 0.0 && from < horizon && to > from
            })
            .map(|k| kept[k])
            .collect();
        Worth { lines: out }
    }

    /// The highest of several worths (the best plan at each spend).
    pub fn best_of<'a>(worths: impl IntoIterator<Item = &'a Worth>, horizon: f64) -> Worth {
        let lines: Vec<Line> = worths
            .into_iter()
            .flat_map(|w| w.lines.iter().copied())
            .collect();
        Worth::highest(lines, horizon)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(score: f64, slope: f64) -> Line {
        Line {
            score,
            slope,
            ..Line::constant(0.0)
        }
    }

    /// The highest of `lines` at `x`, by brute force.
    fn top(lines: &[Line], x: f64) -> f64 {
        lines
            .iter()
            .map(|l| l.score + l.slope * x)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn the_envelope_is_the_highest_line_at_every_spend() {
        let mut rng = 0x2545F4914F6CDD1Du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..500 {
            let n = 1 + (next() * 8.0) as usize;
            let lines: Vec<Line> = (0..n).map(|_| line(1000.0 * next(), -next())).collect();
            let w = Worth::highest(lines.clone(), 1200.0);
            for x in (0..=1200).step_by(7) {
                let x = x as f64;
                assert!(
                    (w.at(x).score - top(&lines, x)).abs() < 1e-6,
                    "{lines:?} at {x}"
                );
            }
            // The sum of two envelopes is the envelope of the sums.
            let other: Vec<Line> = (0..3).map(|_| line(500.0 * next(), -next())).collect();
            let sum = w.plus(&Worth::highest(other.clone(), 1200.0), 1200.0);
            for x in (0..=1200).step_by(11) {
                let x = x as f64;
                let want = top(&lines, x) + top(&other, x);
                assert!((sum.at(x).score - want).abs() < 1e-6);
            }
            // Shifted: worth after x is the old worth after x + 5.
            let shifted = w.shifted(5.0);
            assert!((shifted.at(10.0).score - w.at(15.0).score).abs() < 1e-9);
        }
    }

    #[test]
    fn lines_never_highest_in_the_game_are_dropped() {
        // Highest only past the horizon, or only before 0.
        let w = Worth::highest(
            vec![line(100.0, -1.0), line(-5000.0, 0.0), line(200.0, -2.0)],
            1000.0,
        );
        assert_eq!(w.lines().len(), 2, "{w:?}");
        assert_eq!(w.at(0.0).score, 200.0);
    }
}
