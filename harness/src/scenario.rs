//! Scenarios as data: the JSON format of a conformance check, and loading it from files.
//!
//! ```json
//! {
//!   "name": "R1-blank-member-id",
//!   "title": "A heartbeat with a blank MemberId is refused with INVALID_REQUEST",
//!   "rules": ["R1"],
//!   "grade": "MUST",
//!   "topics": [{ "name": "in", "partitions": 2 }],
//!   "steps": [
//!     { "heartbeat": { "member": "", "as": "join" },
//!       "expect": { "errorCode": 42, "errorMessage": "MemberId can't be empty.", "status": null } }
//!   ]
//! }
//! ```
//!
//! - `topics` are created before the steps (`"create": false` only names one, e.g. an internal
//!   topic the coordinator should create) under a fresh name per run; `${in}` stands for the real
//!   name of topic `in`, `${group}` for the scenario's fresh group id.
//! - `topology` (optional) is the topology a `join` sends, in the JSON form of the request's
//!   `topology` field; by default one subtopology `"0"` reading `${in}`.
//! - A `heartbeat` step starts from a template (`as`): `join` (epoch 0, rebalance timeout 30000,
//!   empty task lists, the scenario's topology, process id `p-<member>`), `heartbeat` (the member's
//!   last epoch, everything else null), `leave` (-1), `static_leave` (-2) or `raw` (group and member
//!   id only); `fields` then overrides top-level request fields (Kafka's JSON names).
//! - A `describe` step describes `groups` (default `["${group}"]`).
//! - `sleep_ms` waits in real time (for session and rebalance timeouts).
//! - `consumer_group` makes the scenario's group id a consumer group: a consumer joins it with
//!   ConsumerGroupHeartbeat, subscribed to `topics`.
//! - `deny` takes an operation (`READ`, `DESCRIBE`, `CREATE`) away from every client on a
//!   resource (`GROUP` or `TOPIC` with a `name`, or the `CLUSTER`), as ACLs do on a broker with an
//!   authorizer; the scenario's ACLs go when it ends. Such a scenario must require the authorizer
//!   (it is refused otherwise):
//!   `"broker_configs": { "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer" }`.
//! - `group_config` sets group-level configs of the scenario's group (IncrementalAlterConfigs on a
//!   GROUP resource), e.g. `{ "streams.num.standby.replicas": "1" }`. Without `expect` a refusal
//!   fails the step; with one, `{"errorCode": .., "errorMessage": ..}` of the answer is matched
//!   (0 and null when the configs were set).
//! - `topic` creates, grows or deletes one of the scenario's `topics` mid-scenario
//!   (`{"create": "late", "partitions": 2}`, `{"grow": "in", "partitions": 3}`,
//!   `{"delete": "late"}`) and waits until the coordinator sees the change; a target that cannot
//!   grow topics, or refuses to delete them (TOPIC_DELETION_DISABLED), skips the scenario.
//! - `tasks` judges the tasks of several `members` together, from their latest heartbeat answers
//!   or (`"from": "describe"`) the latest describe: `union` (`"all"` or a list of tasks),
//!   `disjoint`, `disjoint_per_process`, `count`, of one `kind` (`active`, `standby`, `warmup`).
//! - `rules` are the spec's `R1` to [`SPEC_RULES`], or ids of another catalogue of the form
//!   `[A-Z][A-Z0-9-]*` (`KAFKA-19233`).
//! - `group_configs` (top level) sets group-level configs on the scenario's group before its
//!   first step, e.g. `{ "streams.session.timeout.ms": "6000" }` for a scenario that waits for a
//!   session timeout. Every group also gets [`BASELINE_GROUP_CONFIGS`] (no initial rebalance
//!   delay, no assignment interval) unless the scenario sets them otherwise. A target that does
//!   not know or refuses a config the scenario asks for skips it, naming the config, the value
//!   and the target's answer (a broker whose `group.streams.min.session.timeout.ms` is 45000
//!   refuses 6000); a baseline config the target does not know is left alone. The
//!   `group_config` steps without `expect` a scenario begins with count as its `group_configs`
//!   here: a target that refuses one skips the scenario (a broker capping standbys at 0 refuses
//!   `streams.num.standby.replicas=1`).
//! - `expect` is matched against the response's JSON (see [`crate::matcher`]); `capture` stores
//!   values of the response by JSON pointer for later `${name}` (or `${name+1}`) references.
//! - `until: { "within_ms": N }` repeats the step until `expect` matches, within the bound.
//! - `"precondition": true` marks a step as set-up for the rule under test, not the rule itself
//!   (e.g. the join that makes a member, in a scenario about fencing it). When its `expect` does
//!   not hold (or its `until` runs out), the scenario ends there with the verdict
//!   `precondition_not_met`, naming the step and what differed, instead of failing its rules. It
//!   needs an `expect`, and a scenario needs at least one step that is no precondition.
//! - `requires: { "heartbeat_version": 1 }` skips the scenario where less is negotiated;
//!   `requires: { "broker_configs": { "group.streams.max.size": "2" } }` skips it on a broker whose
//!   configs have other values (the reference in process starts with them);
//!   `requires: { "max_heartbeat_version": 0 }` skips it where more is negotiated (behaviour of
//!   brokers without later versions); `requires: { "profiles": ["kafka-4.3", "kafka-4.4"] }`
//!   runs it only under those behaviour profiles (`check --expect`, default `kafka-4.4`), for
//!   behaviour that differs between Kafka releases, whatever broker is under test.
//!
//! Loading checks more than the JSON shape, and refuses a file at the line and column of the
//! offending value: a step's `version` must be one the message has (0 to 1 for both); topics have
//! names of their own, short enough for Kafka with the longest run id; a topic has 1 to
//! [`MAX_PARTITIONS`] (10,000) partitions, and an internal topic in a topology at most that many;
//! `sleep_ms` and `until.within_ms` are at most [`MAX_WAIT_MS`] (600,000 ms), `every_ms` at least 1
//! and at most `within_ms`; `fields` and `topology` use only the request's JSON field names, at
//! every depth, and `expect` only its answer's (inside `$` operators too), with operands its
//! operators can use (`$gt` a number); a `${name}` names `group`, a topic, or a capture of an
//! earlier step (the scenario's `topology` only `group` and topics); and a precondition has an
//! `expect`, and not every step is one.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod checks;
pub mod locate;
mod step;
pub(crate) mod variables;

pub use checks::{answer_exemplars, answer_has_field, MAX_PARTITIONS, MAX_WAIT_MS};
pub use step::{
    AclOperation, AclResource, Answer, ConsumerGroupStep, DenyStep, DescribeStep, HeartbeatStep,
    RawStep, Step, TaskKind, TaskList, TaskUnion, TasksSource, TasksStep, Template, TopicChange,
    TopicStep, Until,
};

/// How much a scenario's outcome counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Grade {
    /// Required behaviour: a failure fails the run.
    Must,
    /// Expected behaviour: a failure fails the run only with `--strict`.
    Should,
    /// Behaviour an implementation may choose: reported, never failing.
    Informational,
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Grade::Must => "MUST",
            Grade::Should => "SHOULD",
            Grade::Informational => "INFORMATIONAL",
        })
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Unique within a run; also names the group and topics.
    pub name: String,
    pub title: String,
    /// Rule ids of section 12 of the spec, e.g. `R25`, or of another catalogue (`KAFKA-19233`;
    /// see [`check_rule_id`]).
    pub rules: Vec<String>,
    pub grade: Grade,
    /// Where the real broker differs from the spec text, and how that was established.
    #[serde(default)]
    pub evidence: Option<String>,
    #[serde(default)]
    pub requires: Requires,
    #[serde(default)]
    pub topics: Vec<TopicSetup>,
    #[serde(default)]
    pub topology: Option<Value>,
    /// Group-level configs the scenario needs on its group, set before its first step, over
    /// [`BASELINE_GROUP_CONFIGS`].
    #[serde(default)]
    pub group_configs: BTreeMap<String, String>,
    pub steps: Vec<Step>,
    /// The file it came from.
    #[serde(skip)]
    pub source: String,
}

/// Group configs every scenario's group gets unless the scenario sets them otherwise: the group
/// computes a new assignment on the heartbeat that calls for one, with no initial delay (spec
/// 4.5) and no throttle (4.4), which is what the catalogue's expected epochs assume. A target
/// that does not know one of them has no such delay, and is left as it is.
pub const BASELINE_GROUP_CONFIGS: [(&str, &str); 2] = [
    ("streams.initial.rebalance.delay.ms", "0"),
    ("streams.assignment.interval.ms", "0"),
];

/// The baseline configs a target lists among its group configs (`listed`), to set on a group;
/// those it does not list are left alone (it has no such delay).
pub fn listed_baseline_group_configs(listed: &[String]) -> Vec<(String, String)> {
    BASELINE_GROUP_CONFIGS
        .iter()
        .filter(|(name, _)| listed.iter().any(|known| known == name))
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect()
}

impl Scenario {
    /// How many members join the scenario's group (distinct `join` members; a static member's
    /// rejoin under a new member id counts as well, as the group holds both for a while).
    pub fn joining_members(&self) -> usize {
        let mut members: Vec<&str> = self
            .steps
            .iter()
            .filter_map(|step| match step {
                Step::Heartbeat { request, .. } if request.template == Template::Join => {
                    Some(request.member.as_str())
                }
                _ => None,
            })
            .collect();
        members.sort_unstable();
        members.dedup();
        members.len()
    }

    /// The group configs set before the scenario's first exchange: its `group_configs`, then
    /// those of the `group_config` steps without `expect` it begins with (a later value wins).
    pub fn group_configs_before_first_exchange(&self) -> BTreeMap<String, String> {
        let mut configs = self.group_configs.clone();
        for step in &self.steps {
            match step {
                Step::GroupConfig {
                    configs: set,
                    expect: None,
                    ..
                } => configs.extend(set.clone()),
                _ => break,
            }
        }
        configs
    }

    /// Whether the scenario sets something on the whole cluster (an ACL on it), which other
    /// scenarios on the same broker would meet.
    pub fn changes_the_cluster(&self) -> bool {
        self.steps.iter().any(
            |step| matches!(step, Step::Deny { deny, .. } if deny.resource == AclResource::Cluster),
        )
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Requires {
    /// The lowest StreamsGroupHeartbeat version the scenario needs.
    #[serde(default)]
    pub heartbeat_version: Option<i16>,
    /// The highest StreamsGroupHeartbeat version the scenario is about: behaviour of brokers
    /// that do not offer later versions.
    #[serde(default)]
    pub max_heartbeat_version: Option<i16>,
    /// Broker configs the scenario needs at these values (e.g. a small
    /// `group.streams.max.size`); it is skipped on a target set otherwise.
    #[serde(default)]
    pub broker_configs: BTreeMap<String, String>,
    /// The behaviour profiles whose expectations the scenario states; empty for all of them.
    #[serde(default)]
    pub profiles: Vec<Profile>,
}

/// Whose behaviour a run expects (`check --expect`) where Kafka releases differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, clap::ValueEnum)]
pub enum Profile {
    /// Kafka 4.2: StreamsGroupHeartbeat v0 only, no assignment interval, no static membership.
    #[serde(rename = "kafka-4.2")]
    #[value(name = "kafka-4.2")]
    Kafka42,
    /// Kafka 4.3: v0 only, no static membership, warm-up or task-offset handling.
    #[serde(rename = "kafka-4.3")]
    #[value(name = "kafka-4.3")]
    Kafka43,
    /// Kafka 4.4, which the reference coordinator implements.
    #[default]
    #[serde(rename = "kafka-4.4")]
    #[value(name = "kafka-4.4")]
    Kafka44,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Kafka42 => "kafka-4.2",
            Profile::Kafka43 => "kafka-4.3",
            Profile::Kafka44 => "kafka-4.4",
        })
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSetup {
    pub name: String,
    #[serde(default = "one")]
    pub partitions: i32,
    /// False for a name the scenario uses without creating the topic.
    #[serde(default = "yes")]
    pub create: bool,
}

fn one() -> i32 {
    1
}

fn yes() -> bool {
    true
}

#[derive(Debug)]
pub struct ScenarioError {
    pub source: String,
    /// 1-based; 0 when the problem is not at one place in the file.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.source, self.line, self.column, self.message
            )
        } else {
            write!(f, "{}: {}", self.source, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Parses and checks one scenario file's text.
pub fn parse(source: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let mut scenario: Scenario = serde_json::from_str(text).map_err(|error| {
        // The position goes in front, as path:line:column, not after the message too.
        let position = format!(" at line {} column {}", error.line(), error.column());
        let message = error.to_string();
        ScenarioError {
            source: source.to_owned(),
            line: error.line(),
            column: error.column(),
            message: message
                .strip_suffix(&position)
                .unwrap_or(&message)
                .to_owned(),
        }
    })?;
    scenario.source = source.to_owned();
    let invalid = |message: String| ScenarioError {
        source: source.to_owned(),
        line: 0,
        column: 0,
        message,
    };
    if scenario.rules.is_empty() {
        return Err(invalid("names no rule".to_owned()));
    }
    for rule in &scenario.rules {
        check_rule_id(rule).map_err(invalid)?;
    }
    if scenario.steps.is_empty() {
        return Err(invalid("has no steps".to_owned()));
    }
    checks::check(&scenario).map_err(|checks::Invalid { path, message }| {
        let (line, column) = locate::locate_nearest(text, &path).unwrap_or((0, 0));
        ScenarioError {
            source: source.to_owned(),
            line,
            column,
            message,
        }
    })?;
    Ok(scenario)
}

/// The highest rule id of the spec (section 12): its rules are `R1` to `R54`.
pub const SPEC_RULES: u32 = 54;

/// A rule id is one of the spec's (`R1` to [`SPEC_RULES`]), or an id of another catalogue of
/// rules (e.g. a Kafka test's, `KAFKA-GMMT-123`): a capital letter, then capitals, digits and
/// `-`. An `R` with a number is always the spec's.
pub fn check_rule_id(rule: &str) -> Result<(), String> {
    if let Some(number) = rule
        .strip_prefix('R')
        .filter(|n| n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty())
    {
        return match number.parse::<u32>() {
            Ok(n) if (1..=SPEC_RULES).contains(&n) && !number.starts_with('0') => Ok(()),
            _ => Err(format!(
                "rule id {rule:?} is no rule of the spec (R1 to R{SPEC_RULES})"
            )),
        };
    }
    let mut chars = rule.chars();
    let well_formed = chars.next().is_some_and(|first| first.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    if well_formed {
        Ok(())
    } else {
        Err(format!(
            "rule id {rule:?} is neither R1 to R{SPEC_RULES} nor an external id of the form \
             [A-Z][A-Z0-9-]* (e.g. KAFKA-GMMT-123)"
        ))
    }
}

/// Where a rule id sorts in listings: the spec's by number, then other catalogues' by id.
pub fn rule_order(rule: &str) -> (u32, &str) {
    let number = rule
        .strip_prefix('R')
        .and_then(|number| number.parse().ok());
    (number.unwrap_or(u32::MAX), rule)
}

/// Loads scenario files: a file, or every `*.json` file below a folder (sorted by path).
pub fn load_path(path: &Path) -> Result<Vec<Scenario>, ScenarioError> {
    let io_error = |error: std::io::Error| ScenarioError {
        source: path.display().to_string(),
        line: 0,
        column: 0,
        message: error.to_string(),
    };
    let mut files: Vec<PathBuf> = Vec::new();
    if path.is_dir() {
        collect_json_files(path, &mut files).map_err(io_error)?;
        files.sort();
    } else {
        files.push(path.to_owned());
    }
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(file).map_err(|error| ScenarioError {
                source: file.display().to_string(),
                line: 0,
                column: 0,
                message: error.to_string(),
            })?;
            parse(&file.display().to_string(), &text)
        })
        .collect()
}

fn collect_json_files(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json_files(&path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "json") {
            files.push(path);
        }
    }
    Ok(())
}

static CATALOGUE: include_dir::Dir<'_> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/scenarios");

/// The built-in rule catalogue (`harness/scenarios/`), compiled into the binary.
pub fn catalogue() -> Vec<Scenario> {
    let mut files: Vec<&include_dir::File<'_>> = Vec::new();
    fn walk<'a>(dir: &'a include_dir::Dir<'a>, files: &mut Vec<&'a include_dir::File<'a>>) {
        files.extend(
            dir.files()
                .filter(|file| file.path().extension().is_some_and(|e| e == "json")),
        );
        for sub in dir.dirs() {
            walk(sub, files);
        }
    }
    walk(&CATALOGUE, &mut files);
    files.sort_by_key(|file| file.path());
    files
        .into_iter()
        .map(|file| {
            let source = format!("harness/scenarios/{}", file.path().display());
            let text = file.contents_utf8().expect("catalogue files are UTF-8");
            parse(&source, text).unwrap_or_else(|error| panic!("built-in catalogue: {error}"))
        })
        .collect()
}

/// Refuses two scenarios with one name.
pub fn check_unique_names(scenarios: &[Scenario]) -> Result<(), ScenarioError> {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for scenario in scenarios {
        if let Some(first) = seen.insert(&scenario.name, &scenario.source) {
            return Err(ScenarioError {
                source: scenario.source.clone(),
                line: 0,
                column: 0,
                message: format!("scenario name {:?} is also used in {first}", scenario.name),
            });
        }
    }
    Ok(())
}
