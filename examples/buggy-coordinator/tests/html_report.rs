//! The HTML report in a real browser: headless Chromium (Debian's `chromium` package) loads the
//! pages a check and a campaign against a planted bug write, runs their script, and the test
//! reads the resulting DOM. Without Chromium the test says it was skipped, except under CI
//! (`CI` set), which installs it and where its absence is a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use streamspec::campaign;
use streamspec::report::{Report, RuleVerdict};
use streamspec::runner::Verdict;
use streamspec::simulation::oracle;
use streamspec::{CampaignConfig, CheckOptions};
use streamspec_example_buggy_coordinator::{Bug, WithBug};

/// How long one page may take to load and render.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(60);

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("STREAMSPEC_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
}

/// A folder of this test's own, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("streamspec-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The page's DOM once its script has run, loaded from `page` with `fragment` in its address.
fn rendered(chromium: &Path, page: &Path, fragment: &str) -> String {
    let profile = scratch("profile");
    let dom = page.with_extension("dom");
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", page.display()))
        .stdout(std::fs::File::create(&dom).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            panic!(
                "chromium did not render {} within {BROWSER_TIMEOUT:?}",
                page.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium: {status}");
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::read_to_string(&dom).unwrap()
}

/// The opening tags of elements whose tag starts with `start`, e.g. `<tr class="rule `.
fn tags<'a>(dom: &'a str, start: &str) -> Vec<&'a str> {
    dom.match_indices(start)
        .map(|(at, _)| &dom[at..at + dom[at..].find('>').unwrap()])
        .collect()
}

/// The text of the first element that `start` opens, up to its closing `end`.
fn element<'a>(dom: &'a str, start: &str, end: &str) -> &'a str {
    let at = dom
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"));
    let length = dom[at..].find(end).expect("element closes");
    &dom[at..at + length]
}

fn count_cell(dom: &str, attribute: &str) -> usize {
    let cell = element(dom, &format!("{attribute}>"), "</td>");
    cell[attribute.len() + 1..].parse().unwrap()
}

fn rule_count(report: &Report, verdict: RuleVerdict) -> usize {
    report
        .rules()
        .iter()
        .filter(|line| line.verdict == verdict)
        .count()
}

#[test]
fn a_browser_shows_the_decision_the_failures_and_the_timeline() {
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs chromium for this test; set STREAMSPEC_CHROMIUM to its path"
        );
        eprintln!("skipped: no chromium (apt-get install chromium, or set STREAMSPEC_CHROMIUM)");
        return;
    };
    // STREAMSPEC_HTML_DIR keeps the pages (the README's screenshot is of the check page).
    let kept = std::env::var_os("STREAMSPEC_HTML_DIR").map(PathBuf::from);
    let dir = kept.clone().unwrap_or_else(|| scratch("pages"));
    std::fs::create_dir_all(&dir).unwrap();

    let report = streamspec::check(
        WithBug(Bug::AcceptsStaleEpochs),
        CheckOptions {
            record_exchanges: true,
            ..CheckOptions::default()
        },
    );
    let page = dir.join("check.html");
    std::fs::write(&page, report.html()).unwrap();
    let dom = rendered(&chromium, &page, "");
    // The script ran, and the page states the run's one decision.
    assert!(dom.contains("data-filtered=\"true\""), "{dom}");
    assert!(dom.contains(
        "id=\"verdict\" class=\"verdict failed\" data-verdict=\"failed\" data-exit-code=\"1\""
    ));
    // Ten fencing scenarios fail, and the reference's two INFORMATIONAL divergences from Kafka.
    assert_eq!(count_cell(&dom, "data-scenarios=\"fail\""), 12);
    assert_eq!(
        count_cell(&dom, "data-scenarios=\"total\""),
        report.outcomes.len()
    );
    for verdict in [
        RuleVerdict::Pass,
        RuleVerdict::Fail,
        RuleVerdict::NotChecked,
    ] {
        let key = verdict.label().replace(' ', "-");
        assert_eq!(
            count_cell(&dom, &format!("data-rules=\"{key}\"")),
            rule_count(&report, verdict),
            "{key}"
        );
    }
    // A stale epoch accepted: the expected fencing beside the answer found, and the bytes.
    let failure = element(
        &dom,
        "<article class=\"failure\" id=\"scenario-R23-greater-epoch-fenced\"",
        "</article>",
    );
    assert!(
        failure.contains("data-verdict=\"fail\" data-grade=\"MUST\" data-fails-run=\"true\""),
        "{failure}"
    );
    let expected = element(failure, "<pre class=\"expected\">", "</pre>");
    let found = element(failure, "<pre class=\"found\">", "</pre>");
    assert!(expected.contains("\"errorCode\": 110"), "{expected}");
    assert!(found.contains("\"errorCode\": 0"), "{found}");
    let wire = element(failure, "<details class=\"wire\"", "</details>");
    assert!(wire.contains("StreamsGroupHeartbeatResponse"), "{wire}");
    assert!(failure.contains("<details class=\"steps\">"), "{failure}");

    // Filtered to failures by the page's address: only failing rules stay visible.
    let dom = rendered(&chromium, &page, "#verdict=fail");
    let rows = tags(&dom, "<tr class=\"rule ");
    assert_eq!(rows.len(), report.rules().len());
    let visible: Vec<&&str> = rows.iter().filter(|row| !row.contains("hidden")).collect();
    assert_eq!(visible.len(), rule_count(&report, RuleVerdict::Fail));
    assert!(visible
        .iter()
        .all(|row| row.contains("data-verdict=\"fail\"")));
    assert!(element(
        &dom,
        "<input type=\"checkbox\" name=\"verdict\" value=\"pass\"",
        ">"
    )
    .contains("value=\"pass\""));

    // A campaign: its violation, its shrunk run member by member, its coverage.
    let config = CampaignConfig {
        seed: 1,
        duration: Duration::from_secs(3),
        ..CampaignConfig::default()
    };
    let result = streamspec::fuzz(WithBug(Bug::AcceptsStaleEpochs), &config);
    let report = campaign::report(&config, "buggy", &result, None);
    assert!(!report.timeline.is_empty());
    let page = dir.join("fuzz.html");
    std::fs::write(&page, report.html()).unwrap();
    let dom = rendered(&chromium, &page, "");
    assert!(dom.contains("data-verdict=\"failed\" data-exit-code=\"1\""));
    let violated = report
        .outcomes
        .iter()
        .find(|outcome| outcome.verdict == Verdict::Fail)
        .unwrap();
    assert_eq!(violated.scenario, oracle::EPOCH_NEVER_DECREASES.label());
    assert!(dom.contains(&format!(
        "id=\"scenario-{}\"",
        violated.scenario.replace(
            |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_',
            "-"
        )
    )));
    let timeline = element(&dom, "<section id=\"timeline\">", "</section>");
    let members: std::collections::BTreeSet<&str> = report
        .timeline
        .iter()
        .map(|entry| entry.member.as_str())
        .collect();
    assert_eq!(
        tags(timeline, "<table class=\"member\"").len(),
        members.len()
    );
    let shown = report
        .timeline
        .iter()
        .filter(|entry| entry.shows_violation)
        .count();
    assert!(shown > 0);
    assert_eq!(tags(timeline, "<tr class=\"shows-violation").len(), shown);
    let sometimes = element(&dom, "<section id=\"sometimes\">", "</section>");
    assert_eq!(
        tags(sometimes, "<tr class=\"").len(),
        report.sometimes.len()
    );
    if kept.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
