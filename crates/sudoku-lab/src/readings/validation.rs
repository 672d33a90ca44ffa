//! The synthetic races of a folder of races, race by race (`validation.csv` and a section of
//! `summary.md`, written by `sudoku-lab readings-summary`): each race's hidden reading and its
//! fate, the table it was raced against (successes per row, so that rows the hidden reading
//! rarely solves show), the survivors; and over the races, the false elimination rate of the
//! hidden reading with its exact (Clopper-Pearson) interval, against the alpha the race
//! promises, and the rate those races could detect. Every file read (readings.csv,
//! published.csv, settings.json of each race) is hostile: a symlink, a malformed line or a
//! missing field is refused, naming the file and line, before anything is written.

use super::calibration::clopper_pearson;
use super::md;
use crate::protocol::io::check_regular;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// A row the hidden reading solved less often than this share of its runs is a rare row.
pub const RARE: f64 = 0.2;

/// The power with which a rate is called detectable.
const POWER: f64 = 0.8;

/// One synthetic race of a folder.
#[derive(Debug, Clone, PartialEq)]
pub struct HiddenRace {
    pub folder: String,
    /// The hidden reading's id and its options where they differ from the first reading.
    pub hidden: String,
    pub options: String,
    pub procedure: String,
    pub alpha: f64,
    /// Per row of the synthetic table: `column @ level`, successes, runs.
    pub rows: Vec<(String, u64, u64)>,
    pub status: String,
    pub survivors: Vec<String>,
}

impl HiddenRace {
    /// The smallest success share of the table's rows (1 without rows).
    pub fn lowest_share(&self) -> f64 {
        (self.rows.iter())
            .map(|&(_, k, n)| k as f64 / n.max(1) as f64)
            .fold(1.0, f64::min)
    }
}

/// The synthetic races of `dir`, each given as (folder, hidden reading, its status), read
/// from their folders.
pub fn load<'a>(
    dir: &Path,
    races: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Result<Vec<HiddenRace>> {
    let mut out = Vec::new();
    for (folder, hidden, status) in races {
        let race = dir.join(folder);
        let (options, survivors) = readings(&race.join("readings.csv"), hidden)?;
        let (procedure, alpha) = settings(&race.join("settings.json"))?;
        out.push(HiddenRace {
            folder: folder.to_string(),
            hidden: hidden.to_string(),
            options,
            procedure,
            alpha,
            rows: table(&race.join("published.csv"))?,
            status: status.to_string(),
            survivors,
        });
    }
    Ok(out)
}

/// The hidden reading's options (where it differs from the first reading) and the survivors'
/// ids, from a race's readings.csv.
fn readings(path: &Path, hidden: &str) -> Result<(String, Vec<String>)> {
    check_regular(path)?;
    let text = crate::spec::read_spec(path)?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}: not CSV", path.display(), i + 1))?;
        rows.push(rec.iter().map(str::to_string).collect::<Vec<_>>());
    }
    let Some((head, body)) = rows.split_first() else {
        bail!("{}: empty", path.display());
    };
    let status = head.iter().position(|h| h == "status");
    let Some(status) = status.filter(|&k| head[0] == "reading" && k >= 2) else {
        bail!("{}:1: not the header of a readings.csv", path.display());
    };
    let (mut options, mut survivors) = (None, Vec::new());
    for (i, row) in body.iter().enumerate() {
        if row.len() != head.len() || !["survived", "eliminated"].contains(&row[status].as_str()) {
            bail!("{}:{}: not a reading row", path.display(), i + 2);
        }
        if row[status] == "survived" {
            survivors.push(row[0].clone());
        }
        if row[0] == hidden {
            let differs: Vec<String> = (1..status)
                .filter(|&k| row[k] != body[0][k])
                .map(|k| format!("{}={}", head[k], row[k]))
                .collect();
            options = Some(differs.join(","));
        }
    }
    match options {
        Some(o) => Ok((o, survivors)),
        None => bail!("{}: no row of the hidden reading {hidden}", path.display()),
    }
}

/// The procedure (v1 where none is named: races made before the versions) and alpha of a
/// race's settings.json, read by its type.
fn settings(path: &Path) -> Result<(String, f64)> {
    check_regular(path)?;
    let settings = super::settings::Settings::read(path)?;
    if !(settings.alpha > 0.0 && settings.alpha < 1.0) {
        bail!("{}: no alpha between 0 and 1", path.display());
    }
    Ok((settings.procedure().name().to_string(), settings.alpha))
}

/// The rows of a race's published.csv (the synthetic table): `column @ level`, successes,
/// runs.
fn table(path: &Path) -> Result<Vec<(String, u64, u64)>> {
    check_regular(path)?;
    let text = crate::spec::read_spec(path)?;
    let rows = crate::reports::groups::parse_published(&text, &path.display().to_string())?;
    let mut out = Vec::new();
    for r in rows {
        let (Some(k), Some(n)) = (r.count, r.runs) else {
            bail!(
                "{}: row {} @ {} has no count or runs",
                path.display(),
                r.algorithm,
                r.level
            );
        };
        out.push((format!("{} @ {}", r.algorithm, r.level), k, n));
    }
    Ok(out)
}

/// The smallest number of eliminations in `n` races whose 95 % Clopper-Pearson interval lies
/// above `alpha` (None when even `n` would not), and the smallest true rate that gives at
/// least that many with probability [`POWER`].
pub fn detectable(n: u64, alpha: f64) -> Option<(u64, f64)> {
    use statrs::distribution::{Binomial, DiscreteCDF};
    let k = (1..=n).find(|&k| clopper_pearson(k, n, 0.95).0 > alpha)?;
    let power = |p: f64| Binomial::new(p, n).map_or(0.0, |b| 1.0 - b.cdf(k - 1));
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if power(mid) >= POWER {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((k, hi))
}

/// The section of summary.md: the false elimination rate over the races, then race by race.
pub fn markdown(races: &[HiddenRace]) -> String {
    let n = races.len() as u64;
    let eliminated = races.iter().filter(|r| r.status != "survived").count() as u64;
    let (lo, hi) = clopper_pearson(eliminated, n, 0.95);
    let mut s = format!(
        "\n## The hidden reading, race by race\n\nThe hidden reading was eliminated in {eliminated} of {n} races: a false elimination rate of {:.3}, 95 % Clopper-Pearson interval {lo:.3} to {hi:.3}.",
        eliminated as f64 / n.max(1) as f64
    );
    let alpha = races[0].alpha;
    let under = |p: &str| races.iter().filter(|r| r.procedure == p).count();
    let mut named: Vec<String> = (["v2", "v3"].iter())
        .filter(|p| under(p) > 0)
        .map(|p| format!("{} of the {n} races ran under procedure {p}", under(p)))
        .collect();
    if named.is_empty() {
        named.push(format!("0 of the {n} races ran under procedure v2"));
    }
    s += &format!(" {}", named.join(" and "));
    if races.iter().all(|r| r.alpha == alpha) {
        s += &format!(
            ", which promises a rate of at most alpha = {alpha} (each race's alpha). {n} races cannot show a rate of {alpha} precisely: an interval that excludes rates above {alpha} needs far more races, and with no elimination at all the upper end would still be {:.3}.",
            clopper_pearson(0, n, 0.95).1
        );
        s += &match detectable(n, alpha) {
            Some((k, p)) => format!(" What they can detect: the interval lies above {alpha} from {k} eliminations on, which a true rate of {p:.3} or more gives with probability {POWER} or more.\n"),
            None => format!(" No number of eliminations in {n} races puts the interval above {alpha}.\n"),
        };
    } else {
        s += " (the races' alphas differ).\n";
    }
    let rare: Vec<&HiddenRace> = races.iter().filter(|r| r.lowest_share() < RARE).collect();
    s += &format!(
        "\n{} races have a row the hidden reading solved in fewer than {:.0} % of its runs; the hidden reading survived in {} of them.\n\n",
        rare.len(),
        100.0 * RARE,
        rare.iter().filter(|r| r.status == "survived").count()
    );
    s += "| race | procedure | hidden reading | its options (where not the first value) | synthetic table: successes per row | hidden reading | survivors |\n|---|---|---|---|---|---|---|\n";
    for r in races {
        s += &format!(
            "| [{f}]({h}/report.md) | {} | {} | {} | {} | {} | {} |\n",
            md::text(&r.procedure),
            md::text(&r.hidden),
            md::text(or_first(&r.options)),
            md::text(&rows_text(r)),
            md::text(&r.status),
            md::text(&r.survivors.join(" ")),
            f = md::text(&r.folder),
            h = md::href(&r.folder),
        );
    }
    s
}

fn or_first(options: &str) -> &str {
    if options.is_empty() {
        "(every option at its first value)"
    } else {
        options
    }
}

fn rows_text(r: &HiddenRace) -> String {
    let cells: Vec<String> = (r.rows.iter())
        .map(|(row, k, n)| format!("{row}: {k}/{n}"))
        .collect();
    cells.join("; ")
}

/// validation.csv: one row per synthetic race.
pub fn csv_rows(races: &[HiddenRace]) -> Vec<Vec<String>> {
    let mut out = vec![[
        "folder",
        "hidden",
        "hidden_options",
        "procedure",
        "alpha",
        "rows",
        "lowest_success_share",
        "hidden_status",
        "survived",
        "survivors",
    ]
    .map(String::from)
    .to_vec()];
    for r in races {
        out.push(vec![
            r.folder.clone(),
            r.hidden.clone(),
            r.options.clone(),
            r.procedure.clone(),
            r.alpha.to_string(),
            rows_text(r),
            format!("{:.4}", r.lowest_share()),
            r.status.clone(),
            r.survivors.len().to_string(),
            r.survivors.join(" "),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rate 30 races detect: from the exact binomial, not typed in.
    #[test]
    fn detectable_rates_come_from_the_binomial() {
        use statrs::distribution::{Binomial, DiscreteCDF};
        let (k, p) = detectable(30, 0.05).unwrap();
        assert!(clopper_pearson(k, 30, 0.95).0 > 0.05);
        assert!(clopper_pearson(k - 1, 30, 0.95).0 <= 0.05);
        let at = |p: f64| 1.0 - Binomial::new(p, 30).unwrap().cdf(k - 1);
        assert!(at(p) >= POWER && at(p - 1e-6) < POWER, "{k} {p}");
        assert!(p > 0.05 && p < 0.5, "{p}");
        // Three races cannot put an interval above 0.5.
        assert_eq!(detectable(3, 0.5), None);
    }
}
