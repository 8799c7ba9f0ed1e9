//! The report for browsers: one self-contained HTML file (no network, no external assets) with
//! the rules grouped by spec section, filters by verdict and grade, each failure with its steps,
//! expected and found answers side by side and annotated bytes, and for campaigns the failing
//! run as a timeline per member and the `sometimes` coverage. The run's standing is
//! [`Report::verdict`], as everywhere else.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::console::{is_failure, plural};
use super::{not_counted_because, Report, RuleLine, RuleVerdict};
use crate::runner::{Outcome, Verdict};
use crate::simulation::history::TimelineEntry;

/// The groups of conformance rules in section 12 of the spec, by their first rule number.
const SPEC_GROUPS: [(u32, &str); 9] = [
    (1, "Validation"),
    (15, "Request-handler checks"),
    (19, "Group and member resolution"),
    (25, "Join, assignment and reconciliation"),
    (43, "Shutdown"),
    (46, "Endpoints"),
    (47, "Describe"),
    (49, "Static membership (4.4, v1)"),
    (54, "Version-specific fencing"),
];

/// The verdicts a rule can have, as filters and counts name them.
const RULE_VERDICTS: [RuleVerdict; 6] = [
    RuleVerdict::Pass,
    RuleVerdict::Fail,
    RuleVerdict::Error,
    RuleVerdict::Timeout,
    RuleVerdict::Divergent,
    RuleVerdict::NotChecked,
];

const GRADES: [&str; 3] = ["MUST", "SHOULD", "INFORMATIONAL"];

/// The heading a rule is listed under: its spec group for `R<n>`, "External rules" for an id of
/// another catalogue (`KAFKA-GMMT-123`), else what precedes the colon of a campaign's property
/// (`always`, `eventually`), else "Run".
fn group_of(rule: &str) -> (u32, String) {
    match rule.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()) {
        Some(number) => {
            let index = SPEC_GROUPS
                .iter()
                .rposition(|(first, _)| *first <= number)
                .unwrap_or(0);
            let (first, title) = SPEC_GROUPS[index];
            let span = match SPEC_GROUPS.get(index + 1).map(|(next, _)| next - 1) {
                None => format!("R{first}+"),
                Some(last) if last == first => format!("R{first}"),
                Some(last) => format!("R{first}\u{2013}R{last}"),
            };
            (index as u32, format!("{title} ({span})"))
        }
        // An id of another catalogue of rules, e.g. a Kafka test's.
        None if crate::scenario::check_rule_id(rule).is_ok() => {
            (u32::MAX - 1, "External rules".to_owned())
        }
        None => {
            let kind = rule.split_once(':').map_or("run", |(kind, _)| kind);
            (u32::MAX, format!("Campaign: {kind}"))
        }
    }
}

/// `text` with the characters HTML gives meaning to escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A name usable as an element id: letters, digits, `-` and `_`; anything else as `-`.
fn anchor(prefix: &str, name: &str) -> String {
    let tail: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{prefix}-{tail}")
}

/// The CSS class and filter value of a rule verdict: its label without spaces.
fn verdict_key(verdict: RuleVerdict) -> String {
    verdict.label().replace(' ', "-")
}

/// What a rule's row says when folded: the console's detail, or for a lone campaign property
/// (whose detail is empty) its verdict.
fn summary_of(detail: &str, line: &RuleLine) -> String {
    if detail.is_empty() {
        line.verdict.label().to_owned()
    } else {
        detail.to_owned()
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

impl Report {
    /// The report as one HTML page.
    pub fn html(&self) -> String {
        let verdict = self.verdict();
        let verdict_name = serde_json::to_value(verdict)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_default();
        let rules = self.rules();
        let mut out = String::new();
        writeln!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>streamspec {command}: {target}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <header>\n<h1>streamspec {command} <span class=\"target\">{target}</span></h1>\n\
             <p id=\"verdict\" class=\"verdict {verdict_name}\" data-verdict=\"{verdict_name}\" \
             data-exit-code=\"{exit}\">{text}</p>\n\
             <p class=\"run\">run id <code>{run_id}</code> · {strict} · exit code {exit}</p>",
            command = escape(&self.command),
            target = escape(&self.target),
            exit = verdict.exit_code(),
            text = escape(&self.verdict_text()),
            run_id = escape(&self.run_id),
            // Only check has SHOULD scenarios, and --strict; a campaign's and a proxy's
            // properties are all MUSTs.
            strict = match (self.command.as_str(), self.strict) {
                ("check", true) => "--strict: SHOULD failures fail the run".to_owned(),
                ("check", false) => "SHOULD failures do not fail the run (no --strict)".to_owned(),
                _ => format!("every {} is a MUST", self.unit().0),
            },
        )
        .unwrap();
        self.write_counts(&mut out, &rules);
        let shown = self.failures().len();
        if shown > 0 {
            writeln!(
                out,
                "<p><a href=\"#failures\">In detail: {shown} failing or divergent</a></p>"
            )
            .unwrap();
        }
        out.push_str("</header>\n");
        write_filters(&mut out);
        self.write_rules(&mut out, &rules);
        self.write_failures(&mut out);
        self.write_timeline(&mut out);
        self.write_sometimes(&mut out);
        self.write_notes(&mut out);
        writeln!(out, "<script>{SCRIPT}</script>\n</body>\n</html>").unwrap();
        out
    }

    /// Rules and the command's outcomes (scenarios, a campaign's invariants, a proxy's
    /// properties) counted by verdict, each count in an element a test can read.
    fn write_counts(&self, out: &mut String, rules: &[RuleLine]) {
        out.push_str("<table id=\"counts\">\n<tr><th></th>");
        for verdict in RULE_VERDICTS {
            write!(out, "<th>{}</th>", verdict.label()).unwrap();
        }
        out.push_str("<th>total</th></tr>\n<tr><th>rules</th>");
        for verdict in RULE_VERDICTS {
            let count = rules.iter().filter(|line| line.verdict == verdict).count();
            write!(
                out,
                "<td class=\"{key}\" data-rules=\"{key}\">{count}</td>",
                key = verdict_key(verdict)
            )
            .unwrap();
        }
        write!(
            out,
            "<td data-rules=\"total\">{}</td></tr>\n<tr><th>{}</th>",
            rules.len(),
            self.unit().1
        )
        .unwrap();
        for verdict in RULE_VERDICTS {
            let count = self
                .outcomes
                .iter()
                .filter(|outcome| RuleVerdict::of(outcome.verdict) == verdict)
                .count();
            write!(
                out,
                "<td class=\"{key}\" data-scenarios=\"{key}\">{count}</td>",
                key = verdict_key(verdict)
            )
            .unwrap();
        }
        writeln!(
            out,
            "<td data-scenarios=\"total\">{}</td></tr>\n</table>",
            self.outcomes.len()
        )
        .unwrap();
    }

    /// A table of rules per spec group, each rule with its scenarios folded under it.
    fn write_rules(&self, out: &mut String, rules: &[RuleLine]) {
        let mut groups: BTreeMap<(u32, String), Vec<&RuleLine>> = BTreeMap::new();
        for line in rules {
            groups.entry(group_of(&line.rule)).or_default().push(line);
        }
        out.push_str("<main id=\"rules\">\n");
        for ((_, title), lines) in groups {
            let counts: Vec<String> = RULE_VERDICTS
                .iter()
                .filter_map(|verdict| {
                    let count = lines.iter().filter(|line| line.verdict == *verdict).count();
                    (count > 0).then(|| {
                        format!(
                            "<span class=\"{}\">{count} {}</span>",
                            verdict_key(*verdict),
                            verdict.label()
                        )
                    })
                })
                .collect();
            writeln!(
                out,
                "<section class=\"group\" id=\"{id}\">\n<h2>{title} <small>{counts}</small></h2>\n\
                 <table class=\"rules\">\n<tr><th>rule</th><th>verdict</th><th>grade</th>\
                 <th>decided by</th></tr>",
                id = anchor("group", &title),
                title = escape(&title),
                counts = counts.join(" · "),
            )
            .unwrap();
            for line in lines {
                self.write_rule(out, line);
            }
            out.push_str("</table>\n</section>\n");
        }
        out.push_str("</main>\n");
    }

    fn write_rule(&self, out: &mut String, line: &RuleLine) {
        let key = verdict_key(line.verdict);
        write!(
            out,
            "<tr class=\"rule {key}\" id=\"{id}\" data-verdict=\"{key}\" data-grade=\"{grade}\" \
             data-fails-run=\"{fails}\"><td>{rule}</td><td class=\"verdict-cell\">{verdict}</td>\
             <td>{grade}</td><td><details><summary>{detail}</summary><ul>",
            id = anchor("rule", &line.rule),
            grade = line.grade,
            fails = line.fails_run,
            rule = escape(&line.rule),
            verdict = line.verdict.label(),
            detail = escape(&summary_of(&self.rule_detail(line), line)),
        )
        .unwrap();
        for outcome in self
            .outcomes
            .iter()
            .filter(|outcome| outcome.rules.contains(&line.rule))
        {
            let name = escape(&outcome.scenario);
            let scenario = if is_failure(outcome.verdict) {
                format!(
                    "<a href=\"#{}\">{name}</a>",
                    anchor("scenario", &outcome.scenario)
                )
            } else {
                name
            };
            write!(
                out,
                "<li><span class=\"{key}\">{verdict}</span> {grade} {scenario}: {title}{reason}</li>",
                key = verdict_key(RuleVerdict::of(outcome.verdict)),
                verdict = outcome.verdict.label(),
                grade = outcome.grade,
                title = escape(&outcome.title),
                reason = outcome
                    .reason
                    .as_deref()
                    .filter(|_| !is_failure(outcome.verdict))
                    .map_or(String::new(), |reason| format!(
                        " <em>({})</em>",
                        escape(reason)
                    )),
            )
            .unwrap();
        }
        out.push_str("</ul></details></td></tr>\n");
    }

    /// The outcomes the page details: failures, errors, timeouts and known divergences, those that
    /// fail the run first.
    fn failures(&self) -> Vec<&Outcome> {
        let mut failures: Vec<&Outcome> = self
            .outcomes
            .iter()
            .filter(|outcome| is_failure(outcome.verdict) || outcome.verdict == Verdict::Divergent)
            .collect();
        // What fails the run first.
        failures.sort_by_key(|outcome| !self.fails_run(outcome));
        failures
    }

    /// Each failing scenario: why, at which step, expected beside found, the annotated bytes of
    /// the failing exchange and every exchange of its steps.
    fn write_failures(&self, out: &mut String) {
        let failures = self.failures();
        if failures.is_empty() {
            return;
        }
        out.push_str("<section id=\"failures\">\n<h2>Failures and divergences</h2>\n");
        for outcome in failures {
            let key = verdict_key(RuleVerdict::of(outcome.verdict));
            writeln!(
                out,
                "<article class=\"failure\" id=\"{id}\" data-verdict=\"{key}\" \
                 data-grade=\"{grade}\" data-fails-run=\"{fails}\">\n\
                 <h3><span class=\"{key}\">{verdict}</span> {name} <small>{rules}{grade} · {source}</small></h3>\n\
                 <p class=\"title\">{title}</p>",
                id = anchor("scenario", &outcome.scenario),
                grade = outcome.grade,
                fails = self.fails_run(outcome),
                verdict = outcome.verdict.label(),
                name = escape(&outcome.scenario),
                rules = if outcome.rules == [outcome.scenario.clone()] {
                    String::new()
                } else {
                    format!("{} · ", escape(&outcome.rules.join(", ")))
                },
                source = escape(&outcome.source),
                title = escape(&outcome.title),
            )
            .unwrap();
            if is_failure(outcome.verdict) && !self.fails_run(outcome) {
                writeln!(
                    out,
                    "<p class=\"note\">Does not fail the run: {}.</p>",
                    not_counted_because(outcome.grade)
                )
                .unwrap();
            }
            if let Some(step) = outcome.step {
                writeln!(out, "<p class=\"step\">At step {step}.</p>").unwrap();
            }
            if let Some(reason) = &outcome.reason {
                writeln!(out, "<pre class=\"reason\">{}</pre>", escape(reason)).unwrap();
            }
            if let Some(mismatch) = &outcome.mismatch {
                writeln!(
                    out,
                    "<div class=\"side-by-side\"><div><h4>expected</h4><pre class=\"expected\">{}</pre></div>\
                     <div><h4>found</h4><pre class=\"found\">{}</pre></div></div>",
                    escape(&pretty(&mismatch.expected)),
                    escape(&pretty(&mismatch.found)),
                )
                .unwrap();
            }
            if let Some(wire) = &outcome.wire {
                writeln!(
                    out,
                    "<details class=\"wire\" open><summary>the failing exchange, annotated</summary>\
                     <pre>{}</pre></details>",
                    escape(wire)
                )
                .unwrap();
            }
            if !outcome.exchanges.is_empty() {
                write!(
                    out,
                    "<details class=\"steps\"><summary>{}</summary>",
                    plural(outcome.exchanges.len(), "exchange")
                )
                .unwrap();
                for exchange in &outcome.exchanges {
                    write!(out, "<pre>{}</pre>", escape(exchange)).unwrap();
                }
                out.push_str("</details>\n");
            }
            out.push_str("</article>\n");
        }
        out.push_str("</section>\n");
    }

    /// A campaign's shrunk failing run, a table per member: epochs and task lists over time.
    fn write_timeline(&self, out: &mut String) {
        if self.timeline.is_empty() {
            return;
        }
        let mut members: BTreeMap<&str, Vec<&TimelineEntry>> = BTreeMap::new();
        for entry in &self.timeline {
            members.entry(&entry.member).or_default().push(entry);
        }
        writeln!(
            out,
            "<section id=\"timeline\">\n<h2>The shrunk failing run, member by member</h2>\n\
             <p>{} in all; highlighted: the exchanges that show the violation; bold: task lists \
             sent in that answer (others are the lists last sent).</p>",
            plural(self.timeline.len(), "exchange")
        )
        .unwrap();
        for (member, entries) in members {
            writeln!(
                out,
                "<h3>{}</h3>\n<table class=\"member\" data-member=\"{}\">\n<tr><th>op</th>\
                 <th>at ms</th><th>epoch sent</th><th>epoch answered</th><th>error</th>\
                 <th>active</th><th>standby</th><th>warm-up</th></tr>",
                escape(member),
                escape(member)
            )
            .unwrap();
            for entry in entries {
                let mut classes = Vec::new();
                if entry.shows_violation {
                    classes.push("shows-violation");
                }
                if !entry.delivered {
                    classes.push("lost");
                }
                if entry.tasks_sent {
                    classes.push("tasks-sent");
                }
                writeln!(
                    out,
                    "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td>\
                     <td class=\"tasks\">{}</td><td class=\"tasks\">{}</td><td class=\"tasks\">{}</td></tr>",
                    classes.join(" "),
                    entry.operation,
                    entry.at_ms,
                    entry.sent_epoch,
                    entry.answered_epoch,
                    if entry.delivered { "" } else { " (lost)" },
                    entry.error_code,
                    escape(&entry.active),
                    escape(&entry.standby),
                    escape(&entry.warmup),
                )
                .unwrap();
            }
            out.push_str("</table>\n");
        }
        out.push_str("</section>\n");
    }

    /// A campaign's `sometimes` properties and how often its runs reached each.
    fn write_sometimes(&self, out: &mut String) {
        if self.sometimes.is_empty() {
            return;
        }
        out.push_str(
            "<section id=\"sometimes\">\n<h2>Coverage: <code>sometimes</code> properties</h2>\n\
             <table>\n<tr><th>property</th><th>rules</th><th>exchanges that reached it</th></tr>\n",
        );
        for sometimes in &self.sometimes {
            writeln!(
                out,
                "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td></tr>",
                if sometimes.reached {
                    "reached"
                } else {
                    "never-reached"
                },
                escape(&sometimes.property),
                escape(&sometimes.rules),
                sometimes.count
            )
            .unwrap();
        }
        out.push_str("</table>\n</section>\n");
    }

    /// Warnings, clean-up left on the target, and why a campaign stopped early.
    fn write_notes(&self, out: &mut String) {
        let cleanups = self.outcomes.iter().filter_map(|outcome| {
            outcome
                .cleanup
                .as_ref()
                .map(|cleanup| format!("{}: clean-up: {cleanup}", outcome.scenario))
        });
        let notes: Vec<String> = self
            .warnings
            .iter()
            .cloned()
            .chain(cleanups)
            .chain(
                self.stopped_early
                    .iter()
                    .map(|why| format!("stopped early: {why}")),
            )
            .collect();
        if notes.is_empty() {
            return;
        }
        out.push_str("<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul>\n");
        for note in notes {
            writeln!(out, "<li>{}</li>", escape(&note)).unwrap();
        }
        out.push_str("</ul>\n</section>\n");
    }
}

/// Check boxes for each rule verdict and grade; the page's fragment can preset them, e.g.
/// `#verdict=fail,error&grade=MUST`.
fn write_filters(out: &mut String) {
    out.push_str("<nav id=\"filters\">\n<span>verdict:</span>");
    for verdict in RULE_VERDICTS {
        write!(
            out,
            "<label><input type=\"checkbox\" name=\"verdict\" value=\"{}\" checked> {}</label>",
            verdict_key(verdict),
            verdict.label()
        )
        .unwrap();
    }
    out.push_str("<span>grade:</span>");
    for grade in GRADES {
        write!(
            out,
            "<label><input type=\"checkbox\" name=\"grade\" value=\"{grade}\" checked> {grade}</label>"
        )
        .unwrap();
    }
    out.push_str("</nav>\n");
}

const STYLE: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 3em;color:#1d1d1f}
h1 .target{font-family:monospace;font-weight:normal}
.verdict{font-size:1.3em;font-weight:bold;padding:.4em .7em;border-radius:4px;display:inline-block}
.verdict.passed{background:#e3f6e5;color:#14632a}
.verdict.failed,.verdict.target_lost{background:#fde4e4;color:#8a1212}
.verdict.nothing_checked,.verdict.interrupted{background:#fff4d6;color:#6b4e00}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}
#counts td{text-align:right;font-variant-numeric:tabular-nums}
#filters{position:sticky;top:0;background:#fafafa;border-bottom:1px solid #ddd;padding:.5em 0;z-index:1}
#filters span{font-weight:bold;margin:0 .4em 0 1em}
#filters label{margin-right:.6em}
.pass{color:#14632a}.fail,.error,.timeout{color:#a31515;font-weight:bold}
.divergent{color:#7a4e00}.not-checked{color:#777}
tr.rule.fail,tr.rule.error,tr.rule.timeout{background:#fff1f1}
tr.rule td:first-child{font-family:monospace;overflow-wrap:anywhere}
table.rules{width:100%}
details summary{cursor:pointer}
pre{background:#f6f6f6;padding:.5em;font-size:12px;margin:.3em 0;white-space:pre-wrap;overflow-wrap:anywhere}
table.rules{table-layout:fixed}
table.rules th:nth-child(1){width:22%}table.rules th:nth-child(2){width:8em}table.rules th:nth-child(3){width:9em}
.side-by-side{display:flex;gap:1em}.side-by-side>div{flex:1;min-width:0}
pre.expected{border-left:4px solid #14632a}pre.found{border-left:4px solid #a31515}
article.failure{border:1px solid #e5b4b4;border-radius:4px;padding:0 1em;margin:1em 0}
article.failure[data-verdict=divergent]{border-color:#e5d4a4}
table.member tr.shows-violation{background:#fde4e4}
table.member tr.lost td{color:#999;font-style:italic}
table.member tr.tasks-sent td.tasks{font-weight:bold}
td.tasks{font-family:monospace}
tr.never-reached{color:#7a4e00}
[hidden]{display:none!important}
";

const SCRIPT: &str = "
(function(){
  var boxes=document.querySelectorAll('#filters input');
  function chosen(name){
    return Array.prototype.filter.call(boxes,function(b){return b.name===name&&b.checked})
      .map(function(b){return b.value});
  }
  function apply(){
    var verdicts=chosen('verdict'),grades=chosen('grade');
    document.querySelectorAll('tr.rule').forEach(function(row){
      row.hidden=verdicts.indexOf(row.dataset.verdict)<0||grades.indexOf(row.dataset.grade)<0;
    });
    document.querySelectorAll('article.failure').forEach(function(item){
      item.hidden=verdicts.indexOf(item.dataset.verdict)<0||grades.indexOf(item.dataset.grade)<0;
    });
    document.querySelectorAll('section.group').forEach(function(group){
      group.hidden=group.querySelectorAll('tr.rule:not([hidden])').length===0;
    });
  }
  var preset={};
  location.hash.replace(/^#/,'').split('&').forEach(function(part){
    var kv=part.split('=');
    if(kv.length===2){preset[kv[0]]=decodeURIComponent(kv[1]).split(',');}
  });
  boxes.forEach(function(b){
    if(preset[b.name]){b.checked=preset[b.name].indexOf(b.value)>=0;}
    b.addEventListener('change',apply);
  });
  apply();
  document.body.dataset.filtered='true';
})();
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_fall_into_the_groups_of_spec_section_12() {
        assert_eq!(group_of("R1"), (0, "Validation (R1\u{2013}R14)".to_owned()));
        assert_eq!(
            group_of("R25"),
            (
                3,
                "Join, assignment and reconciliation (R25\u{2013}R42)".to_owned()
            )
        );
        assert_eq!(group_of("R46"), (5, "Endpoints (R46)".to_owned()));
        assert_eq!(
            group_of("R54"),
            (8, "Version-specific fencing (R54+)".to_owned())
        );
        assert_eq!(
            group_of("always: one owner per task"),
            (u32::MAX, "Campaign: always".to_owned())
        );
        assert_eq!(group_of("set-up"), (u32::MAX, "Campaign: run".to_owned()));
        assert_eq!(
            group_of("KAFKA-GMMT-123"),
            (u32::MAX - 1, "External rules".to_owned())
        );
    }

    #[test]
    fn text_from_the_target_cannot_open_elements() {
        assert_eq!(
            escape("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
        assert_eq!(anchor("scenario", "R25 join/a"), "scenario-R25-join-a");
    }

    #[test]
    fn the_counts_and_grading_name_what_the_command_judged() {
        for (command, unit, grading) in [
            (
                "check",
                "scenarios",
                "SHOULD failures do not fail the run (no --strict)",
            ),
            ("fuzz", "invariants", "every invariant is a MUST"),
            ("proxy", "properties", "every property is a MUST"),
        ] {
            let report = Report::new(command, "t".to_owned(), "r".to_owned(), false, Vec::new());
            let html = report.html();
            assert!(
                html.contains(&format!("<tr><th>{unit}</th><td class=")),
                "{command}"
            );
            assert!(
                html.contains(&format!("<code>r</code> · {grading} · exit code")),
                "{command}"
            );
        }
    }
}
