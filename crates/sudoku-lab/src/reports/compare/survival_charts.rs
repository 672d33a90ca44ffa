//! The charts of the censored runtimes (see [`super::survival`]): the Kaplan-Meier ECDF of
//! every algorithm per puzzle set and pooled, in evaluations and in seconds, each with its
//! shaded bootstrap band, and the band of ERT for the ERT chart.

use super::data::Data;
use super::stats::Unit;
use super::survival::{Curve, Survival};
use anyhow::Context;
use anyhow::Result;
use lab_charts::{render_panels, LineChart, Marker, Series, XAxis};
use lab_stats::{ecdf_band, kaplan_meier, seed_from, Band, KaplanMeier, LifeTable, Scheme};
use rayon::prelude::*;
use std::path::Path;

/// The (start, end) of a unit's time axis: from the decade at or below the shortest run
/// (so that no panel spends most of its width before any run could have solved) to the
/// budget in evaluations, to the longest run in seconds.
fn axis(data: &Data, unit: Unit) -> (f64, f64) {
    let (lo, hi) = (data.runs.iter()).fold((f64::INFINITY, 0.0f64), |(lo, hi), r| {
        let t = super::survival::time(r, unit);
        (if t > 0.0 { lo.min(t) } else { lo }, hi.max(t))
    });
    let start = match unit {
        Unit::Evaluations if !lo.is_finite() => 1.0,
        Unit::Evaluations => 10f64.powf(lo.log10().floor()).max(1.0),
        Unit::Seconds if !lo.is_finite() => 1e-3,
        Unit::Seconds => 10f64.powf(lo.log10().floor()),
    };
    let end = match unit {
        Unit::Evaluations => data.budget as f64,
        Unit::Seconds => hi,
    };
    (start, end.max(start * 10.0))
}

/// The step points of `1 - S(t)` from `start` to `end`, and its band.
type Steps = Vec<(f64, f64)>;
type BandPoints = Vec<(f64, f64, f64)>;

/// The ECDF `1 - S(t)` of a curve as step points from `start` to `end`, and its band.
pub fn ecdf_steps(c: &Curve, start: f64, end: f64) -> (Steps, BandPoints) {
    steps(&c.km, &c.band, start, end)
}

/// The step points of `1 - S(t)` of `km` and of its `band` (at the same times).
fn steps(km: &KaplanMeier, b: &Band, start: f64, end: f64) -> (Steps, BandPoints) {
    let mut pts = vec![(start, 0.0)];
    let mut band = vec![(start, 0.0, 0.0)];
    for (k, &t) in km.times.iter().enumerate() {
        let x = t.max(start);
        let f = 1.0 - km.survival[k];
        let (lo, hi) = (b.low[k], b.high[k]);
        match pts.last_mut() {
            Some(last) if last.0 == x => {
                last.1 = f;
                if let Some(b) = band.last_mut() {
                    *b = (x, lo, hi);
                }
            }
            _ => {
                pts.push((x, f));
                band.push((x, lo, hi));
            }
        }
    }
    if let (Some(&(x, f)), Some(&(_, lo, hi))) = (pts.last(), band.last()) {
        if x < end {
            pts.push((end, f));
            band.push((end, lo, hi));
        }
    }
    (pts, band)
}

fn panel(data: &Data, surv: &Survival, unit: Unit, s: usize, name: &str) -> LineChart {
    let (start, end) = axis(data, unit);
    let series = (0..data.algorithms.len())
        .filter_map(|a| {
            let c = surv.curve(unit, s, a)?;
            let (pts, band) = ecdf_steps(c, start, end);
            Some(
                Series::new(data.algorithms[a].clone(), pts, Marker::None)
                    .step()
                    .color(a)
                    .band(band),
            )
        })
        .collect();
    LineChart {
        title: crate::reports::quick::title(format!("solved: {name}")),
        x_label: match unit {
            Unit::Evaluations => "evaluations (each algorithm's own unit)".into(),
            Unit::Seconds => data.clock.words().into(),
        },
        y_label: "fraction solved (Kaplan-Meier)".into(),
        x: XAxis::Numeric {
            min: start,
            max: end,
        },
        y_min: Some(0.0),
        y_max: Some(1.0),
        log_y: false,
        log_x: true,
        series,
    }
}

/// compare-ecdf.png (evaluations) and compare-ecdf-seconds.png.
pub fn draw(data: &Data, surv: &Survival, dir: &Path) -> Result<()> {
    let names = data.scope_names();
    for (unit, file) in [
        (Unit::Evaluations, "compare-ecdf"),
        (Unit::Seconds, "compare-ecdf-seconds"),
    ] {
        let panels: Vec<LineChart> = (names.iter().enumerate())
            .map(|(s, name)| panel(data, surv, unit, s, name))
            .collect();
        let columns = panels.len().min(4);
        let rows = panels.len().div_ceil(columns);
        let (svg, png) = (
            dir.join(format!("{file}.svg")),
            dir.join(format!("{file}.png")),
        );
        let (width, height) = (480 * columns as u32, 400 * rows as u32);
        let drawn = render_panels(&panels, columns, width, height, &svg, &png);
        crate::reports::warnings::chart(&svg, &png, drawn)?;
    }
    Ok(())
}

/// The fixed-target ECDF of algorithm `a` for `target` (all puzzles): a run that reached a
/// penalty of at most `target` is an event at the evaluations where it first did, any other
/// run is censored at its last evaluation; with its bootstrap band (puzzles, then runs).
fn target_curve(data: &Data, a: usize, target: u32) -> Result<(KaplanMeier, Band)> {
    let runs: Vec<&super::data::Run> = data.runs_of(a, data.scopes.len()).collect();
    let hits: Vec<f64> = runs
        .iter()
        .map(|r| super::data::hitting_time(r, target))
        .collect();
    let reached: Vec<bool> = hits.iter().map(|h| h.is_finite()).collect();
    let times: Vec<f64> = (runs.iter().zip(&hits))
        .map(|(r, &h)| {
            if h.is_finite() {
                h
            } else {
                r.evaluations as f64
            }
        })
        .collect();
    let mut puzzles: Vec<usize> = runs.iter().map(|r| r.puzzle).collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    let groups: Vec<Vec<usize>> = (puzzles.iter())
        .map(|&p| (0..runs.len()).filter(|&i| runs[i].puzzle == p).collect())
        .collect();
    let key = format!("evaluations/all/{}/target-{target}", data.algorithms[a]);
    let what = || format!("fixed-target runtimes of {key}");
    let km = kaplan_meier(&LifeTable::new(&times, &reached).with_context(what)?, 0.95)
        .with_context(what)?;
    let seed = seed_from(&key);
    let band =
        ecdf_band(&times, &reached, &groups, Scheme::PuzzlesThenRuns, seed).with_context(what)?;
    Ok((km, band))
}

/// compare-targets: the fixed-target ECDFs (Kaplan-Meier, censored as [`target_curve`]) with
/// their bands, one panel per target, from the decade of the first improvement of any run.
pub fn targets(data: &Data, dir: &Path) -> Result<()> {
    let (_, end) = axis(data, Unit::Evaluations);
    let first = (data.runs.iter())
        .filter_map(|r| r.trajectory.first().map(|p| p.0 as f64))
        .filter(|&e| e > 0.0)
        .fold(f64::INFINITY, f64::min);
    let start = if first.is_finite() {
        10f64.powf(first.log10().floor()).max(1.0)
    } else {
        1.0
    };
    let keys: Vec<(u32, usize)> = (super::data::TARGETS.iter())
        .flat_map(|&t| (0..data.algorithms.len()).map(move |a| (t, a)))
        .collect();
    let curves = (keys.par_iter())
        .map(|&(t, a)| target_curve(data, a, t))
        .collect::<Result<Vec<_>>>()?;
    let k = data.algorithms.len();
    let panels: Vec<LineChart> = (super::data::TARGETS.iter().enumerate())
        .map(|(i, t)| {
            let series = (0..k)
                .map(|a| {
                    let (km, band) = &curves[i * k + a];
                    let (pts, b) = steps(km, band, start, end.max(start * 10.0));
                    Series::new(data.algorithms[a].clone(), pts, Marker::None)
                        .step()
                        .color(a)
                        .band(b)
                })
                .collect();
            LineChart {
                title: crate::reports::quick::title(format!("penalty <= {t} (all puzzles)")),
                x_label: "evaluations".into(),
                y_label: "fraction of runs (Kaplan-Meier)".into(),
                x: XAxis::Numeric {
                    min: start,
                    max: end.max(start * 10.0),
                },
                y_min: Some(0.0),
                y_max: Some(1.0),
                log_y: false,
                log_x: true,
                series,
            }
        })
        .collect();
    let columns = panels.len().min(4);
    let rows = panels.len().div_ceil(columns);
    let (svg, png) = (
        dir.join("compare-targets.svg"),
        dir.join("compare-targets.png"),
    );
    let (width, height) = (480 * columns as u32, 400 * rows as u32);
    crate::reports::warnings::chart(
        &svg,
        &png,
        render_panels(&panels, columns, width, height, &svg, &png),
    )
}

/// Half the width of the flat part of the ERT band at each puzzle set (x units: sets).
const ERT_HALF: f64 = 0.15;

/// The ERT band of algorithm `a` over the scopes (x = scope index) in `unit`: flat over
/// `ERT_HALF` either side of each set's point (so a point without neighbours still shows its
/// interval), joined from set to set like the line; a gap where no run solved, so no band is
/// drawn where the chart has no point. An interval open at the top (a resample without a
/// solved run) reaches the top edge.
pub fn ert_band(data: &Data, surv: &Survival, a: usize, unit: Unit) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    for s in 0..=data.scopes.len() {
        let x = s as f64;
        match surv.curve(unit, s, a) {
            Some(c) if c.solved > 0 => {
                let (lo, hi) = c.ert_ci;
                out.extend([(x - ERT_HALF, lo, hi), (x + ERT_HALF, lo, hi)]);
            }
            _ => out.push((x, f64::NAN, f64::NAN)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::data::Run;
    use super::super::survival::Survival;
    use super::*;

    fn run(puzzle: usize, solved: bool, evaluations: u64) -> Run {
        Run {
            algorithm: 0,
            puzzle,
            scope: 0,
            solved,
            evaluations,
            seconds: evaluations as f64 / 1e4,
            wall_seconds: evaluations as f64 / 1e4,
            penalty: 0,
            trajectory: Vec::new(),
            termination: "x".into(),
        }
    }

    #[test]
    fn a_run_that_stopped_before_a_target_is_censored_there() {
        let mut stopped = run(0, false, 300);
        stopped.trajectory = vec![(100, 20), (300, 7)];
        let mut solved = run(1, true, 900);
        solved.trajectory = vec![(100, 20), (500, 3), (900, 0)];
        let data = Data {
            algorithms: vec!["a".into()],
            scopes: vec!["set".into()],
            puzzles: vec!["p0".into(), "p1".into()],
            runs: vec![stopped, solved],
            budget: 1000,
            anytime: true,
            ..Data::default()
        };
        let (km, band) = target_curve(&data, 0, 4).unwrap();
        // Censored at 300, the other run reaches penalty 3 at 500: the estimate reaches 1
        // (the plain ECDF, counting the early stop as never reaching, said 1/2).
        assert_eq!(km.times, vec![300.0, 500.0]);
        assert_eq!(1.0 - km.survival[1], 1.0);
        assert!(band.high.iter().all(|&h| (0.0..=1.0).contains(&h)));
    }

    #[test]
    fn early_stops_leave_the_risk_set_instead_of_counting_as_failures() {
        // 2 puzzles x 4 runs; two unsolved runs stopped early (their own rule) at 50.
        let runs = vec![
            run(0, true, 10),
            run(0, false, 50),
            run(0, true, 100),
            run(0, false, 1000),
            run(1, true, 20),
            run(1, false, 50),
            run(1, true, 200),
            run(1, false, 1000),
        ];
        let data = Data {
            algorithms: vec!["a".into()],
            scopes: vec!["set".into()],
            puzzles: vec!["p0".into(), "p1".into()],
            runs,
            budget: 1000,
            ..Data::default()
        };
        let surv = Survival::compute(&data).unwrap();
        let c = surv.curve(Unit::Evaluations, 0, 0).unwrap();
        let (pts, band) = ecdf_steps(c, 1.0, 1000.0);
        // KM: 1 - S = 1/8, 2/8, then 4 at risk after the two censorings at 50:
        // 1 - 0.75 * 3/4 at 100 and 1 - 0.75 * 3/4 * 2/3 at 200, where the plain ECDF, which
        // counts the early stops as failures, says 3/8 and 4/8.
        let want = [
            (1.0, 0.0),
            (10.0, 0.125),
            (20.0, 0.25),
            (50.0, 0.25),
            (100.0, 0.4375),
            (200.0, 0.625),
            (1000.0, 0.625),
        ];
        assert_eq!(pts.len(), want.len());
        for (p, w) in pts.iter().zip(want) {
            assert!(
                (p.0 - w.0).abs() < 1e-12 && (p.1 - w.1).abs() < 1e-12,
                "{p:?} {w:?}"
            );
        }
        assert!(band.iter().all(|b| 0.0 <= b.1 && b.1 <= b.2 && b.2 <= 1.0));
        assert_eq!(c.median.median.time(), Some(200.0));
        // The report says where Kaplan-Meier ends above the observed success rate (0.625
        // against 4 of 8 here, in seconds as in evaluations).
        let md = super::super::survival::markdown(&data, &surv);
        assert!(
            md.contains("2 of the 2 curves in seconds end above"),
            "{md}"
        );
        assert!(md.contains("0.625 against 4 of 8 runs solved"), "{md}");
        // Both units and the pooled scope get a curve; one algorithm gives no pair.
        assert_eq!(surv.curves.len(), 2 * 2);
        assert!(surv.tests.is_empty());
    }
}
