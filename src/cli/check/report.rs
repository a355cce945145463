//! `check`'s output formats, each written as files finish (in path order), so nothing but a small per-rule table
//! is held until the end: text lines, a JSON array, SARIF 2.1.0, JUnit XML, GitHub workflow commands. And the
//! baseline: the findings of an earlier report, which later runs leave out.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::{Checked, Format, line, severity_word};
use crate::check::{Finding, Severity};

/// What was reported, for the summary and the exit code.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Findings that fail the run (errors; warnings too with `--strict`).
    pub failing: usize,
}

/// Writes one format to `out`.
pub struct Reporter<W: Write> {
    format: Format,
    out: W,
    strict: bool,
    counts: Counts,
    /// The opening lines are written.
    opened: bool,
    /// No finding written yet (the JSON and SARIF separators).
    first: bool,
    /// SARIF: each rule seen, with its severity and the first message, for the tool's rule table.
    rules: BTreeMap<String, (Severity, String)>,
}

impl<W: Write> Reporter<W> {
    pub fn new(format: Format, out: W, strict: bool) -> Reporter<W> {
        Reporter { format, out, strict, counts: Counts::default(), opened: false, first: true, rules: BTreeMap::new() }
    }

    /// Reports one file's findings.
    pub fn file(&mut self, c: &Checked) -> std::io::Result<()> {
        if !self.opened {
            self.open()?;
        }
        if c.unreadable.is_none() {
            self.counts.files += 1;
        }
        for f in &c.findings {
            match f.severity {
                Severity::Error => self.counts.errors += 1,
                Severity::Warning => self.counts.warnings += 1,
            }
            if f.severity == Severity::Error || self.strict {
                self.counts.failing += 1;
            }
        }
        match self.format {
            Format::Text => {
                for f in &c.findings {
                    let place = f.place.describe();
                    let place = if place.is_empty() { String::new() } else { format!(" {place}:") };
                    let s = format!("{}:{place} {}[{}]: {}", f.file, severity_word(f.severity), f.rule, f.message);
                    line(&mut self.out, &s)?;
                }
            }
            Format::Json => {
                for f in &c.findings {
                    let sep = if std::mem::take(&mut self.first) { "" } else { "," };
                    write!(self.out, "{sep}{}", serde_json::to_string(f).map_err(std::io::Error::other)?)?;
                }
            }
            Format::Sarif => {
                for f in &c.findings {
                    self.rules.entry(f.rule.clone()).or_insert_with(|| (f.severity, f.message.clone()));
                    let sep = if std::mem::take(&mut self.first) { "" } else { "," };
                    write!(self.out, "{sep}{}", sarif_result(f))?;
                }
            }
            Format::Junit => line(&mut self.out, &junit_case(c))?,
            Format::Github => {
                for f in &c.findings {
                    line(&mut self.out, &github_command(f))?;
                }
            }
        }
        Ok(())
    }

    /// What comes before the first file.
    fn open(&mut self) -> std::io::Result<()> {
        match self.format {
            Format::Json => write!(self.out, "[")?,
            Format::Sarif => write!(
                self.out,
                r#"{{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{{"results":["#
            )?,
            Format::Junit => {
                line(&mut self.out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
                line(&mut self.out, r#"<testsuites name="rigscope check">"#)?;
                line(&mut self.out, r#"<testsuite name="rigscope check">"#)?;
            }
            Format::Text | Format::Github => {}
        }
        self.opened = true;
        Ok(())
    }

    /// Closes the report and returns what it counted.
    pub fn finish(mut self) -> std::io::Result<Counts> {
        if !self.opened {
            // No file at all: the report still has its frame.
            self.open()?;
        }
        let c = self.counts;
        match self.format {
            Format::Text => line(
                &mut self.out,
                &format!("{} file(s) checked: {} error(s), {} warning(s)", c.files, c.errors, c.warnings),
            )?,
            Format::Json => line(&mut self.out, "]")?,
            Format::Sarif => {
                let rules: Vec<Value> = self.rules.iter().map(|(id, (s, m))| sarif_rule(id, *s, m)).collect();
                let driver = json!({
                    "name": "rigscope",
                    "version": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://github.com/rigscope/rigscope",
                    "rules": rules,
                });
                line(&mut self.out, &format!(r#"],"tool":{{"driver":{driver}}}}}]}}"#))?;
            }
            Format::Junit => {
                line(&mut self.out, "</testsuite>")?;
                line(&mut self.out, "</testsuites>")?;
            }
            Format::Github => {}
        }
        self.out.flush()?;
        Ok(c)
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A path as a relative SARIF URI: forward slashes, and the characters a URI can't hold escaped.
fn uri(file: &str) -> String {
    let mut out = String::new();
    for c in file.replace('\\', "/").chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '.' | '_' | '~' | '/' | ':' => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    out
}

fn sarif_result(f: &Finding) -> Value {
    // Text formats have lines; binary ones a byte offset; anything else is the file as a whole.
    let region = match (f.place.line, f.place.offset) {
        (Some(l), _) => Some(json!({ "startLine": l.max(1) })),
        (None, Some(o)) => Some(json!({ "byteOffset": o, "byteLength": 1 })),
        _ => None,
    };
    let mut physical = json!({ "artifactLocation": { "uri": uri(&f.file) } });
    if let Some(r) = region {
        physical["region"] = r;
    }
    let place = f.place.describe();
    let text = if place.is_empty() || f.place.line.is_some() && f.place.offset.is_none() && place.starts_with("line") {
        f.message.clone()
    } else {
        format!("{place}: {}", f.message)
    };
    json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": { "text": text },
        "locations": [{ "physicalLocation": physical }],
    })
}

fn sarif_rule(id: &str, severity: Severity, example: &str) -> Value {
    let family = id.split('.').next().unwrap_or(id);
    json!({
        "id": id,
        "name": id,
        "shortDescription": { "text": format!("rigscope {family} check {id}") },
        "fullDescription": { "text": format!("For example: {example}") },
        "help": { "text": format!(
            "Rule {id} of `rigscope check` (see docs/check.md). The message of each result says what \
             the file holds and what the format expects; the location is the line (text formats) or byte offset \
             (binary formats) where it was found.") },
        "defaultConfiguration": { "level": level(severity) },
    })
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// One test case per file: a failure per error finding, warnings as its output.
fn junit_case(c: &Checked) -> String {
    let mut s = format!(r#"<testcase classname="rigscope.check" name="{}">"#, xml(&c.file));
    if let Some(e) = &c.unreadable {
        s += &format!(r#"<error message="{}"/>"#, xml(e));
    }
    let mut warnings = String::new();
    for f in &c.findings {
        let place = f.place.describe();
        let text = if place.is_empty() { f.message.clone() } else { format!("{place}: {}", f.message) };
        match f.severity {
            Severity::Error => {
                s += &format!(r#"<failure message="{}" type="{}">{}</failure>"#, xml(&text), xml(&f.rule), xml(&text))
            }
            Severity::Warning => warnings += &format!("warning[{}]: {text}\n", f.rule),
        }
    }
    if !warnings.is_empty() {
        s += &format!("<system-out>{}</system-out>", xml(&warnings));
    }
    s + "</testcase>"
}

/// `::error file=…,line=…,title=…::message`, escaped as GitHub's workflow commands want.
fn github_command(f: &Finding) -> String {
    let data = |s: &str| s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    let mut props = format!("file={}", prop(&f.file.replace('\\', "/")));
    if let Some(l) = f.place.line {
        props += &format!(",line={l}");
    }
    props += &format!(",title={}", prop(&f.rule));
    let place = f.place.describe();
    let text = match (f.place.line, place.is_empty()) {
        (None, false) => format!("{place}: {}", f.message),
        _ => f.message.clone(),
    };
    format!("::{} {props}::{}", severity_word(f.severity), data(&text))
}

/// The findings of an earlier report, compared by file, rule and message (places move when an export changes
/// around them).
pub struct Baseline {
    known: HashSet<(String, String, String)>,
}

impl Baseline {
    /// Reads a `--format json` array or a SARIF report.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("--baseline {}: {e}", path.display()))?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| format!("--baseline {}: not JSON: {e}", path.display()))?;
        let mut known = HashSet::new();
        if let Some(items) = value.as_array() {
            for f in items {
                let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                known.insert((s("file"), s("rule"), s("message")));
            }
        } else if let Some(runs) = value["runs"].as_array() {
            for r in runs.iter().flat_map(|r| r["results"].as_array().into_iter().flatten()) {
                let file = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap_or("");
                let text = r["message"]["text"].as_str().unwrap_or("");
                let rule = r["ruleId"].as_str().unwrap_or("");
                known.insert((file.to_string(), rule.to_string(), text.to_string()));
            }
        } else {
            return Err(format!("--baseline {}: neither a JSON findings array nor SARIF", path.display()));
        }
        Ok(Baseline { known })
    }

    /// The finding was in the earlier report (as JSON, or as the same SARIF result).
    pub fn contains(&self, f: &Finding) -> bool {
        let key = (f.file.clone(), f.rule.clone(), f.message.clone());
        if self.known.contains(&key) {
            return true;
        }
        let r = sarif_result(f);
        let text = r["message"]["text"].as_str().unwrap_or_default().to_string();
        self.known.contains(&(uri(&f.file), f.rule.clone(), text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Place;

    fn finding(file: &str, rule: &str, severity: Severity, place: Place) -> Finding {
        Finding { file: file.into(), rule: rule.into(), severity, place, message: "bad: 1, \"x\" <y>".into() }
    }

    fn report(format: Format, files: &[Checked]) -> String {
        let mut out = Vec::new();
        let mut r = Reporter::new(format, &mut out, false);
        for c in files {
            r.file(c).unwrap();
        }
        r.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    fn sample() -> Vec<Checked> {
        let line = Place { line: Some(7), ..Default::default() };
        let offset = Place { offset: Some(40), ..Default::default() };
        vec![
            Checked {
                file: "a dir/m.iqe".into(),
                findings: vec![finding("a dir/m.iqe", "iqe.vb.many", Severity::Warning, line)],
                unreadable: None,
            },
            Checked {
                file: "b.iqm".into(),
                findings: vec![finding("b.iqm", "iqm.align", Severity::Error, offset)],
                unreadable: None,
            },
            Checked { file: "c.iqm".into(), findings: Vec::new(), unreadable: None },
        ]
    }

    #[test]
    fn sarif_has_rules_results_lines_and_offsets() {
        let v: Value = serde_json::from_str(&report(Format::Sarif, &sample())).unwrap();
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.iter().map(|r| r["id"].as_str().unwrap()).collect::<Vec<_>>(), ["iqe.vb.many", "iqm.align"]);
        assert_eq!(rules[1]["defaultConfiguration"]["level"], "error");
        let results = run["results"].as_array().unwrap();
        let loc = |i: usize| &results[i]["locations"][0]["physicalLocation"];
        assert_eq!(loc(0)["artifactLocation"]["uri"], "a%20dir/m.iqe");
        assert_eq!(loc(0)["region"]["startLine"], 7);
        assert_eq!(loc(1)["region"]["byteOffset"], 40);
        assert_eq!(results[1]["level"], "error");
    }

    #[test]
    fn an_empty_run_is_still_a_whole_document() {
        let v: Value = serde_json::from_str(&report(Format::Sarif, &[])).unwrap();
        assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 0);
        let v: Value = serde_json::from_str(&report(Format::Json, &[])).unwrap();
        assert_eq!(v, json!([]));
        assert!(report(Format::Junit, &[]).contains("</testsuites>"));
    }

    #[test]
    fn json_is_one_array_of_every_finding() {
        let v: Value = serde_json::from_str(&report(Format::Json, &sample())).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
        assert_eq!(v[1]["rule"], "iqm.align");
    }

    #[test]
    fn junit_has_a_case_per_file_and_a_failure_per_error() {
        let x = report(Format::Junit, &sample());
        assert_eq!(x.matches("<testcase ").count(), 3);
        assert_eq!(x.matches("<failure ").count(), 1);
        assert!(x.contains("&quot;x&quot; &lt;y&gt;"), "{x}");
        assert!(x.contains("<system-out>warning[iqe.vb.many]"), "{x}");
    }

    #[test]
    fn github_commands_escape_their_properties() {
        let x = report(Format::Github, &sample());
        let lines: Vec<&str> = x.lines().collect();
        assert_eq!(lines[0], "::warning file=a dir/m.iqe,line=7,title=iqe.vb.many::bad: 1, \"x\" <y>");
        assert_eq!(lines[1], "::error file=b.iqm,title=iqm.align::@40: bad: 1, \"x\" <y>");
    }

    #[test]
    fn a_baseline_leaves_out_what_it_already_had() {
        let dir = std::env::temp_dir().join(format!("rigscope-baseline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for format in [Format::Json, Format::Sarif] {
            let path = dir.join("old.json");
            std::fs::write(&path, report(format, &sample()[..1])).unwrap();
            let b = Baseline::load(&path).unwrap();
            let s = sample();
            assert!(b.contains(&s[0].findings[0]), "{format:?}");
            assert!(!b.contains(&s[1].findings[0]), "{format:?}");
        }
        std::fs::write(dir.join("bad.json"), "{}").unwrap();
        assert!(Baseline::load(&dir.join("bad.json")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
