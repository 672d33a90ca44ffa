//! The algorithms' own documentation, for the site's "options used" section: the doc comments
//! of each algorithm crate, read from its source files at compile time (`include_str!` in its
//! registry entry, `sudoku_core::Algorithm::sources`: the text rustdoc renders), parsed at run
//! time. Nothing is copied by hand: an option's paper quote is the `///` comment of its config
//! field, of its enum and of the chosen variant.

use std::collections::HashMap;

/// The doc comments of one crate.
#[derive(Default, Debug)]
pub struct CrateDocs {
    /// The crate name (`reseda`).
    pub name: String,
    /// The crate-level `//!` comment of lib.rs.
    pub top: String,
    /// Enum name -> its doc comment.
    enums: HashMap<String, String>,
    /// (enum, variant) -> the variant's doc comment.
    variants: HashMap<(String, String), String>,
    /// Field name -> (doc comment, type) over every `pub struct` of the crate.
    fields: HashMap<String, (String, String)>,
}

/// What the crate says about one option.
#[derive(Default, Debug, PartialEq)]
pub struct OptionDocs {
    /// The config field's comment.
    pub field: Option<String>,
    /// The enum (name, comment) of the option's type, when it is a choice.
    pub choice: Option<(String, String)>,
    /// The chosen variant (name, comment).
    pub value: Option<(String, String)>,
}

impl OptionDocs {
    pub fn is_empty(&self) -> bool {
        self.field.is_none() && self.choice.is_none() && self.value.is_none()
    }
}

/// The docs of the crate implementing `algorithm`, if it is one of the registry's.
pub fn for_algorithm(algorithm: &str) -> Option<CrateDocs> {
    crate::algos::sources(algorithm).map(|(name, files)| parse(name, files))
}

/// Parses the doc comments of `files` (the first is lib.rs).
pub fn parse(name: &str, files: &[&str]) -> CrateDocs {
    let mut d = CrateDocs {
        name: name.to_string(),
        ..Default::default()
    };
    if let Some(lib) = files.first() {
        d.top = lib
            .lines()
            .map(str::trim_start)
            .take_while(|l| l.starts_with("//!") || l.is_empty() || l.starts_with("#!"))
            .filter_map(|l| l.strip_prefix("//!"))
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string();
    }
    for f in files {
        parse_items(f, &mut d);
    }
    d
}

enum Scope {
    Top,
    Enum(String),
    Struct,
}

fn parse_items(src: &str, d: &mut CrateDocs) {
    let mut doc: Vec<&str> = Vec::new();
    let mut scope = Scope::Top;
    for line in src.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("///") {
            doc.push(rest.strip_prefix(' ').unwrap_or(rest));
            continue;
        }
        if t.starts_with("#[") || t.is_empty() && doc.is_empty() {
            continue;
        }
        let text = doc.join("\n").trim().to_string();
        doc.clear();
        if line.starts_with('}') {
            scope = Scope::Top;
            continue;
        }
        match &scope {
            Scope::Top => {
                if let Some(name) = item_name(t, "pub enum ") {
                    d.enums.insert(name.clone(), text);
                    if t.ends_with('{') {
                        scope = Scope::Enum(name);
                    }
                } else if item_name(t, "pub struct ").is_some() && t.ends_with('{') {
                    scope = Scope::Struct;
                }
            }
            Scope::Enum(e) => {
                let v: String = t
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !v.is_empty()
                    && v.starts_with(|c: char| c.is_uppercase())
                    && line.starts_with("    ")
                    && !line.starts_with("     ")
                {
                    d.variants.insert((e.clone(), v), text);
                }
            }
            Scope::Struct => {
                if let Some(rest) = t.strip_prefix("pub ") {
                    if let Some((field, ty)) = rest.split_once(':') {
                        let field = field.trim();
                        if field.chars().all(|c| c.is_alphanumeric() || c == '_') {
                            let ty = ty.trim().trim_end_matches(',').trim();
                            let ty = ty
                                .strip_prefix("Option<")
                                .and_then(|s| s.strip_suffix('>'))
                                .unwrap_or(ty);
                            d.fields
                                .entry(field.to_string())
                                .or_insert((text, ty.to_string()));
                        }
                    }
                }
            }
        }
    }
}

/// `pub enum Name {` -> `Name`.
fn item_name(line: &str, prefix: &str) -> Option<String> {
    let rest = line.strip_prefix(prefix)?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// `fixed-period` / `fixed_period` -> `FixedPeriod`.
pub fn camel(s: &str) -> String {
    s.split(['-', '_', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl CrateDocs {
    /// The rows of the crate doc's Markdown tables that name config field `key`
    /// (`Config::key`), each table's header first: the crate's own "paper -> config -> words"
    /// table lines for that option.
    pub fn table_rows(&self, key: &str) -> Option<String> {
        let mut out = String::new();
        let mut header: Option<(&str, &str)> = None;
        let mut header_used = false;
        let lines: Vec<&str> = self.top.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim();
            if !t.starts_with('|') {
                header = None;
                continue;
            }
            if header.is_none() {
                if let Some(sep) = lines.get(i + 1).filter(|l| {
                    l.trim().starts_with("|--")
                        || l.trim().starts_with("| --")
                        || l.trim().starts_with("|:-")
                }) {
                    header = Some((t, sep.trim()));
                    header_used = false;
                }
                continue;
            }
            let names_key = t.match_indices(&format!("::{key}")).any(|(j, m)| {
                !t[j + m.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if names_key {
                if let Some((h, sep)) = header {
                    if !header_used {
                        out.push_str(&format!("\n{h}\n{sep}\n"));
                        header_used = true;
                    }
                }
                out.push_str(t);
                out.push('\n');
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// The docs of option `key` set to `value` (a TOML value as text; strings unquoted).
    pub fn option(&self, key: &str, value: &str) -> OptionDocs {
        let mut out = OptionDocs::default();
        let mut enum_name = None;
        if let Some((doc, ty)) = self.fields.get(key) {
            if !doc.is_empty() {
                out.field = Some(doc.clone());
            }
            if self.enums.contains_key(ty) {
                enum_name = Some(ty.clone());
            }
        }
        if enum_name.is_none() {
            let c = camel(key);
            if self.enums.contains_key(&c) {
                enum_name = Some(c);
            }
        }
        if let Some(e) = enum_name {
            let doc = self.enums[&e].clone();
            let want = squash(value);
            out.value = self
                .variants
                .iter()
                .find(|((en, v), _)| *en == e && squash(v) == want)
                .map(|((_, v), doc)| (v.clone(), doc.clone()));
            out.choice = Some((e, doc));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "//! Top line.\n//! Second.\n\nuse x;\n\n/// How to reset (paper: \"reset\").\n#[derive(Debug)]\npub enum ResetRule {\n    /// Never.\n    Never,\n    /// Every k generations.\n    FixedPeriod { k: u64 },\n}\n\n/// Config.\npub struct Config {\n    /// Reset rule.\n    pub reset_rule: ResetRule,\n    /// Zones, 0 = none.\n    pub zones: Option<usize>,\n}\n";

    #[test]
    fn options_docs_come_from_fields_enums_and_variants() {
        let d = parse("x", &[SRC]);
        assert_eq!(d.top, "Top line.\nSecond.");
        let o = d.option("reset_rule", "fixed-period");
        assert_eq!(o.field.as_deref(), Some("Reset rule."));
        assert_eq!(
            o.choice,
            Some((
                "ResetRule".into(),
                "How to reset (paper: \"reset\").".into()
            ))
        );
        assert_eq!(
            o.value,
            Some(("FixedPeriod".into(), "Every k generations.".into()))
        );
        let z = d.option("zones", "9");
        assert_eq!(z.field.as_deref(), Some("Zones, 0 = none."));
        assert!(z.choice.is_none());
        assert!(d.option("unknown", "1").is_empty());
        let t = parse("t", &["//! | what | field |\n//! |---|---|\n//! | cats | `C::cats` |\n//! | catsx | `C::catsx` |\n"]);
        assert_eq!(
            t.table_rows("cats").as_deref(),
            Some("\n| what | field |\n|---|---|\n| cats | `C::cats` |\n")
        );
    }

    #[test]
    fn every_registry_algorithm_has_crate_docs() {
        for a in crate::algos::REGISTRY.iter().map(|a| a.name()) {
            let d = for_algorithm(a).unwrap();
            assert!(!d.top.is_empty(), "{a}: no //! doc");
        }
        let r = for_algorithm("reseda").unwrap();
        let o = r.option("cell_order", "renormalised");
        assert!(o.choice.is_some() && o.value.is_some(), "{o:?}");
    }
}
