//! Axis ranges, tick positions and tick labels.
//!
//! Positions are in "axis space": the data value itself for linear axes and
//! `log10(value)` for logarithmic ones.

/// A closed interval of axis space with `lo < hi` (both finite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Span {
    pub lo: f64,
    pub hi: f64,
}

impl Span {
    /// Position of `v` inside the span: 0 at `lo`, 1 at `hi`.
    pub fn frac(&self, v: f64) -> f64 {
        (v - self.lo) / (self.hi - self.lo)
    }
}

/// One tick mark; `label` is `None` for unlabelled (minor) ticks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    pub pos: f64,
    pub label: Option<String>,
}

/// Most ticks any axis gets, whatever the input.
const MAX_TICKS: usize = 60;

/// Chooses the y range (in axis space) from the data extent and the fixed
/// ends the caller asked for. Free ends get 5% of the span as headroom; a
/// free lower end of non-negative linear data is not pushed below zero.
pub(crate) fn auto_range(
    data: Option<(f64, f64)>,
    fixed_lo: Option<f64>,
    fixed_hi: Option<f64>,
    log: bool,
) -> Result<Span, String> {
    if let (Some(lo), Some(hi)) = (fixed_lo, fixed_hi) {
        return if lo < hi {
            Ok(Span { lo, hi })
        } else {
            Err(format!("y_min ({lo}) must be smaller than y_max ({hi})"))
        };
    }
    let (mut dlo, mut dhi) = data.unwrap_or((0.0, 1.0));
    if let Some(lo) = fixed_lo {
        dlo = lo;
        dhi = dhi.max(lo);
    }
    if let Some(hi) = fixed_hi {
        dhi = hi;
        dlo = dlo.min(hi);
    }
    let magnitude = dlo.abs().max(dhi.abs());
    let mut span = dhi - dlo;
    if span <= magnitude * 1e-9 || span == 0.0 {
        // All values (nearly) equal: open a window around them.
        let w = if log {
            0.5
        } else if magnitude == 0.0 {
            1.0
        } else {
            magnitude * 0.1
        };
        match (fixed_lo, fixed_hi) {
            (Some(_), _) => dhi = dlo + w,
            (_, Some(_)) => dlo = dhi - w,
            _ => {
                dlo -= w;
                dhi += w;
            }
        }
        span = dhi - dlo;
    }
    let pad = 0.05 * span;
    let mut lo = fixed_lo.unwrap_or(dlo - pad);
    let hi = fixed_hi.unwrap_or(dhi + pad);
    if !log && fixed_lo.is_none() && dlo >= 0.0 && lo < 0.0 {
        lo = 0.0;
    }
    if lo.is_finite() && hi.is_finite() && lo < hi && (hi - lo).is_finite() {
        Ok(Span { lo, hi })
    } else {
        Err(format!(
            "cannot build a finite y range from [{dlo}, {dhi}] (values too large?)"
        ))
    }
}

/// A "nice" step (1, 2, 2.5 or 5 times a power of ten) giving at most
/// about `target` intervals over `span`.
pub(crate) fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let m = if norm <= 1.0 + 1e-9 {
        1.0
    } else if norm <= 2.0 + 1e-9 {
        2.0
    } else if norm <= 2.5 + 1e-9 {
        2.5
    } else if norm <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Evenly spaced labelled ticks at multiples of a nice step inside `[lo, hi]`.
pub(crate) fn linear_ticks(lo: f64, hi: f64, target: usize) -> Vec<Tick> {
    let span = hi - lo;
    if !span.is_finite() || span <= 0.0 {
        return Vec::new();
    }
    let step = nice_step(span, target);
    if !step.is_finite() || step <= 0.0 {
        return Vec::new();
    }
    let fmt = LinearFormat::new(lo, hi, step);
    let first = (lo / step - 1e-9).ceil();
    let mut ticks: Vec<Tick> = Vec::new();
    for i in 0..MAX_TICKS {
        let mut v = (first + i as f64) * step;
        if v > hi + step * 1e-9 {
            break;
        }
        if v.abs() < step * 1e-9 {
            v = 0.0;
        }
        if ticks.last().is_some_and(|t| t.pos >= v) {
            break; // no progress: step below the precision of the values
        }
        ticks.push(Tick {
            pos: v,
            label: Some(fmt.format(v)),
        });
    }
    ticks
}

/// Formats the labels of one linear axis with a common precision.
struct LinearFormat {
    decimals: usize,
    scientific: bool,
}

impl LinearFormat {
    fn new(lo: f64, hi: f64, step: f64) -> Self {
        let step_exp = step.log10().floor();
        let mantissa = step / 10f64.powf(step_exp);
        let extra = usize::from((mantissa - 2.5).abs() < 1e-6);
        let magnitude = lo.abs().max(hi.abs());
        let scientific = magnitude >= 1e6 || (magnitude > 0.0 && magnitude < 1e-3);
        let decimals = if scientific {
            let mag_exp = magnitude.log10().floor();
            (mag_exp - step_exp).clamp(0.0, 15.0) as usize + extra
        } else {
            (-step_exp).clamp(0.0, 15.0) as usize + extra
        };
        Self {
            decimals,
            scientific,
        }
    }

    fn format(&self, v: f64) -> String {
        if v == 0.0 && self.scientific {
            return "0".to_string();
        }
        let s = if self.scientific {
            format!("{:.*e}", self.decimals, v)
        } else {
            format!("{:.*}", self.decimals, v)
        };
        if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
            s[1..].to_string() // "-0.0" -> "0.0"
        } else {
            s
        }
    }
}

/// Ticks of a logarithmic axis over `[lo, hi]` (log10 space). Returns the
/// labelled major ticks and unlabelled minor tick positions.
pub(crate) fn log_ticks(lo: f64, hi: f64, target: usize) -> (Vec<Tick>, Vec<f64>) {
    let eps = 1e-9;
    let k0 = (lo - eps).ceil();
    let k1 = (hi + eps).floor();
    let powers = if k1 >= k0 { k1 - k0 + 1.0 } else { 0.0 };
    if hi - lo < 2.5 {
        // A short range: 1-2-5 steps if they give a sensible number of ticks.
        let mut cands = Vec::new();
        let mut k = (lo - eps).floor();
        let sci = !plain_power(k) || !plain_power((hi + eps).floor());
        while k <= (hi + eps).ceil() {
            for m in [1.0f64, 2.0, 5.0] {
                let p = k + m.log10();
                if p >= lo - eps && p <= hi + eps {
                    cands.push(Tick {
                        pos: p,
                        label: Some(format_mantissa_power(m, k, sci)),
                    });
                }
            }
            k += 1.0;
        }
        if cands.len() >= 3 && cands.len() <= target + 2 {
            return (cands, minor_ticks(lo, hi, &[3, 4, 6, 7, 8, 9]));
        }
    }
    if powers >= 2.0 {
        let every = nice_step(k1 - k0, target).ceil().max(1.0);
        let mut major = Vec::new();
        let mut k = (k0 / every).ceil() * every;
        let sci = !plain_power(k) || !plain_power(k1);
        while k <= k1 && major.len() < MAX_TICKS {
            major.push(Tick {
                pos: k,
                label: Some(format_mantissa_power(1.0, k, sci)),
            });
            k += every;
        }
        let minor = if every == 1.0 && powers <= 12.0 {
            minor_ticks(lo, hi, &[2, 3, 4, 5, 6, 7, 8, 9])
        } else {
            Vec::new()
        };
        return (major, minor);
    }
    // Narrow range: plain linear ticks in value space.
    let (vlo, vhi) = (10f64.powf(lo), 10f64.powf(hi));
    let major = linear_ticks(vlo, vhi, target.min(6))
        .into_iter()
        .filter(|t| t.pos > 0.0)
        .map(|t| Tick {
            pos: t.pos.log10(),
            label: t.label,
        })
        .collect();
    (major, Vec::new())
}

/// Positions of `m * 10^k` for the given multipliers inside `[lo, hi]`
/// (only called for ranges of a few decades).
fn minor_ticks(lo: f64, hi: f64, multipliers: &[u32]) -> Vec<f64> {
    let eps = 1e-9;
    let mut out = Vec::new();
    let mut k = (lo - eps).floor();
    while k <= hi + eps && out.len() < 200 {
        for &m in multipliers {
            let p = k + f64::from(m).log10();
            if p >= lo - eps && p <= hi + eps {
                out.push(p);
            }
        }
        k += 1.0;
    }
    out
}

/// Whether `10^k` is written out ("0.001", "10000") rather than as "1e7".
fn plain_power(k: f64) -> bool {
    (-4.0..=5.0).contains(&k)
}

/// `m * 10^k` (m in {1, 2, 5}), written out unless `sci`.
fn format_mantissa_power(m: f64, k: f64, sci: bool) -> String {
    if !sci && plain_power(k) {
        let decimals = (-k).max(0.0) as usize;
        format!("{:.*}", decimals, m * 10f64.powf(k))
    } else {
        format!("{m}e{}", k as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &[Tick]) -> Vec<String> {
        t.iter().filter_map(|t| t.label.clone()).collect()
    }

    #[test]
    fn linear_ticks_are_nice() {
        assert_eq!(
            labels(&linear_ticks(0.0, 105.0, 6)),
            ["0", "20", "40", "60", "80", "100"]
        );
        assert_eq!(
            labels(&linear_ticks(0.0, 1.0, 4)),
            ["0.00", "0.25", "0.50", "0.75", "1.00"]
        );
        assert_eq!(
            labels(&linear_ticks(-1.0, 1.0, 4)),
            ["-1.0", "-0.5", "0.0", "0.5", "1.0"]
        );
        assert_eq!(
            labels(&linear_ticks(0.0, 3e6, 3)),
            ["0", "1e6", "2e6", "3e6"]
        );
    }

    #[test]
    fn linear_ticks_never_loop_forever() {
        assert!(linear_ticks(1e17, 1e17 + 4.0, 8).len() <= MAX_TICKS);
        assert!(linear_ticks(1.0, 1.0, 8).is_empty());
        assert!(linear_ticks(f64::NAN, 1.0, 8).is_empty());
    }

    #[test]
    fn log_ticks_use_powers_of_ten() {
        let (major, minor) = log_ticks(0.0, 3.0, 8);
        assert_eq!(labels(&major), ["1", "10", "100", "1000"]);
        assert_eq!(minor.len(), 24);
        let (major, _) = log_ticks(-2.5, 0.2, 8);
        assert_eq!(labels(&major), ["0.01", "0.1", "1"]);
        let (major, _) = log_ticks(0.0, 40.0, 8);
        assert_eq!(
            labels(&major),
            ["1e0", "1e5", "1e10", "1e15", "1e20", "1e25", "1e30", "1e35", "1e40"]
        );
        let (major, _) = log_ticks(0.1, 0.9, 6);
        assert_eq!(labels(&major), ["2", "4", "6"]);
        let (major, _) = log_ticks(0.0, 1.2, 8);
        assert_eq!(labels(&major), ["1", "2", "5", "10"]);
    }

    #[test]
    fn auto_range_adds_headroom() {
        let s = auto_range(Some((10.0, 110.0)), None, None, false).unwrap();
        assert!((s.lo - 5.0).abs() < 1e-9 && (s.hi - 115.0).abs() < 1e-9);
        let s = auto_range(Some((0.0, 100.0)), None, None, false).unwrap();
        assert_eq!(s.lo, 0.0);
        let s = auto_range(Some((3.0, 3.0)), None, None, false).unwrap();
        assert!(s.lo < 3.0 && s.hi > 3.0);
        let s = auto_range(Some((3.0, 5.0)), Some(4.0), None, false).unwrap();
        assert_eq!(s.lo, 4.0);
        assert!(s.hi > 5.0);
        assert!(auto_range(Some((3.0, 5.0)), Some(4.0), Some(4.0), false).is_err());
        assert!(auto_range(Some((-1e308, 1e308)), None, None, false).is_err());
    }
}
