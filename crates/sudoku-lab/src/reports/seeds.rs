//! An answer that survives a new seed: `sudoku-lab confirm-seed FIRST SECOND` checks the
//! answers of a compare (or phase) results folder, FIRST, against the same protocol run at
//! another master seed, SECOND (`reproduce ID --seed S --out SECOND`): the same spec, puzzles,
//! runs and budgets, and runs whose seeds share nothing with FIRST's (each run's seed is a
//! hash of the master seed, the experiment, the puzzle and the run index).
//!
//! The answers are the ones the compare report gives (compare-answers.csv), per pair of
//! algorithms on every puzzle set and on all puzzles pooled, recomputed here from each
//! folder's runs.csv by the report's own code:
//! - overall success: which one solves more runs (Fisher's exact test, Holm, at 5 %);
//! - time to solve: which one solves sooner in CPU s (log-rank test, Holm, at 5 %);
//! - per puzzle, in success and in CPU s: the Bayesian signed-rank verdict (better or
//!   practically equivalent at P >= 0.95, on enough informative puzzles);
//! - ranks: which one ranks better on the per-puzzle ERT in CPU s (the Friedman post hoc,
//!   Wilcoxon signed-rank, Holm, at 5 %: compare-posthoc.csv);
//! - a phase report's leaders (phase-leaders.csv): the algorithm that solves most runs of a
//!   set, when it beats the next one (Holm over the sets of a size).
//!
//! Each answer of FIRST is, at SECOND: *held* (the same answer), *not found again* (no
//! answer: the difference is smaller than the test sees with these runs, or the first was a
//! false discovery; the Holm p-value at SECOND is given), or *reversed* (the other algorithm,
//! or a difference where FIRST found equivalence). Answers only SECOND gives are *new*. Both
//! folders' tests hold their level at 5 % after Holm, so a held answer is one that two
//! independent samples each found.

use super::compare::answers::PerPuzzle;
use super::compare::data::{Clock, Data, POOLED};
use super::inputs::{Inputs, Published};
use crate::protocol::meta::{read_json, Meta, Settings};
use crate::spec::{Loaded, Spec};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// What an answer is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Question {
    Success,
    Time,
    PuzzleSuccess,
    PuzzleTime,
    Ranks,
    Leader,
}

impl Question {
    pub const ALL: [Question; 6] = [
        Question::Success,
        Question::Time,
        Question::PuzzleSuccess,
        Question::PuzzleTime,
        Question::Ranks,
        Question::Leader,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Question::Success => "overall success",
            Question::Time => "time to solve",
            Question::PuzzleSuccess => "per puzzle, success",
            Question::PuzzleTime => "per puzzle, CPU s",
            Question::Ranks => "ranks on per-puzzle ERT",
            Question::Leader => "leader of the set",
        }
    }
}

/// What a folder answered: an algorithm (better, sooner, the leader) or equivalence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    Algorithm(String),
    Equivalent,
}

/// One question of one pair (or set) and what a folder answered, with its Holm p-value (or,
/// per puzzle, the posterior probability of the answer).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub scope: String,
    /// The pair (for a leader: the leader and its next one in this folder).
    pub pair: (String, String),
    pub question: Question,
    pub said: Option<Said>,
    pub p: Option<f64>,
}

/// An answer at the second seed, against the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Held,
    NotFoundAgain,
    Reversed,
    New,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::NotFoundAgain => "not found again",
            Verdict::Reversed => "reversed",
            Verdict::New => "new",
        }
    }

    /// The verdict of `second` against `first` (None: neither answered).
    pub fn of(first: Option<&Said>, second: Option<&Said>) -> Option<Verdict> {
        Some(match (first, second) {
            (None, None) => return None,
            (Some(x), Some(y)) if x == y => Verdict::Held,
            (Some(_), Some(_)) => Verdict::Reversed,
            (Some(_), None) => Verdict::NotFoundAgain,
            (None, Some(_)) => Verdict::New,
        })
    }
}

/// A row of confirmation.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub first: Answer,
    pub second: Answer,
    pub verdict: Verdict,
}

/// The folders' master seeds and what their comparison found.
#[derive(Debug, Clone)]
pub struct Confirmation {
    pub experiment: String,
    pub seeds: (u64, u64),
    pub rows: Vec<Row>,
}

impl Confirmation {
    /// How many rows have `verdict`, of `question` when given.
    pub fn count(&self, verdict: Verdict, question: Option<Question>) -> usize {
        (self.rows.iter())
            .filter(|r| r.verdict == verdict && question.is_none_or(|q| r.first.question == q))
            .count()
    }

    /// The answer in one sentence.
    pub fn sentence(&self) -> String {
        let c = |v| self.count(v, None);
        let given = c(Verdict::Held) + c(Verdict::NotFoundAgain) + c(Verdict::Reversed);
        if given + c(Verdict::New) == 0 {
            return format!(
                "Neither master seed ({} nor {}) gives an answer in {}: no test finds a difference or an equivalence.",
                self.seeds.0, self.seeds.1, self.experiment
            );
        }
        format!(
            "At master seed {}, {} of the {given} answers that {} gives at master seed {} hold, {} are not found again and {} are reversed; the second seed gives {} answers the first does not.",
            self.seeds.1,
            c(Verdict::Held),
            self.experiment,
            self.seeds.0,
            c(Verdict::NotFoundAgain),
            c(Verdict::Reversed),
            c(Verdict::New)
        )
    }
}

/// The answers of FIRST checked at SECOND (see the module): written to SECOND's
/// confirmation.csv and confirmation.md.
pub fn confirm(first: &Path, second: &Path) -> Result<Confirmation> {
    let (s1, s2) = (settings(first)?, settings(second)?);
    check_same_protocol(first, second, &s1, &s2)?;
    let ((a, clock1), (b, clock2)) = (answers(first, &s1)?, answers(second, &s2)?);
    if clock1 != clock2 {
        bail!(
            "{} measures time in {} and {} in {}: their times to solve are not one measure \
             (rerun the folder without CPU times at its own seed to record them)",
            first.display(),
            clock1.words(),
            second.display(),
            clock2.words()
        );
    }
    let mut by_key: BTreeMap<Key, (Answer, Answer)> = BTreeMap::new();
    for (answers, is_first) in [(&a, true), (&b, false)] {
        for ans in answers {
            let key = (ans.scope.clone(), ans.question, key_pair(ans));
            let entry = (by_key.entry(key)).or_insert_with(|| (blank(ans), blank(ans)));
            match is_first {
                true => entry.0 = ans.clone(),
                false => entry.1 = ans.clone(),
            }
        }
    }
    let rows = (by_key.into_values())
        .filter_map(|(f, s)| {
            let verdict = Verdict::of(f.said.as_ref(), s.said.as_ref())?;
            Some(Row {
                first: f,
                second: s,
                verdict,
            })
        })
        .collect();
    let c = Confirmation {
        experiment: s1.experiment.clone(),
        seeds: (s1.master_seed, s2.master_seed),
        rows,
    };
    write(second, &c)?;
    Ok(c)
}

/// What an answer of one folder is matched on in the other: its puzzle set, question and
/// pair ([`key_pair`]).
type Key = (String, Question, (String, String));

/// The pair a question is matched on between the folders: the pair (a pair's questions), or
/// nothing (a set's leader, whoever it is).
fn key_pair(a: &Answer) -> (String, String) {
    match a.question {
        Question::Leader => (String::new(), String::new()),
        _ => a.pair.clone(),
    }
}

/// `a` with no answer (what a folder that does not answer its question holds).
fn blank(a: &Answer) -> Answer {
    Answer {
        said: None,
        p: None,
        ..a.clone()
    }
}

/// A complete folder's settings.
fn settings(dir: &Path) -> Result<Settings> {
    let path = dir.join("meta.json");
    let meta = read_json(&path)?;
    if meta["status"].as_str() != Some("complete") {
        bail!(
            "{}: status is not \"complete\": the protocol has not ended (finish it with --resume)",
            path.display()
        );
    }
    Meta::read_settings(&path)?
        .with_context(|| format!("{}: no settings of a protocol", path.display()))
}

/// The two folders are one protocol at two master seeds: the same experiment, spec (but its
/// master seed), runs and mode, no shard, other seeds.
fn check_same_protocol(first: &Path, second: &Path, a: &Settings, b: &Settings) -> Result<()> {
    let unseeded = |t: &str| -> String {
        (t.lines())
            .filter(|l| !l.trim_start().starts_with("master_seed"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let what = if a.experiment != b.experiment {
        Some("experiments")
    } else if unseeded(&a.spec_toml) != unseeded(&b.spec_toml) {
        Some("specs (other than the master seed)")
    } else if (a.runs, a.forced_runs, a.quick) != (b.runs, b.forced_runs, b.quick) {
        Some("runs (--runs or --quick)")
    } else if a.shard.is_some() || b.shard.is_some() {
        Some("shards (merge them first)")
    } else {
        None
    };
    if let Some(what) = what {
        bail!(
            "{} and {}: not one protocol at two seeds: other {what}",
            first.display(),
            second.display()
        );
    }
    if a.master_seed == b.master_seed {
        bail!(
            "{} and {}: the same master seed {}: a second seed needs runs of its own (reproduce ID --seed S --out DIR)",
            first.display(),
            second.display(),
            a.master_seed
        );
    }
    Ok(())
}

/// The folder's spec (its master seed) and puzzles.
fn spec_of(dir: &Path, s: &Settings) -> Result<(Spec, Loaded)> {
    let name = dir.join("meta.json").display().to_string();
    let mut spec = Spec::parse(&s.spec_toml, &name)?;
    spec.master_seed = s.master_seed;
    if !matches!(spec.report.as_str(), "compare" | "phase") {
        bail!(
            "{name}: report \"{}\" gives no answers per pair (a compare or phase report does)",
            spec.report
        );
    }
    let base = read_json(&dir.join("meta.json"))?["spec_dir"]
        .as_str()
        .map(|d| dir.join(d));
    let loaded = spec.load_puzzles(base.as_deref(), s.quick, s.forced_runs)?;
    Ok((spec, loaded))
}

/// Every answer of the folder `dir`, and the clock its times are in.
fn answers(dir: &Path, s: &Settings) -> Result<(Vec<Answer>, Clock)> {
    let (spec, loaded) = spec_of(dir, s)?;
    let data = Data::load(&spec, &loaded, dir)?;
    let computed = super::compare::compute(&spec, &data)?;
    let scopes = data.scope_names();
    let mut out = Vec::new();
    for x in &computed.answers {
        let f = &x.facts;
        let [a, b] = &f.names;
        let one = |question, said: Option<Said>, p| Answer {
            scope: scopes[x.scope].clone(),
            pair: (a.clone(), b.clone()),
            question,
            said,
            p,
        };
        let [(ka, na), (kb, nb)] = f.solved;
        let rate = |k: u64, n: u64| k as f64 / n.max(1) as f64;
        let more = match rate(ka, na).total_cmp(&rate(kb, nb)) {
            std::cmp::Ordering::Greater => Some(a),
            std::cmp::Ordering::Less => Some(b),
            std::cmp::Ordering::Equal => None,
        };
        let success = more.filter(|_| f.fisher_holm < 0.05);
        let named = |w: &String| Said::Algorithm(w.clone());
        out.push(one(
            Question::Success,
            success.map(named),
            Some(f.fisher_holm),
        ));
        if let Some((p, sooner)) = f.logrank {
            let said = (p < 0.05).then(|| named(&f.names[sooner]));
            out.push(one(Question::Time, said, Some(p)));
        }
        for (q, pp) in [
            (Question::PuzzleSuccess, &f.success_per_puzzle),
            (Question::PuzzleTime, &f.time_per_puzzle),
        ] {
            let (said, p) = match pp {
                PerPuzzle::Better(w, p) => (Some(named(&f.names[*w])), Some(*p)),
                PerPuzzle::Equivalent(p) => (Some(Said::Equivalent), Some(*p)),
                _ => (None, None),
            };
            out.push(one(q, said, p));
        }
    }
    out.extend(ranks(&data)?);
    if spec.report == "phase" {
        out.extend(leaders(dir, &spec, &loaded, s)?);
    }
    Ok((out, data.clock))
}

/// The Friedman post hoc tests on the per-puzzle ERT in seconds as answers: which one ranks
/// better, when the Holm-adjusted Wilcoxon test says so.
fn ranks(data: &Data) -> Result<Vec<Answer>> {
    let scopes = data.scope_names();
    let mut out = Vec::new();
    let tests = super::compare::stats::friedman_all(data)?;
    for t in (tests.iter()).filter(|t| t.unit == super::compare::stats::Unit::Seconds) {
        for p in &t.posthoc {
            let better = p.favoured().filter(|_| p.holm < 0.05);
            out.push(Answer {
                scope: scopes[t.scope].clone(),
                pair: (data.algorithms[p.a].clone(), data.algorithms[p.b].clone()),
                question: Question::Ranks,
                said: better.map(|b| Said::Algorithm(data.algorithms[b].clone())),
                p: Some(p.holm),
            });
        }
    }
    Ok(out)
}

/// A phase report's leaders as answers: the leader of a set when it beats the next one.
fn leaders(dir: &Path, spec: &Spec, loaded: &Loaded, s: &Settings) -> Result<Vec<Answer>> {
    let published = Published::default();
    let inputs = Inputs {
        spec,
        loaded,
        published: &published,
        out: dir,
        runs: s.runs,
        quick_cap: None,
        wall: 0.0,
        threads: 1,
    };
    let leaders = super::phase::leaders_of(&inputs)?;
    Ok((leaders.iter())
        .map(|l| Answer {
            scope: l.set.clone(),
            pair: (
                l.leader.0.clone(),
                l.next.as_ref().map_or(String::new(), |n| n.0.clone()),
            ),
            question: Question::Leader,
            said: (l.verdict() == "better").then(|| Said::Algorithm(l.leader.0.clone())),
            p: Some(l.p_holm),
        })
        .collect())
}

/// What a folder answered, in words.
fn words(a: &Answer) -> String {
    let Some(said) = &a.said else {
        return match (a.question, &a.pair) {
            (Question::Leader, (l, n)) if !l.is_empty() && !n.is_empty() => {
                format!("{l} leads, not shown better than {n}")
            }
            (Question::Leader, (l, _)) if !l.is_empty() => format!("{l} alone"),
            (Question::Leader, _) => "no leader".into(),
            (Question::PuzzleSuccess | Question::PuzzleTime, _) => {
                "no verdict (undecided, or too few puzzles)".into()
            }
            _ => "no difference found".into(),
        };
    };
    match (said, a.question) {
        (Said::Equivalent, _) => "practically equivalent".into(),
        (Said::Algorithm(w), Question::Success) => format!("{w} solves more runs"),
        (Said::Algorithm(w), Question::Time) => format!("{w} solves sooner"),
        (Said::Algorithm(w), Question::Ranks) => format!("{w} ranks better"),
        (Said::Algorithm(w), Question::Leader) => {
            let other = if a.pair.0 == *w { &a.pair.1 } else { &a.pair.0 };
            format!("{w} leads, better than {other}")
        }
        (Said::Algorithm(w), _) => format!("{w} better"),
    }
}

/// A p-value (or probability) in confirmation.csv: every digit.
fn p_text(p: Option<f64>) -> String {
    p.map_or(String::new(), |p| p.to_string())
}

/// A p-value (or probability) in confirmation.md, as the reports print them.
fn p_shown(p: Option<f64>) -> String {
    p.map_or(String::new(), super::compare::report::pval)
}

/// confirmation.csv and confirmation.md in `dir`.
fn write(dir: &Path, c: &Confirmation) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "scope",
        "algorithm_a",
        "algorithm_b",
        "question",
        "first_seed",
        "second_seed",
        "p_first",
        "p_second",
        "verdict",
    ])?;
    for r in &c.rows {
        let (a, b) = &r.first.pair;
        w.write_record([
            r.first.scope.as_str(),
            a,
            b,
            r.first.question.name(),
            &words(&r.first),
            &words(&r.second),
            &p_text(r.first.p),
            &p_text(r.second.p),
            r.verdict.name(),
        ])?;
    }
    let csv = w.into_inner().context("confirmation.csv")?;
    crate::protocol::io::write_atomic(&dir.join("confirmation.csv"), &csv)?;
    crate::protocol::io::write_atomic(&dir.join("confirmation.md"), markdown(c).as_bytes())?;
    Ok(())
}

/// confirmation.md: the sentence, the counts per question, the pooled answers and the sets'
/// leaders, and every answer that did not hold.
fn markdown(c: &Confirmation) -> String {
    let mut s = format!(
        "# {} at a second master seed\n\n{}\n\nThe answers are those of the compare report (compare-answers.csv), recomputed from each folder's runs.csv{}; p is the Holm-adjusted p-value of the test (per puzzle: the posterior probability of the verdict). An answer not found again may be a difference smaller than these runs detect, or a false discovery of the first seed. Every answer: `confirmation.csv`.\n\n| Question | held | not found again | reversed | new |\n|---|---|---|---|---|\n",
        c.experiment,
        c.sentence(),
        match c.rows.iter().any(|r| r.first.question == Question::Leader) {
            true => ", and the phase report's leaders (phase-leaders.csv)",
            false => "",
        }
    );
    for q in Question::ALL {
        let n = |v| c.count(v, Some(q));
        if [
            Verdict::Held,
            Verdict::NotFoundAgain,
            Verdict::Reversed,
            Verdict::New,
        ]
        .iter()
        .all(|&v| n(v) == 0)
        {
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            q.name(),
            n(Verdict::Held),
            n(Verdict::NotFoundAgain),
            n(Verdict::Reversed),
            n(Verdict::New)
        );
    }
    let table = |title: &str, rows: Vec<&Row>| {
        let mut t = format!(
            "\n## {title}\n\n| Puzzle set | Pair | Question | Master seed {} | p | Master seed {} | p | Verdict |\n|---|---|---|---|---|---|---|---|\n",
            c.seeds.0, c.seeds.1
        );
        for r in rows {
            let _ = writeln!(
                t,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                r.first.scope,
                pair_text(r),
                r.first.question.name(),
                words(&r.first),
                p_shown(r.first.p),
                words(&r.second),
                p_shown(r.second.p),
                r.verdict.name()
            );
        }
        t
    };
    let pooled: Vec<&Row> = c.rows.iter().filter(|r| r.first.scope == POOLED).collect();
    s += &table("All puzzles pooled", pooled);
    let leaders: Vec<&Row> = (c.rows.iter())
        .filter(|r| r.first.question == Question::Leader)
        .collect();
    if !leaders.is_empty() {
        s += &table("The leader of each set", leaders);
    }
    let other: Vec<&Row> = (c.rows.iter())
        .filter(|r| r.first.scope != POOLED && r.first.question != Question::Leader)
        .filter(|r| r.verdict != Verdict::Held)
        .collect();
    s += &table(
        "Per puzzle set: every answer that did not hold, and every new one",
        other,
    );
    s
}

/// The pair of a row (a set's leader is named by each seed's answer).
fn pair_text(r: &Row) -> String {
    match r.first.question {
        Question::Leader => "the leader".into(),
        _ => format!("{} against {}", r.first.pair.0, r.first.pair.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_at_the_second_seed_holds_is_lost_or_reverses() {
        let x = || Said::Algorithm("x".into());
        let y = || Said::Algorithm("y".into());
        let cases = [
            (Some(x()), Some(x()), Some(Verdict::Held)),
            (
                Some(Said::Equivalent),
                Some(Said::Equivalent),
                Some(Verdict::Held),
            ),
            (Some(x()), Some(y()), Some(Verdict::Reversed)),
            (Some(Said::Equivalent), Some(x()), Some(Verdict::Reversed)),
            (Some(x()), None, Some(Verdict::NotFoundAgain)),
            (None, Some(y()), Some(Verdict::New)),
            (None, None, None),
        ];
        for (a, b, want) in cases {
            assert_eq!(Verdict::of(a.as_ref(), b.as_ref()), want, "{a:?} {b:?}");
        }
    }
}
