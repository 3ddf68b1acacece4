//! Shards: a batch cut into contiguous ranges of its games, so that it can be played on
//! several machines and the shards' summaries merged into the whole ([`super::merge`]).

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Shard `index` of `count` (1-based): a contiguous range of a batch's games, so that a
/// batch can be split across machines and the shards' summaries merged into the whole.
///
/// Contiguous rather than interleaved (game `i` in shard `i mod N`): a shard is then the very
/// same as an unsharded batch of its own (`--seed S+lo --worlds hi-lo`), so any shard can be
/// replayed or checked without the flag, its seeds are one range `S+lo..S+hi`, and the CSV rows
/// of the shards, concatenated in shard order, are the whole batch's rows in seed order. The
/// games of a batch are alike in cost (seeds are random worlds), so ranges balance as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

/// Why a shard is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard {index}/{count}: expected K/N with 1 <= K <= N")]
pub struct ShardError {
    index: u64,
    count: u64,
}

impl Shard {
    /// Shard `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 || index == 0 || index > count {
            return Err(ShardError { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The games `lo..hi` of a batch of `worlds` this shard plays: `worlds·(K−1)/N` up to
    /// `worlds·K/N`, so the shards' sizes differ by at most one.
    pub fn range(self, worlds: u64) -> Range<u64> {
        let at = |k: u64| (worlds as u128 * k as u128 / self.count as u128) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard like 2/8 (K/N, 1 <= K <= N)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).map_err(|_| bad())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}
