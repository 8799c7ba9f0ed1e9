//! What the proxy sees of the Streams rebalance protocol: every StreamsGroupHeartbeat and
//! StreamsGroupDescribe request with its answer is judged, as it passes, by the oracle's
//! properties that are sound on traffic the harness does not drive ([`judge`]). A violation is
//! printed at once and its group's exchanges written as a live trace that `streamspec replay`
//! judges again; on exit the groups declared settled are judged so ([`settle`]), and the proxy
//! reports every property as `fuzz` does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::runner::{Outcome, Verdict};
use crate::scenario::Grade;
use crate::simulation::oracle::{self, Property};

pub mod judge;
pub mod reference;
pub mod settle;
mod topics;

pub use topics::{shows_topics, GroupConfigSeen, TopicSeen, TOPIC_CHANGES_MAX};

pub use judge::{LiveJudge, LiveViolation, Passed, DESCRIBE_KEY, HEARTBEAT_KEY};

/// The `kind` of a live trace, which tells it apart from a campaign's.
pub const LIVE_TRACE_KIND: &str = "live";
/// The `property` of a trace `--capture` wrote, which no violation made.
pub const CAPTURED: &str = "(captured)";

/// A group's exchanges up to a violation, as the proxy saw them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveTrace {
    /// Always [`LIVE_TRACE_KIND`].
    pub kind: String,
    /// The broker behind the proxy.
    pub upstream: String,
    pub group: String,
    /// The violated property, as reports name it.
    pub property: String,
    pub violation: String,
    /// Earlier exchanges of the group the proxy no longer kept ([`judge::EXCHANGES_PER_GROUP`]).
    pub dropped: u64,
    /// Oldest first, the one that showed the violation last.
    pub exchanges: Vec<Passed>,
    /// Every change of a topic's partition count the proxy saw until the trace was written,
    /// oldest first: what the reference needs to answer the exchanges again.
    #[serde(default)]
    pub topics: Vec<TopicSeen>,
    /// Every change of the group's group-level configs the proxy saw, oldest first.
    #[serde(default)]
    pub group_configs: Vec<GroupConfigSeen>,
    /// The broker's configs that decide its answers besides the group's
    /// ([`crate::differential::MIRRORED_BROKER_CONFIGS`]), as the proxy read them when it
    /// started; empty when it could not, and in traces written before it did.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub broker_configs: BTreeMap<String, String>,
}

/// The first violation of one property in one group, and how often it was seen.
#[derive(Debug, Clone)]
struct Seen {
    first: LiveViolation,
    times: u64,
    trace: Option<PathBuf>,
}

#[derive(Debug, Default)]
struct State {
    judge: LiveJudge,
    /// By property name, then group.
    seen: BTreeMap<&'static str, BTreeMap<String, Seen>>,
    traces_written: u64,
    topics: topics::Topics,
    /// What judging the groups as settled at the end found, once it ran.
    at_exit: Option<AtExit>,
}

/// Groups judged settled at the proxy's end, and why others were not judged.
#[derive(Debug, Default)]
struct AtExit {
    settled: u64,
    not_judged: Vec<(String, String)>,
}

/// Judges the exchanges of every connection of a proxy, shared by all of them.
#[derive(Debug)]
pub struct Observer {
    started: Instant,
    /// Seconds since the Unix epoch at start: the report's run id.
    started_at: u64,
    upstream: String,
    trace_dir: PathBuf,
    /// The user declared the groups settled when the proxy stops (`--settled-at-exit`).
    settled_at_exit: bool,
    state: Mutex<State>,
    /// The upstream broker's configs, read once as the proxy starts, for the traces, or why
    /// they could not be read.
    broker_configs: std::sync::OnceLock<Result<BTreeMap<String, String>, String>>,
}

/// Whether the proxy records exchanges of `api_key`.
pub fn watches(api_key: i16) -> bool {
    matches!(api_key, HEARTBEAT_KEY | DESCRIBE_KEY)
}

/// A file name made of `group`: characters other than letters, digits, `.`, `_` and `-` become
/// `_`, and it is cut to 100 characters.
fn file_safe(group: &str) -> String {
    group
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '_',
        })
        .take(100)
        .collect()
}

impl Observer {
    pub fn new(upstream: &str, trace_dir: &Path, settled_at_exit: bool) -> Observer {
        Observer {
            started: Instant::now(),
            started_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_secs()),
            upstream: upstream.to_owned(),
            trace_dir: trace_dir.to_owned(),
            settled_at_exit,
            state: Mutex::new(State::default()),
            broker_configs: std::sync::OnceLock::new(),
        }
    }

    /// Keeps the upstream broker's configs for the traces written from now on, or why they
    /// could not be read.
    pub fn record_broker_configs(&self, configs: Result<BTreeMap<String, String>, String>) {
        let _ = self.broker_configs.set(configs);
    }

    /// Why the traces carry no broker configs, when they do not.
    pub fn broker_configs_missing(&self) -> Option<String> {
        match self.broker_configs.get() {
            Some(Ok(_)) => None,
            Some(Err(error)) => Some(error.clone()),
            None => Some("not read yet when the proxy stopped".to_owned()),
        }
    }

    /// Follows the topics' partition counts a Metadata, CreateTopics or DeleteTopics answer
    /// shows (frames without size prefix), for the traces.
    pub fn record_topics(&self, api_key: i16, version: i16, response: &[u8]) {
        let at_ms = self.now_ms();
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.topics.seen(at_ms, api_key, version, response);
    }

    /// Milliseconds since the proxy started: the times of the traces.
    pub fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Judges a request frame and its answer (both without size prefix) of `api_key` at
    /// `version`, before the answer goes on to the client; the request went on to the broker at
    /// `sent_ms` ([`Observer::now_ms`]). A violation is printed the first time its property
    /// fails in its group, and that group's trace written.
    pub fn record(
        &self,
        api_key: i16,
        version: i16,
        sent_ms: u64,
        request: &[u8],
        response: &[u8],
    ) {
        let passed = Passed {
            at_ms: self.now_ms(),
            sent_ms: Some(sent_ms),
            api_key,
            version,
            request: request.to_vec(),
            response: response.to_vec(),
        };
        // A panic elsewhere leaves the state as consistent as any single judgement.
        let mut guard = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *guard;
        for violation in state.judge.judge(&passed, state.topics.known()) {
            self.note(state, violation);
        }
    }

    /// Judges every followed group as settled, when the user declared so, once: an unsettled
    /// group is a violation, printed and traced as any other. Called when the proxy stops.
    pub fn finish(&self) {
        if !self.settled_at_exit {
            return;
        }
        let mut guard = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let state = &mut *guard;
        if state.at_exit.is_some() {
            return;
        }
        let mut at_exit = AtExit::default();
        let mut unsettled = Vec::new();
        for group in state.judge.groups() {
            let Some(record) = state.judge.group(group) else {
                continue;
            };
            match settle::settled_at_exit(group, record, state.topics.known()) {
                settle::Settlement::Settled => at_exit.settled += 1,
                settle::Settlement::Unsettled(violation) => unsettled.push(violation),
                settle::Settlement::NotJudged(why) => {
                    at_exit.not_judged.push((group.to_owned(), why));
                }
            }
        }
        for violation in unsettled {
            self.note(state, violation);
        }
        state.at_exit = Some(at_exit);
    }

    /// Counts a violation; the first of its property in its group is printed and traced.
    fn note(&self, state: &mut State, violation: LiveViolation) {
        let first = !state
            .seen
            .get(violation.property.name)
            .is_some_and(|groups| groups.contains_key(&violation.group));
        if !first {
            let groups = state.seen.entry(violation.property.name).or_default();
            if let Some(seen) = groups.get_mut(&violation.group) {
                seen.times += 1;
            }
            return;
        }
        state.traces_written += 1;
        let number = state.traces_written;
        let trace = self.write_trace(state, &violation, number);
        let where_to = match &trace {
            Ok(path) => format!("trace: {}", path.display()),
            Err(error) => format!("no trace written: {error}"),
        };
        eprintln!(
            "streamspec proxy: VIOLATION {}  {where_to}",
            violation.render()
        );
        state
            .seen
            .entry(violation.property.name)
            .or_default()
            .insert(
                violation.group.clone(),
                Seen {
                    first: violation,
                    times: 1,
                    trace: trace.ok(),
                },
            );
    }

    /// Writes the exchanges of the violation's group as `streamspec-live-N-GROUP.json` in the
    /// trace folder.
    fn write_trace(
        &self,
        state: &State,
        violation: &LiveViolation,
        number: u64,
    ) -> Result<PathBuf, String> {
        let path = self.trace_dir.join(format!(
            "{}live-{number}-{}.json",
            crate::NAME_PREFIX,
            file_safe(&violation.group)
        ));
        self.write_group(
            state,
            &violation.group,
            violation.property.label(),
            violation.detail.clone(),
            path,
        )
    }

    /// Writes the exchanges of every followed group as `streamspec-capture-GROUP.json` in the
    /// trace folder (`--capture`): what `streamspec replay --differential` answers again with
    /// the reference. Returns each file written, or why it was not.
    pub fn capture(&self) -> Vec<Result<PathBuf, String>> {
        let state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state
            .judge
            .groups()
            .map(|group| {
                let path = self.trace_dir.join(format!(
                    "{}capture-{}.json",
                    crate::NAME_PREFIX,
                    file_safe(group)
                ));
                self.write_group(
                    &state,
                    group,
                    CAPTURED.to_owned(),
                    "written when the proxy stopped".to_owned(),
                    path,
                )
            })
            .collect()
    }

    fn write_group(
        &self,
        state: &State,
        group: &str,
        property: String,
        violation: String,
        path: PathBuf,
    ) -> Result<PathBuf, String> {
        let record = state
            .judge
            .group(group)
            .ok_or_else(|| format!("group {group} is not followed"))?;
        let trace = LiveTrace {
            kind: LIVE_TRACE_KIND.to_owned(),
            upstream: self.upstream.clone(),
            group: group.to_owned(),
            property,
            violation,
            dropped: record.dropped,
            exchanges: record.passed.clone(),
            topics: state.topics.changes().to_vec(),
            group_configs: state.topics.config_changes(group),
            broker_configs: self
                .broker_configs
                .get()
                .and_then(|read| read.as_ref().ok())
                .cloned()
                .unwrap_or_default(),
        };
        let text = serde_json::to_string_pretty(&trace).map_err(|error| error.to_string())?;
        std::fs::write(&path, text).map_err(|error| format!("{}: {error}", path.display()))?;
        Ok(path)
    }

    /// The report of everything judged so far: a line per `always` property of the oracle,
    /// passed or failed where it is judged live, skipped with the reason where it is not.
    pub fn report(&self, listen: &str) -> Report {
        let state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let judge = &state.judge;
        let duration_ms = self.started.elapsed().as_millis() as u64;
        let outcomes = oracle::invariants()
            .map(|property| {
                let seen = state.seen.get(property.name);
                let mut outcome = outcome(property, seen, judge, self.settled_at_exit, duration_ms);
                if property.name == oracle::SETTLES.name && seen.is_none() {
                    settled_outcome(&mut outcome, state.at_exit.as_ref());
                }
                outcome
            })
            .collect();
        let mut report = Report::new(
            "proxy",
            format!("{listen} -> {}", self.upstream),
            self.started_at.to_string(),
            false,
            outcomes,
        );
        if judge.judged == 0 {
            report.nothing_checked = Some("no Streams group traffic passed the proxy".to_owned());
            report.warnings.push(
                "no StreamsGroupHeartbeat or StreamsGroupDescribe exchange passed the proxy: nothing was judged"
                    .to_owned(),
            );
        }
        if judge.unfollowed > 0 {
            report.warnings.push(format!(
                "{} exchanges of groups past the first {} were not judged",
                judge.unfollowed,
                judge::GROUPS_MAX
            ));
        }
        if state.topics.unrecorded > 0 {
            report.warnings.push(format!(
                "{} changes of topics or group configs past the first {TOPIC_CHANGES_MAX} were not recorded in traces",
                state.topics.unrecorded
            ));
        }
        if judge.undecoded_requests > 0 {
            report.warnings.push(format!(
                "{} requests did not decode (clients may send such on purpose): only their answers' form was judged",
                judge.undecoded_requests
            ));
        }
        report
    }
}

/// The verdict of "the group settles" when no group broke it: passed when some group was
/// judged settled, else not checked, with why each group was not judged.
fn settled_outcome(outcome: &mut Outcome, at_exit: Option<&AtExit>) {
    let Some(at_exit) = at_exit else {
        return;
    };
    let not_judged: Vec<String> = at_exit
        .not_judged
        .iter()
        .map(|(group, why)| format!("group {group} not judged: {why}"))
        .collect();
    let mut reason = match at_exit.settled {
        0 if not_judged.is_empty() => "not judged: no group was followed".to_owned(),
        0 => "not judged".to_owned(),
        1 => "1 group settled when the proxy stopped".to_owned(),
        settled => format!("{settled} groups settled when the proxy stopped"),
    };
    for why in &not_judged {
        reason.push_str("; ");
        reason.push_str(why);
    }
    outcome.verdict = if at_exit.settled > 0 {
        Verdict::Pass
    } else {
        Verdict::Skip
    };
    outcome.reason = Some(reason);
}

fn outcome(
    property: &'static Property,
    seen: Option<&BTreeMap<String, Seen>>,
    judge: &LiveJudge,
    settled_at_exit: bool,
    duration_ms: u64,
) -> Outcome {
    let (verdict, reason, wire) = match (judge::not_live_because(property, settled_at_exit), seen) {
        (Some(why), _) => (Verdict::Skip, Some(format!("not judged live: {why}")), None),
        (None, Some(groups)) => {
            let reason = groups
                .iter()
                .map(|(group, seen)| {
                    let trace = seen.trace.as_ref().map_or(String::new(), |path| {
                        format!("; replay: streamspec replay {}", path.display())
                    });
                    format!(
                        "group {group}: {} ({} times){trace}",
                        seen.first.detail, seen.times
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            let wire = groups.values().map(|seen| seen.first.render()).collect();
            (Verdict::Fail, Some(reason), Some(wire))
        }
        (None, None) => match judge::exchanges_judging(property, judge) {
            // Nothing checked is never reported as passing.
            0 => (
                Verdict::Skip,
                Some("not judged: no exchange that shows it passed the proxy".to_owned()),
                None,
            ),
            judged => (
                Verdict::Pass,
                Some(format!("{judged} exchanges judged")),
                None,
            ),
        },
    };
    Outcome {
        scenario: property.label(),
        title: format!("{property} ({})", property.rules),
        rules: vec![property.label()],
        grade: Grade::Must,
        source: "proxy".to_owned(),
        verdict,
        reason,
        step: None,
        wire,
        cleanup: None,
        mismatch: None,
        exchanges: Vec::new(),
        duration_ms,
        stale_divergence: false,
    }
}

/// The live trace in `file`, or `None` when it is another kind of trace.
pub fn read_live_trace(file: &Path) -> Result<Option<LiveTrace>, String> {
    let text =
        std::fs::read_to_string(file).map_err(|error| format!("{}: {error}", file.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|error| format!("{}: not a trace: {error}", file.display()))?;
    if value.get("kind").and_then(|kind| kind.as_str()) != Some(LIVE_TRACE_KIND) {
        return Ok(None);
    }
    let trace: LiveTrace = serde_json::from_value(value).map_err(|error| {
        format!(
            "{}: not a live trace that `streamspec proxy` wrote: {error}",
            file.display()
        )
    })?;
    Ok(Some(trace))
}

/// What judging a live trace again found: the text to print and whether it shows a violation
/// of its group.
#[derive(Debug)]
pub struct Rejudged {
    pub text: String,
    pub violated: bool,
}

/// Judges the exchanges of a live trace again, in order, as the proxy did, with the topics'
/// counts as the trace recorded them by each exchange's time: real clients' exchanges cannot be
/// driven again, so nothing is sent to any target. A trace the proxy wrote because its group was
/// not settled when it stopped is judged so again at its end. `history` also prints every
/// exchange.
pub fn rejudge(trace: &LiveTrace, history: bool) -> Rejudged {
    let mut text = format!(
        "judging again the {} exchanges of group {} seen in front of {} (a live trace: nothing is sent to a target); recorded: {}: {}\n",
        trace.exchanges.len(),
        trace.group,
        trace.upstream,
        trace.property,
        trace.violation
    );
    if trace.dropped > 0 {
        text.push_str(&format!(
            "{} earlier exchanges were not kept: what they showed is not judged\n",
            trace.dropped
        ));
    }
    let mut judge = LiveJudge::default();
    let mut violated = false;
    let mut partitions = BTreeMap::new();
    let mut topics = trace.topics.iter().peekable();
    for passed in &trace.exchanges {
        while let Some(change) = topics.next_if(|change| change.at_ms <= passed.at_ms) {
            topics::set_count(&mut partitions, &change.topic, change.partitions);
        }
        if history {
            text.push_str(&format!(
                "  [{} ms] api {} v{}\n  -> {}\n  <- {}\n",
                passed.at_ms,
                passed.api_key,
                passed.version,
                judge::hex::encode(&passed.request),
                judge::hex::encode(&passed.response)
            ));
        }
        for violation in judge.judge(passed, &partitions) {
            if violation.group != trace.group {
                continue;
            }
            violated = true;
            text.push_str(&format!("VIOLATION: {}", violation.render()));
        }
    }
    text.push_str(&format!(
        "{}: judged on {} of {} heartbeats (those of a group whose topology's tasks were known)\n",
        oracle::TASKS_EXIST.label(),
        judge.tasks_judged,
        judge.heartbeats
    ));
    if trace.property == oracle::SETTLES.label() {
        for change in topics {
            topics::set_count(&mut partitions, &change.topic, change.partitions);
        }
        let settlement = judge
            .group(&trace.group)
            .map(|record| settle::settled_at_exit(&trace.group, record, &partitions));
        match settlement {
            Some(settle::Settlement::Unsettled(violation)) => {
                violated = true;
                text.push_str(&format!(
                    "at the trace's end, where the proxy stopped: VIOLATION: {}",
                    violation.render()
                ));
            }
            Some(settle::Settlement::Settled) => text.push_str(&format!(
                "at the trace's end, where the proxy stopped, group {} is settled\n",
                trace.group
            )),
            Some(settle::Settlement::NotJudged(why)) => text.push_str(&format!(
                "at the trace's end, where the proxy stopped, group {} is not judged: {why}\n",
                trace.group
            )),
            None => {}
        }
    }
    if !violated {
        text.push_str(&format!(
            "{} exchanges, no violation in group {}\n",
            trace.exchanges.len(),
            trace.group
        ));
        // A capture records no violation: there is nothing to reproduce.
        if trace.property != CAPTURED {
            text.push_str(&format!(
                "did not reproduce: the violation the trace recorded ({}: {}) was not found again\n",
                trace.property, trace.violation
            ));
        }
    }
    Rejudged { text, violated }
}
