//! Is a published table possible at all? Checks of a table's own arithmetic, before any of our
//! runs is tested against it, in the spirit of GRIM (N. J. L. Brown and J. A. J. Heathers, "The
//! GRIM test: a simple technique detects numerous anomalies in the reporting of results in
//! psychology", Soc. Psychol. Personal. Sci. 8 (2017) 363-369), GRIMMER (J. Anaya, "The
//! GRIMMER test", PeerJ Preprints 4:e2400v1, 2016) and SPRITE (J. A. J. Heathers et al.,
//! "Recovering data from summary statistics: Sample Parameter Reconstruction via Iterative
//! TEchniques", PeerJ Preprints 6:e26968v1, 2018): given what a row prints (n values, their
//! minimum, median, maximum, mean and SD), which values could a sample of n numbers have?
//!
//! Every function is pure. A check returns a [`Check`]: [`Verdict::Ok`] or
//! [`Verdict::Impossible`], the range the printed value had to fall in, and the arithmetic in
//! words. Bad arguments (n = 0, a value that is not a finite number) are a [`StatsError`].
//!
//! - Rounding: a value printed with `d` decimals stands for the closed interval of half a unit
//!   of its last digit either side ([`Printed`]); closed, so that either rule for ties (half
//!   up, half to even) is allowed. A value is impossible only if no value of that interval is.
//! - [`Scale::Integer`]: the values are whole numbers (generations, rounds, counts), so their
//!   sum is a whole number, the median of an odd count is one of them and the median of an
//!   even count (the mean of the two middle values) is a multiple of one half.
//!   [`Scale::Real`]: any real numbers. The minimum and the maximum are taken as printed.
//! - SD: the paper seldom says whether it divides by `n - 1` (sample) or by `n` (population),
//!   so [`check_sd`] and [`check_grimmer`] try both and call a printed SD impossible only when
//!   it is impossible under both.
//!
//! The bounds are exact (attained by a sample this module names), and tested against every
//! whole-number sample of a few values by enumeration.

use crate::StatsError;

/// What the values behind a printed statistic are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Whole numbers (generations, rounds, counts of boards).
    Integer,
    /// Any real numbers.
    Real,
}

/// Which standard deviation a paper prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SdKind {
    /// Divided by `n - 1`.
    Sample,
    /// Divided by `n`.
    Population,
}

impl SdKind {
    /// How the kind is named in words.
    pub fn name(self) -> &'static str {
        match self {
            SdKind::Sample => "sample SD (n - 1)",
            SdKind::Population => "population SD (n)",
        }
    }
}

/// A printed number: its value and the decimals it was printed with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Printed {
    pub value: f64,
    pub decimals: u32,
}

impl Printed {
    /// The value printed with `decimals` decimals.
    pub fn new(value: f64, decimals: u32) -> Printed {
        Printed { value, decimals }
    }

    /// A printed number read from its text ("40466.13": two decimals). With `padded`, trailing
    /// zeros of the decimals are not taken as digits ("20534.30" stands for 20534.3 +- 0.05):
    /// a table may pad values copied from a source printed with fewer decimals, and the
    /// coarser reading only widens the interval, so it never makes a value impossible. None
    /// for text that is not a plain decimal number.
    pub fn parse(text: &str, padded: bool) -> Option<Printed> {
        let t = text.trim();
        let digits = t.strip_prefix('-').unwrap_or(t);
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let plain = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !plain(whole) || !plain(frac) || frac.len() > 15 {
            return None;
        }
        let frac = if padded {
            frac.trim_end_matches('0')
        } else {
            frac
        };
        let value: f64 = t.parse().ok()?;
        value.is_finite().then_some(Printed {
            value,
            decimals: frac.len() as u32,
        })
    }

    /// A value known exactly (a minimum or maximum of whole numbers printed in full).
    pub fn exact(value: f64) -> Printed {
        Printed {
            value,
            decimals: EXACT,
        }
    }

    /// Half a unit of the last printed digit (0 for an exact value).
    pub fn half_unit(&self) -> f64 {
        if self.decimals == EXACT {
            return 0.0;
        }
        0.5 * 10f64.powi(-(self.decimals.min(300) as i32))
    }

    /// The closed interval of the values this one stands for.
    pub fn interval(&self) -> (f64, f64) {
        let h = self.half_unit();
        (self.value - h, self.value + h)
    }

    /// The value as printed.
    pub fn text(&self) -> String {
        if self.decimals == EXACT {
            return num(self.value);
        }
        format!("{:.*}", self.decimals.min(20) as usize, self.value)
    }
}

/// The decimals of an exact [`Printed`] value.
const EXACT: u32 = u32::MAX;

/// The verdict of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Some sample has the printed values.
    Ok,
    /// No sample has them.
    Impossible,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Impossible => "impossible",
        }
    }
}

/// The result of one check: its verdict, the range the printed value had to fall in, and the
/// arithmetic in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub verdict: Verdict,
    /// The smallest and largest value the other printed values allow (for GRIM: the nearest
    /// reachable means below and above the printed one).
    pub bound: (f64, f64),
    pub arithmetic: String,
}

impl Check {
    fn new(ok: bool, bound: (f64, f64), arithmetic: String) -> Check {
        Check {
            verdict: if ok { Verdict::Ok } else { Verdict::Impossible },
            bound,
            arithmetic,
        }
    }
}

/// A sample written as (how many, value) pairs: the extreme samples the bounds come from.
pub type Sample = Vec<(u64, f64)>;

fn finite(what: &'static str, value: f64) -> Result<(), StatsError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(StatsError::InvalidValue { what, value })
    }
}

fn positive(n: u64) -> Result<(), StatsError> {
    if n == 0 {
        Err(StatsError::TooFewObservations {
            sample: "table row",
            n: 0,
            min: 1,
        })
    } else {
        Ok(())
    }
}

fn is_whole(x: f64) -> bool {
    x.fract() == 0.0
}

/// The slack of comparisons of computed bounds with printed intervals: a verdict of
/// "impossible" must not come from floating-point rounding, so every comparison gives way by
/// this much (relative).
fn slack(x: f64) -> f64 {
    1e-9 * x.abs().max(1.0)
}

/// The sum of a sample.
pub fn sample_sum(s: &Sample) -> f64 {
    s.iter().map(|&(k, v)| k as f64 * v).sum()
}

/// A sample in words: "7 x 3699 + 8 x 33760 + 1 x 45676 = 341649".
fn sample_words(s: &Sample) -> String {
    let terms: Vec<String> = s
        .iter()
        .map(|&(k, v)| format!("{k} x {}", num(v)))
        .collect();
    format!("{} = {}", terms.join(" + "), num(sample_sum(s)))
}

/// A number in words: whole numbers without decimals, others with up to 4.
pub fn num(x: f64) -> String {
    if is_whole(x) && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A sample without empty terms, equal neighbouring values merged.
fn normalized(s: Sample) -> Sample {
    let mut out: Sample = Vec::new();
    for (k, v) in s.into_iter().filter(|&(k, _)| k > 0) {
        match out.last_mut() {
            Some(last) if last.1 == v => last.0 += k,
            _ => out.push((k, v)),
        }
    }
    out
}

/// The samples of `n` values with minimum `min`, median `median` and maximum `max` (all exact)
/// whose sums are the smallest and the largest: None when no sample has these three values
/// (out of order; n = 1 with unequal values; n = 2 with a median other than the midpoint; on
/// the integer scale, a value that is not whole or a median that is not a multiple of one half
/// for an even count, of one for an odd count).
///
/// With `L = floor((n - 1) / 2)` values below the median's position (the minimum among them)
/// and the others above it (the maximum among them): the smallest sum puts the `L` lower values
/// at the minimum and the upper ones but the maximum at the median, the largest puts the lower
/// ones but the minimum at the median and the upper ones at the maximum. For an even count of
/// whole numbers with a median halfway between two whole numbers, the two middle values are
/// the median minus and plus one half.
pub fn extreme_samples(
    n: u64,
    min: f64,
    median: f64,
    max: f64,
    scale: Scale,
) -> Option<(Sample, Sample)> {
    if !(min <= median && median <= max) || n == 0 {
        return None;
    }
    if scale == Scale::Integer {
        let grid = if n.is_multiple_of(2) { 2.0 } else { 1.0 };
        if !is_whole(min) || !is_whole(max) || !is_whole(median * grid) {
            return None;
        }
    }
    match n {
        1 => (min == max).then(|| (vec![(1, min)], vec![(1, min)])),
        2 => (median * 2.0 == min + max).then(|| {
            let s = vec![(1, min), (1, max)];
            (s.clone(), s)
        }),
        _ if n % 2 == 1 => {
            let m = n / 2;
            Some((
                normalized(vec![(m, min), (m, median), (1, max)]),
                normalized(vec![(1, min), (m, median), (m, max)]),
            ))
        }
        _ => {
            let m = n / 2;
            if scale == Scale::Integer && !is_whole(median) {
                let (below, above) = (median - 0.5, median + 0.5);
                Some((
                    normalized(vec![(m - 1, min), (1, below), (m - 1, above), (1, max)]),
                    normalized(vec![(1, min), (m - 1, below), (1, above), (m - 1, max)]),
                ))
            } else {
                Some((
                    normalized(vec![(m - 1, min), (m, median), (1, max)]),
                    normalized(vec![(1, min), (m, median), (m - 1, max)]),
                ))
            }
        }
    }
}

/// The medians a printed median stands for that `n` values from `min` to `max` can have, as
/// the smallest and the largest of them: on the integer scale the multiples of one half (even
/// `n`) or whole numbers (odd `n`) inside its interval. None when there is none.
fn median_range(n: u64, min: f64, median: Printed, max: f64, scale: Scale) -> Option<(f64, f64)> {
    let (lo, hi) = median.interval();
    let (lo, hi) = (lo.max(min), hi.min(max));
    if n <= 2 {
        // One value or two: the median is forced.
        let forced = if n == 1 { min } else { (min + max) / 2.0 };
        return (lo - slack(forced) <= forced && forced <= hi + slack(forced))
            .then_some((forced, forced));
    }
    let grid = match scale {
        Scale::Real => return (lo <= hi).then_some((lo, hi)),
        Scale::Integer if n.is_multiple_of(2) => 2.0,
        Scale::Integer => 1.0,
    };
    let (first, last) = ((lo * grid).ceil() / grid, (hi * grid).floor() / grid);
    (first <= last).then_some((first, last))
}

/// The smallest and the largest mean of `n` values with minimum `min`, maximum `max` and a
/// median the printed `median` stands for (no median: any), with the samples that have them.
/// None when no such sample exists.
pub fn mean_bounds(
    n: u64,
    min: f64,
    median: Option<Printed>,
    max: f64,
    scale: Scale,
) -> Option<((f64, Sample), (f64, Sample))> {
    let (lo_sample, hi_sample) = match median {
        Some(m) => {
            let (first, last) = median_range(n, min, m, max, scale)?;
            (
                extreme_samples(n, min, first, max, scale)?.0,
                extreme_samples(n, min, last, max, scale)?.1,
            )
        }
        None if n == 1 => {
            let s = (min == max).then(|| vec![(1, min)])?;
            (s.clone(), s)
        }
        None => {
            if min > max || (scale == Scale::Integer && !(is_whole(min) && is_whole(max))) {
                return None;
            }
            (vec![(n - 1, min), (1, max)], vec![(1, min), (n - 1, max)])
        }
    };
    let mean = |s: &Sample| sample_sum(s) / n as f64;
    Some(((mean(&lo_sample), lo_sample), (mean(&hi_sample), hi_sample)))
}

/// Can `n` values with the printed minimum, median (if printed) and maximum have the printed
/// mean? Impossible when the mean's interval lies wholly outside [`mean_bounds`].
pub fn check_mean(
    n: u64,
    min: f64,
    median: Option<Printed>,
    max: f64,
    mean: Printed,
    scale: Scale,
) -> Result<Check, StatsError> {
    positive(n)?;
    for (what, v) in [("minimum", min), ("maximum", max), ("mean", mean.value)] {
        finite(what, v)?;
    }
    if let Some(m) = median {
        finite("median", m.value)?;
    }
    let what = match median {
        Some(m) => format!(
            "{n} values from {} to {} with median {}",
            num(min),
            num(max),
            m.text()
        ),
        None => format!("{n} values from {} to {}", num(min), num(max)),
    };
    let (m_lo, m_hi) = mean.interval();
    let Some(((lo, lo_s), (hi, hi_s))) = mean_bounds(n, min, median, max, scale) else {
        return Ok(Check::new(
            false,
            (f64::NAN, f64::NAN),
            format!("no sample of {what} exists{}", scale_words(scale)),
        ));
    };
    let ok = m_hi >= lo - slack(lo) && m_lo <= hi + slack(hi);
    let side = if m_hi < lo { "below" } else { "above" };
    let arithmetic = format!(
        "{what}{}: the mean lies from {} ({} over {n}) to {} ({} over {n}); printed {} ({} to {}){}",
        scale_words(scale),
        num(lo),
        sample_words(&lo_s),
        num(hi),
        sample_words(&hi_s),
        mean.text(),
        num(m_lo),
        num(m_hi),
        if ok {
            String::new()
        } else {
            format!(", {side} every possible mean")
        }
    );
    Ok(Check::new(ok, (lo, hi), arithmetic))
}

fn scale_words(scale: Scale) -> &'static str {
    match scale {
        Scale::Integer => " (whole numbers)",
        Scale::Real => "",
    }
}

/// GRIM: the mean of `n` whole numbers is `k / n` for a whole `k`; is any such mean inside the
/// printed mean's interval? Always ok when `1 / n` is no coarser than the printed digits.
pub fn check_grim(n: u64, mean: Printed) -> Result<Check, StatsError> {
    positive(n)?;
    finite("mean", mean.value)?;
    let (m_lo, m_hi) = mean.interval();
    let nf = n as f64;
    let k_lo = (nf * m_lo - slack(nf * m_lo)).ceil();
    let ok = k_lo / nf <= m_hi + slack(m_hi);
    let below = (nf * mean.value).floor();
    let bound = (below / nf, (below + 1.0) / nf);
    let arithmetic = if ok {
        format!(
            "the mean of {n} whole numbers is k/{n}: {}/{n} = {} lies in {} to {} (printed {})",
            num(k_lo),
            num(k_lo / nf),
            num(m_lo),
            num(m_hi),
            mean.text()
        )
    } else {
        format!(
            "the mean of {n} whole numbers is k/{n}: the nearest, {}/{n} = {} and {}/{n} = {}, are both outside {} to {} (printed {})",
            num(below),
            num(bound.0),
            num(below + 1.0),
            num(bound.1),
            num(m_lo),
            num(m_hi),
            mean.text()
        )
    };
    Ok(Check::new(ok, bound, arithmetic))
}

/// The largest sum of squares of `n` values from `min` to `max` (both among them) summing to
/// `sum`, and the sample: the values but the two extremes at the minimum or the maximum, one
/// between (the maximum of a convex function over a box cut by a plane is at a vertex, which
/// has at most one coordinate inside its range). `sum` must lie in the feasible range.
fn max_squares(n: u64, min: f64, max: f64, sum: f64) -> (f64, Sample) {
    let p = n - 2;
    let w = max - min;
    let t = sum - min - max - p as f64 * min;
    if w <= 0.0 {
        return (n as f64 * min * min, vec![(n, min)]);
    }
    let k = ((t / w).floor().max(0.0) as u64).min(p);
    let r = (t - k as f64 * w).max(0.0);
    let sample = if k == p {
        vec![(1, min), (p + 1, max)]
    } else {
        // The lowest value and p - k - 1 others at the minimum, one at min + r.
        vec![(p - k, min), (1, min + r), (k + 1, max)]
    };
    let sample = normalized(sample);
    (squares(&sample), sample)
}

/// The smallest sum of squares of `n` values from `min` to `max` (both among them) summing to
/// `sum`: the others as equal as they can be (equal reals; whole numbers differing by at most
/// one).
fn min_squares(n: u64, min: f64, max: f64, sum: f64, scale: Scale) -> (f64, Sample) {
    let p = n - 2;
    let t = sum - min - max;
    let sample = match scale {
        Scale::Real => vec![(1, min), (p, t / p as f64), (1, max)],
        Scale::Integer => {
            let q = (t / p as f64).floor();
            let r = (t - q * p as f64).round() as u64;
            vec![(1, min), (p - r, q), (r, q + 1.0), (1, max)]
        }
    };
    let sample = normalized(sample);
    (squares(&sample), sample)
}

fn squares(s: &Sample) -> f64 {
    s.iter().map(|&(k, v)| k as f64 * v * v).sum()
}

/// The variance of a sample of `n` values with sum `sum` and sum of squares `ss`.
fn variance(n: u64, sum: f64, ss: f64, kind: SdKind) -> f64 {
    let nf = n as f64;
    let df = match kind {
        SdKind::Sample => nf - 1.0,
        SdKind::Population => nf,
    };
    ((ss - sum * sum / nf) / df).max(0.0)
}

/// The most sums [`sd_bounds`] enumerates; beyond, it uses a looser bound that still holds.
const MAX_ENUMERATED: f64 = 1e6;

/// The smallest and largest SD of `n >= 2` values from `min` to `max` (both among them) whose
/// sum lies in `[sum_lo, sum_hi]`, with the samples that have them. None when no sum of the
/// range is possible (below `(n - 1) min + max` or above `min + (n - 1) max`; on the integer
/// scale, no whole sum in the range or values that are not whole).
///
/// Largest: [`max_squares`] is convex in the sum between the sums at which a value reaches the
/// maximum, so the largest variance is at an end of the range or at one of those sums. Smallest:
/// for reals the variance is convex in the sum, least at `n (min + max) / 2` (clamped to the
/// range); for whole numbers every whole sum near it that can be smallest is tried (beyond
/// [`MAX_ENUMERATED`] of them, the reals' bound, which is no larger).
pub fn sd_bounds(
    n: u64,
    min: f64,
    max: f64,
    (sum_lo, sum_hi): (f64, f64),
    kind: SdKind,
    scale: Scale,
) -> Option<((f64, Sample), (f64, Sample))> {
    if n < 2 || min > max {
        return None;
    }
    let nf = n as f64;
    let (feasible_lo, feasible_hi) = ((nf - 1.0) * min + max, min + (nf - 1.0) * max);
    let (mut lo, mut hi) = (sum_lo.max(feasible_lo), sum_hi.min(feasible_hi));
    if scale == Scale::Integer {
        if !is_whole(min) || !is_whole(max) {
            return None;
        }
        (lo, hi) = (lo.ceil(), hi.floor());
    }
    if lo > hi {
        return None;
    }
    let sd = |sum: f64, ss: f64| variance(n, sum, ss, kind).sqrt();
    if n == 2 {
        let s = vec![(1, min), (1, max)];
        let v = sd(min + max, squares(&s));
        return Some(((v, s.clone()), (v, s)));
    }
    // Largest: the ends and the breakpoints between them.
    let w = max - min;
    let base = (nf - 1.0) * min + max;
    let mut candidates = vec![lo, hi];
    if w > 0.0 {
        let (j_lo, j_hi) = (((lo - base) / w).ceil(), ((hi - base) / w).floor());
        if j_hi - j_lo <= MAX_ENUMERATED {
            let mut j = j_lo;
            while j <= j_hi {
                candidates.push(base + j * w);
                j += 1.0;
            }
        }
    }
    let largest = candidates
        .iter()
        .map(|&s| {
            let (ss, sample) = max_squares(n, min, max, s);
            (sd(s, ss), sample)
        })
        .fold(None, |best: Option<(f64, Sample)>, c| match best {
            Some(b) if b.0 >= c.0 => Some(b),
            _ => Some(c),
        })?;
    // Smallest: for reals at the clamped stationary sum; for whole numbers the reals' bound
    // is at most p / 4 (in sums of squares) below theirs and grows by at least 2 d^2 / (p n)
    // at d from that sum, so only the whole sums within `window` of it can be smallest.
    let p = nf - 2.0;
    let centre = (nf * (min + max) / 2.0).clamp(lo, hi);
    let window = ((p / 4.0 + 1.0) * p * nf / 2.0).sqrt().ceil() + 2.0;
    let (s_lo, s_hi) = (
        (centre - window).ceil().max(lo),
        (centre + window).floor().min(hi),
    );
    let smallest = match scale {
        Scale::Integer if s_hi - s_lo <= MAX_ENUMERATED => {
            let mut best: Option<(f64, Sample)> = None;
            let mut s = s_lo;
            while s <= s_hi {
                let (ss, sample) = min_squares(n, min, max, s, scale);
                let v = sd(s, ss);
                if best.as_ref().is_none_or(|b| v < b.0) {
                    best = Some((v, sample));
                }
                s += 1.0;
            }
            best?
        }
        _ => {
            let (ss, sample) = min_squares(n, min, max, centre, Scale::Real);
            (sd(centre, ss), sample)
        }
    };
    Some((smallest, largest))
}

/// Can `n` values from `min` to `max` with the printed mean have the printed SD (sample or
/// population)? The sums the printed mean stands for are those of its interval times `n`;
/// when none is possible (the mean itself is impossible), every sum the extremes allow is
/// used, and the words say so.
pub fn check_sd(
    n: u64,
    min: f64,
    max: f64,
    mean: Printed,
    sd: Printed,
    scale: Scale,
) -> Result<Check, StatsError> {
    positive(n)?;
    for (what, v) in [
        ("minimum", min),
        ("maximum", max),
        ("mean", mean.value),
        ("sd", sd.value),
    ] {
        finite(what, v)?;
    }
    let nf = n as f64;
    let (m_lo, m_hi) = mean.interval();
    let (sd_lo, sd_hi) = sd.interval();
    let what = format!(
        "{n} values from {} to {}{}",
        num(min),
        num(max),
        scale_words(scale)
    );
    if n == 1 {
        let ok = sd_lo <= 0.0;
        return Ok(Check::new(
            ok,
            (0.0, 0.0),
            format!(
                "one value has no sample SD and a population SD of 0; printed {}",
                sd.text()
            ),
        ));
    }
    let mut note = format!(" with mean {}", mean.text());
    let mut sums = (nf * m_lo, nf * m_hi);
    let bounds = |sums| {
        [SdKind::Sample, SdKind::Population].map(|k| (k, sd_bounds(n, min, max, sums, k, scale)))
    };
    let mut found = bounds(sums);
    if found.iter().any(|(_, b)| b.is_none()) {
        note = format!(
            " (the printed mean {} is not possible for them: every mean they allow is tried)",
            mean.text()
        );
        sums = (f64::NEG_INFINITY, f64::INFINITY);
        found = bounds(sums);
    }
    let mut parts = Vec::new();
    let (mut ok, mut bound) = (false, (f64::INFINITY, f64::NEG_INFINITY));
    for (kind, b) in &found {
        let Some(((small, small_s), (large, large_s))) = b else {
            parts.push(format!("no {} exists", kind.name()));
            continue;
        };
        let fits = sd_hi >= small - slack(*small) && sd_lo <= large + slack(*large);
        ok |= fits;
        bound = (bound.0.min(*small), bound.1.max(*large));
        parts.push(format!(
            "the {} lies from {} ({}) to {} ({})",
            kind.name(),
            num(*small),
            sample_words(small_s),
            num(*large),
            sample_words(large_s)
        ));
    }
    let tail = if ok {
        String::new()
    } else if sd_lo > bound.1 {
        ", above both".to_string()
    } else {
        ", below both".to_string()
    };
    let arithmetic = format!(
        "{what}{note}: {}; printed {} ({} to {}){tail}",
        parts.join("; "),
        sd.text(),
        num(sd_lo),
        num(sd_hi)
    );
    Ok(Check::new(ok, bound, arithmetic))
}

/// GRIMMER: `n` whole numbers with sum `k` have a whole sum of squares `Q` of the parity of `k`
/// (x^2 and x are both odd or both even), and their variance is `(Q - k^2 / n) / (n - 1)`
/// (sample) or `/ n` (population). Is there a `k` within the printed mean's interval times `n`
/// and such a `Q` whose SD lies in the printed SD's interval? Always ok when the SD's interval
/// spans two or more whole values of `Q` for every `k` (large SDs); beyond [`MAX_ENUMERATED`]
/// sums, not decided (ok).
pub fn check_grimmer(n: u64, mean: Printed, sd: Printed) -> Result<Check, StatsError> {
    positive(n)?;
    finite("mean", mean.value)?;
    finite("sd", sd.value)?;
    let nf = n as f64;
    let (m_lo, m_hi) = mean.interval();
    let (sd_lo, sd_hi) = sd.interval();
    let (k_lo, k_hi) = (
        (nf * m_lo - slack(nf * m_lo)).ceil(),
        (nf * m_hi + slack(nf * m_hi)).floor(),
    );
    if k_lo > k_hi || k_hi - k_lo > MAX_ENUMERATED || n < 2 {
        return Ok(Check::new(
            true,
            (sd_lo, sd_hi),
            format!(
                "not decided: {} (printed mean {}, SD {})",
                if n < 2 {
                    "one value"
                } else if k_lo > k_hi {
                    "no whole sum has the printed mean (see GRIM)"
                } else {
                    "too many sums"
                },
                mean.text(),
                sd.text()
            ),
        ));
    }
    let sd_lo = sd_lo.max(0.0);
    let mut k = k_lo;
    let mut seen: Option<(f64, f64, SdKind)> = None;
    while k <= k_hi && seen.is_none() {
        for kind in [SdKind::Sample, SdKind::Population] {
            let df = if kind == SdKind::Sample { nf - 1.0 } else { nf };
            let base = k * k / nf;
            let (q_lo, q_hi) = (df * sd_lo * sd_lo + base, df * sd_hi * sd_hi + base);
            let mut q = (q_lo - slack(q_lo)).ceil();
            if (q - k).rem_euclid(2.0) != 0.0 {
                q += 1.0;
            }
            if q <= q_hi + slack(q_hi) && seen.is_none() {
                seen = Some((k, q, kind));
            }
        }
        k += 1.0;
    }
    let arithmetic = match seen {
        Some((k, q, kind)) => format!(
            "{n} whole numbers with sum {} and sum of squares {} have the {} {} (printed {}, mean {})",
            num(k),
            num(q),
            kind.name(),
            num(variance(n, k, q, kind).sqrt()),
            sd.text(),
            mean.text()
        ),
        None => format!(
            "{n} whole numbers with a sum from {} to {} (mean {}) have no whole sum of squares of that sum's parity whose sample or population SD lies in {} to {} (printed {})",
            num(k_lo),
            num(k_hi),
            mean.text(),
            num(sd_lo),
            num(sd_hi),
            sd.text()
        ),
    };
    Ok(Check::new(seen.is_some(), (sd_lo, sd_hi), arithmetic))
}

/// The printed values must be in order: `values` as (name, printed) from the smallest to the
/// largest, each allowed its rounding.
pub fn check_order(values: &[(&str, Printed)]) -> Check {
    let names: Vec<&str> = values.iter().map(|v| v.0).collect();
    let bad = values
        .windows(2)
        .find(|w| w[0].1.interval().0 > w[1].1.interval().1);
    let shown: Vec<String> = values
        .iter()
        .map(|(n, p)| format!("{n} {}", p.text()))
        .collect();
    let bound = (
        values.first().map_or(f64::NAN, |v| v.1.value),
        values.last().map_or(f64::NAN, |v| v.1.value),
    );
    match bad {
        None => Check::new(
            true,
            bound,
            format!("{} are in order: {}", names.join(" <= "), shown.join(", ")),
        ),
        Some(w) => Check::new(
            false,
            bound,
            format!(
                "{} must be at most {}, but {} > {}",
                w[0].0,
                w[1].0,
                w[0].1.text(),
                w[1].1.text()
            ),
        ),
    }
}

/// A count of successes must be at most the runs.
pub fn check_count(count: u64, runs: u64) -> Check {
    let ok = count <= runs && runs > 0;
    let arithmetic = if ok {
        format!("{count} of {runs} runs")
    } else {
        format!("{count} successes of {runs} runs is more than there were")
    };
    Check::new(ok, (0.0, runs as f64), arithmetic)
}

/// An expected time to success printed with the time per run and the success count: `ets =
/// time x runs / count`, with the rounding of the two printed times.
pub fn check_ets(ets: Printed, time: Printed, count: u64, runs: u64) -> Result<Check, StatsError> {
    finite("ets", ets.value)?;
    finite("time", time.value)?;
    if count == 0 || runs == 0 || count > runs {
        return Err(StatsError::InvalidValue {
            what: "success count",
            value: count as f64,
        });
    }
    let f = runs as f64 / count as f64;
    let (t_lo, t_hi) = time.interval();
    let (e_lo, e_hi) = ets.interval();
    let bound = (t_lo * f, t_hi * f);
    let ok = e_hi >= bound.0 - slack(bound.0) && e_lo <= bound.1 + slack(bound.1);
    let arithmetic = format!(
        "time per run {} ({} to {}) x {runs} / {count} = {} to {}; printed {} ({} to {})",
        time.text(),
        num(t_lo),
        num(t_hi),
        num(bound.0),
        num(bound.1),
        ets.text(),
        num(e_lo),
        num(e_hi)
    );
    Ok(Check::new(ok, bound, arithmetic))
}

#[cfg(test)]
mod tests;
