//! A race on a cluster: the runs a race needs next are made by N shards, each into its own
//! run file, and taken into the race's runs.csv between rounds (`readings --shard K/N` and
//! `readings --merge-shards N`, docs/cluster.md).
//!
//! Which shard makes a run depends on the run alone (its reading, puzzle, run and budget),
//! never on the other runs of the round, so a shard's share is the same whoever computes it,
//! and a row of a shard file that is not its share is refused. The race takes from the shard
//! files exactly the runs it would have made on one machine, so its files do not depend on
//! the number of shards.

use super::store::{Job, Record, Store};
use crate::protocol::Protocol;
use anyhow::{bail, Result};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The shard, from 1 to `n`, that makes `job`: a hash of the job (SplitMix64's finaliser),
/// so that the runs of a round spread evenly over the shards.
pub fn owner(job: Job, n: usize) -> usize {
    let (reading, puzzle, run, cap) = job;
    let mut x = (reading as u64) << 32 | puzzle as u64;
    x ^= run.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ cap.rotate_left(17);
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    (x % n.max(1) as u64) as usize + 1
}

/// The run file of shard `k` in a round's folder.
pub fn file(dir: &Path, k: usize) -> PathBuf {
    dir.join(format!("shard-{k}.csv"))
}

/// The runs of the `n` shard files in `dir` (a missing file holds none), each row checked as
/// `--resume` checks a run file (a run of this race with the plan's seed, a budget within the
/// full one, no job twice), and refused, naming its file and line, when it is not the share
/// of its shard, or not a run of the round `asked` (the runs the race needs next) unless the
/// race's `store` already holds the same record (a decision that stopped after taking it).
pub fn read(
    dir: &Path,
    n: usize,
    protocol: &Protocol,
    full: u64,
    store: &Store,
    asked: &HashSet<Job>,
) -> Result<HashMap<Job, Record>> {
    let mut pool = HashMap::new();
    for k in 1..=n {
        let path = file(dir, k);
        if !path.exists() {
            continue;
        }
        let shard = Store::read_only(&path, protocol, full)?;
        for (i, r) in shard.records().iter().enumerate() {
            let job = (r.reading, r.puzzle, r.run, r.cap);
            let at = format!("{}:{}", path.display(), i + 2);
            let what = format!(
                "run {} of reading {} on puzzle {} under cap {}",
                r.run,
                protocol.spec.algorithms[r.reading as usize].label,
                protocol.puzzles[r.puzzle as usize].id,
                r.cap
            );
            let owner = owner(job, n);
            if owner != k {
                bail!("{at}: {what} is the share of shard {owner} of {n}, not of shard {k} (a row this shard did not make)");
            }
            if !asked.contains(&job) {
                match store.made(job) {
                    Some(had) if had == *r => {}
                    Some(_) => bail!(
                        "{at}: {what} contradicts the race's runs.csv, which records it otherwise (an edited row)"
                    ),
                    None => bail!(
                        "{at}: {what} is not a run the race needs next (a row of another round, or edited)"
                    ),
                }
            }
            pool.insert(job, *r);
        }
    }
    Ok(pool)
}

/// The shards, in order, whose share of `missing` is not empty, with how many of its runs
/// are missing.
pub fn lacking(missing: &[Job], n: usize) -> Vec<(usize, usize)> {
    let mut count = vec![0usize; n + 1];
    for &j in missing {
        count[owner(j, n)] += 1;
    }
    (1..=n)
        .filter(|&k| count[k] > 0)
        .map(|k| (k, count[k]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every job has one shard, in 1..=n, whatever the other jobs; a round's jobs spread
    /// over every shard.
    #[test]
    fn every_job_has_one_shard_and_rounds_spread() {
        for n in 1..6 {
            let mut seen = vec![0; n + 1];
            for r in 0..4u32 {
                for run in 0..20u64 {
                    let k = owner((r, 3, run, 2000), n);
                    assert!((1..=n).contains(&k));
                    assert_eq!(k, owner((r, 3, run, 2000), n));
                    seen[k] += 1;
                }
            }
            assert!(seen[1..].iter().all(|&c| c > 0), "{n}: {seen:?}");
        }
        assert_eq!(lacking(&[(0, 0, 0, 1)], 1), vec![(1, 1)]);
    }
}
