//! What a scenario must keep to beyond the shape of its JSON, checked when it is loaded: a bad
//! file is refused with the place of the offending value, instead of failing, hanging or
//! exhausting memory when it runs.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde_json::Value;
use streamspec_protocol::kafka::streams_group_describe_response as described;
use streamspec_protocol::kafka::streams_group_heartbeat_request as request;
use streamspec_protocol::kafka::streams_group_heartbeat_response as answer;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

use super::locate::Segment;
use super::variables::references;
use super::{Answer, Scenario, Step, TaskUnion, TasksSource, TasksStep, Template, TopicChange};

/// The most partitions a scenario's topic, or an internal topic its topology asks for, may have:
/// the reference in process holds every partition's task in memory.
pub const MAX_PARTITIONS: i32 = 10_000;

/// The longest a `sleep_ms` or an `until.within_ms` may wait, in milliseconds (10 minutes).
pub const MAX_WAIT_MS: u64 = 600_000;

/// A value that breaks a rule, by its path in the file.
#[derive(Debug)]
pub struct Invalid {
    pub path: Vec<Segment>,
    pub message: String,
}

fn invalid(path: Vec<Segment>, message: String) -> Invalid {
    Invalid { path, message }
}

fn step_path(index: usize, rest: &[&str]) -> Vec<Segment> {
    let mut path = vec![Segment::from("steps"), Segment::from(index)];
    path.extend(rest.iter().map(|key| Segment::from(*key)));
    path
}

/// Checks versions, partition counts, waits, the heartbeat fields' names, the `${...}`
/// references and the preconditions of `scenario`.
pub fn check(scenario: &Scenario) -> Result<(), Invalid> {
    let mut names = BTreeMap::new();
    // Named as a run names them, with the longest run id.
    let longest = crate::runner::target_names(&"x".repeat(crate::MAX_RUN_ID_LEN), scenario).1;
    for (index, topic) in scenario.topics.iter().enumerate() {
        check_topic_name_length(scenario, index, longest[index].len())?;
        // The reference takes a name twice; a broker refuses the CreateTopics request.
        if let Some(first) = names.insert(topic.name.as_str(), index) {
            return Err(invalid(
                vec!["topics".into(), index.into(), "name".into()],
                format!(
                    "topic {:?} is listed twice in `topics` (also topics[{first}]); give each \
                     topic a name of its own",
                    topic.name
                ),
            ));
        }
        if !(1..=MAX_PARTITIONS).contains(&topic.partitions) {
            return Err(invalid(
                vec!["topics".into(), index.into(), "partitions".into()],
                format!(
                    "partitions {} is not in 1 to {MAX_PARTITIONS}",
                    topic.partitions
                ),
            ));
        }
    }
    let exemplars = exemplars();
    let mut known = Known::new(scenario);
    if let Some(topology) = &scenario.topology {
        let mut path = vec![Segment::from("topology")];
        check_fields(topology, &exemplars.request["topology"], &mut path)?;
        // The topology goes out with joins; it may name the group and the topics.
        check_references(topology, &mut path, &known)?;
    }
    let mut topics = TopicStates::new(scenario);
    let mut seen = Seen::default();
    for (index, step) in scenario.steps.iter().enumerate() {
        check_step(scenario, index, step, exemplars, &known)?;
        match step {
            Step::Topic { change, .. } => topics.apply(index, change)?,
            Step::Tasks { check, .. } => seen.check_tasks(index, check)?,
            _ => {}
        }
        seen.note(step);
        known.captured(step);
    }
    check_expects_something(scenario)?;
    check_preconditions(scenario)
}

/// Refuses a topic whose name on a target (`streamspec-<run id>-<scenario>-<topic>`, `total`
/// characters with the longest run id) could be longer than Kafka takes: the target would refuse
/// it, whoever is right.
fn check_topic_name_length(scenario: &Scenario, index: usize, total: usize) -> Result<(), Invalid> {
    if total <= crate::MAX_TOPIC_NAME_LEN {
        return Ok(());
    }
    let over = total - crate::MAX_TOPIC_NAME_LEN;
    let topic = &scenario.topics[index].name;
    let (name_len, topic_len) = (scenario.name.chars().count(), topic.chars().count());
    // Point at the longer of the two names, the one to shorten.
    let path = if name_len >= topic_len {
        vec![Segment::from("name")]
    } else {
        vec!["topics".into(), index.into(), "name".into()]
    };
    Err(invalid(
        path,
        format!(
            "topic {topic:?} is named {}<run id>-<scenario name>-{topic} on a target: {total} \
             characters with a run id of {}, more than Kafka's {}; shorten the scenario name \
             ({name_len} characters) or the topic name by {over}",
            crate::NAME_PREFIX,
            crate::MAX_RUN_ID_LEN,
            crate::MAX_TOPIC_NAME_LEN
        ),
    ))
}

/// Refuses a scenario that asks nothing of the target: no step with a non-empty `expect`, and
/// no `tasks` check. It would pass whatever the target answered.
fn check_expects_something(scenario: &Scenario) -> Result<(), Invalid> {
    let states = |pattern: Option<&Value>| {
        pattern.is_some_and(|pattern| pattern.as_object().is_none_or(|map| !map.is_empty()))
    };
    let checks = scenario.steps.iter().any(|step| match step {
        Step::Tasks { .. } => true,
        Step::GroupConfig { expect, .. } => states(expect.as_ref()),
        step => states(step.expect()),
    });
    if checks {
        Ok(())
    } else {
        Err(invalid(
            vec![Segment::from("steps")],
            "no step expects anything of an answer (an `expect` with a field, or a `tasks` \
             check): the scenario would pass whatever the target answered"
                .to_owned(),
        ))
    }
}

/// Which of the scenario's topics exist, with how many partitions, step by step: a `topic` step
/// creates one that does not exist, grows one to more partitions, deletes one that exists.
struct TopicStates {
    partitions: BTreeMap<String, Option<i32>>,
}

impl TopicStates {
    fn new(scenario: &Scenario) -> Self {
        TopicStates {
            partitions: scenario
                .topics
                .iter()
                .map(|topic| (topic.name.clone(), topic.create.then_some(topic.partitions)))
                .collect(),
        }
    }

    fn apply(&mut self, index: usize, change: &TopicChange) -> Result<(), Invalid> {
        let (key, partitions) = match change {
            TopicChange::Create { partitions, .. } => ("create", Some(*partitions)),
            TopicChange::Grow { partitions, .. } => ("grow", Some(*partitions)),
            TopicChange::Delete { .. } => ("delete", None),
        };
        let name = change.topic();
        let Some(state) = self.partitions.get_mut(name) else {
            let names: Vec<&str> = self.partitions.keys().map(String::as_str).collect();
            return Err(invalid(
                step_path(index, &["topic", key]),
                format!(
                    "topic {name:?} is not one of the scenario's topics ({}); add it to `topics`, \
                     with \"create\": false for one the scenario creates later",
                    names.join(", ")
                ),
            ));
        };
        if let Some(partitions) = partitions {
            if !(1..=MAX_PARTITIONS).contains(&partitions) {
                return Err(invalid(
                    step_path(index, &["topic", "partitions"]),
                    format!("partitions {partitions} is not in 1 to {MAX_PARTITIONS}"),
                ));
            }
        }
        *state = match (change, *state) {
            (TopicChange::Create { partitions, .. }, None) => Some(*partitions),
            (TopicChange::Grow { partitions, .. }, Some(now)) if *partitions > now => {
                Some(*partitions)
            }
            (TopicChange::Grow { partitions, .. }, Some(now)) => {
                return Err(invalid(
                    step_path(index, &["topic", "partitions"]),
                    format!(
                    "topic {name:?} has {now} partitions here; grow needs more, not {partitions}"
                ),
                ))
            }
            (TopicChange::Delete { .. }, Some(_)) => None,
            (TopicChange::Create { .. }, Some(_)) => {
                return Err(invalid(
                    step_path(index, &["topic", key]),
                    format!("topic {name:?} exists here already"),
                ))
            }
            (TopicChange::Grow { .. } | TopicChange::Delete { .. }, None) => {
                return Err(invalid(
                    step_path(index, &["topic", key]),
                    format!("topic {name:?} does not exist here"),
                ))
            }
        };
        Ok(())
    }
}

/// What earlier steps did that a `tasks` step builds on: the members that sent a heartbeat and
/// whether a describe was asked.
#[derive(Default)]
struct Seen {
    members: BTreeSet<String>,
    described: bool,
}

impl Seen {
    fn note(&mut self, step: &Step) {
        match step {
            Step::Heartbeat { request, .. } => {
                self.members.insert(request.member.clone());
            }
            Step::Describe { .. } => self.described = true,
            _ => {}
        }
    }

    /// A `tasks` step names members that sent a heartbeat before it, reads a describe only after
    /// one, and lists each task once.
    fn check_tasks(&self, index: usize, check: &TasksStep) -> Result<(), Invalid> {
        for (position, member) in check.members.iter().enumerate() {
            if !self.members.contains(member) {
                return Err(invalid(
                    step_path(index, &["tasks", "members"])
                        .into_iter()
                        .chain([Segment::from(position)])
                        .collect(),
                    format!("member {member:?} sends no heartbeat before this step"),
                ));
            }
        }
        if check.from == TasksSource::Describe && !self.described {
            return Err(invalid(
                step_path(index, &["tasks", "from"]),
                "from describe needs a describe step before this one".to_owned(),
            ));
        }
        if let Some(TaskUnion::Tasks(lists)) = &check.union {
            let mut tasks = BTreeSet::new();
            for list in lists {
                for partition in &list.partitions {
                    if !tasks.insert((&list.subtopology_id, *partition)) {
                        return Err(invalid(
                            step_path(index, &["tasks", "union"]),
                            format!("task {}_{partition} is listed twice", list.subtopology_id),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A precondition is judged by its `expect`, and the scenario by a step that is none.
fn check_preconditions(scenario: &Scenario) -> Result<(), Invalid> {
    for (index, step) in scenario.steps.iter().enumerate() {
        if step.precondition() && step.expect().is_none() {
            return Err(invalid(
                step_path(index, &["precondition"]),
                "a precondition needs an expect: what the set-up must answer".to_owned(),
            ));
        }
    }
    if scenario.steps.iter().all(Step::precondition) {
        return Err(invalid(
            vec!["steps".into()],
            "every step is a precondition: no step checks the scenario's rules".to_owned(),
        ));
    }
    Ok(())
}

fn check_step(
    scenario: &Scenario,
    index: usize,
    step: &Step,
    exemplars: &Exemplars,
    known: &Known,
) -> Result<(), Invalid> {
    match step {
        Step::Heartbeat {
            request: heartbeat,
            answer,
            ..
        } => {
            if let Some(version) = heartbeat.version {
                check_version::<StreamsGroupHeartbeatRequest>(
                    version,
                    step_path(index, &["heartbeat", "version"]),
                )?;
            }
            let fields = Value::Object(heartbeat.fields.clone());
            let mut path = step_path(index, &["heartbeat", "fields"]);
            check_fields(&fields, &exemplars.request, &mut path)?;
            check_references(&fields, &mut path, known)?;
            let member = Value::String(heartbeat.member.clone());
            check_references(
                &member,
                &mut step_path(index, &["heartbeat", "member"]),
                known,
            )?;
            let default_topology = heartbeat.template == Template::Join
                && scenario.topology.is_none()
                && !heartbeat.fields.contains_key("topology");
            if default_topology && !known.names.contains("in") {
                return Err(invalid(
                    step_path(index, &["heartbeat", "as"]),
                    "a join sends the default topology, which reads topic `in`; the scenario has \
                     no topic `in` (add it, or a `topology`)"
                        .to_owned(),
                ));
            }
            check_answer(index, answer, &exemplars.heartbeat_answer, known)
        }
        Step::Describe {
            request: describe,
            answer,
            ..
        } => {
            if let Some(version) = describe.version {
                check_version::<StreamsGroupDescribeRequest>(
                    version,
                    step_path(index, &["describe", "version"]),
                )?;
            }
            let groups = Value::from(describe.groups.clone());
            check_references(
                &groups,
                &mut step_path(index, &["describe", "groups"]),
                known,
            )?;
            check_answer(index, answer, &exemplars.describe_answer, known)
        }
        Step::GroupConfig { expect, .. } => check_expect(
            index,
            expect.as_ref(),
            &exemplars.group_config_answer,
            known,
        ),
        Step::Deny { deny, .. } => {
            // Without an authorizer a broker refuses ACLs (SECURITY_DISABLED): the requirement
            // makes such a broker skip the scenario instead.
            let authorizer = scenario
                .requires
                .broker_configs
                .get("authorizer.class.name");
            if authorizer.is_none_or(String::is_empty) {
                return Err(invalid(
                    step_path(index, &["deny"]),
                    format!(
                        "a deny step needs a broker with an authorizer; add \"requires\": \
                         {{\"broker_configs\": {{\"authorizer.class.name\": \"{}\"}}}}",
                        crate::embedded::STANDARD_AUTHORIZER
                    ),
                ));
            }
            let name = Value::from(deny.name.clone());
            check_references(&name, &mut step_path(index, &["deny", "name"]), known)
        }
        Step::ConsumerGroup { consumers, .. } => {
            let topics = Value::from(consumers.topics.clone());
            check_references(
                &topics,
                &mut step_path(index, &["consumer_group", "topics"]),
                known,
            )
        }
        Step::Sleep { ms, .. } if *ms > MAX_WAIT_MS => Err(invalid(
            step_path(index, &["sleep_ms"]),
            format!("sleep_ms {ms} is more than {MAX_WAIT_MS}, the longest wait"),
        )),
        Step::Sleep { .. } | Step::Topic { .. } | Step::Tasks { .. } => Ok(()),
    }
}

/// The bounds of a request step's `until`, and the fields and references of its `expect`
/// (`exemplar`: the JSON form of the answer it is matched against).
fn check_answer(
    index: usize,
    answer: &Answer,
    exemplar: &Value,
    known: &Known,
) -> Result<(), Invalid> {
    if let Some(until) = answer.until {
        if until.within_ms > MAX_WAIT_MS {
            return Err(invalid(
                step_path(index, &["until", "within_ms"]),
                format!(
                    "within_ms {} is more than {MAX_WAIT_MS}, the longest wait",
                    until.within_ms
                ),
            ));
        }
        if !(1..=until.within_ms).contains(&until.every_ms) {
            return Err(invalid(
                step_path(index, &["until", "every_ms"]),
                format!(
                    "every_ms {} is not in 1 to within_ms ({})",
                    until.every_ms, until.within_ms
                ),
            ));
        }
    }
    check_expect(index, answer.expect.as_ref(), exemplar, known)
}

fn check_expect(
    index: usize,
    expect: Option<&Value>,
    answer: &Value,
    known: &Known,
) -> Result<(), Invalid> {
    match expect {
        Some(expect) => {
            let mut path = step_path(index, &["expect"]);
            check_expected_fields(expect, answer, &mut path)?;
            check_references(expect, &mut path, known)
        }
        None => Ok(()),
    }
}

/// Refuses keys of an `expect` pattern that the answer (`answer`, an exemplar of its JSON form)
/// does not have, at any depth and inside `$` operators, so that a typo is the scenario's error
/// at load time, not a failure of the target. Below a list or object the exemplar leaves empty,
/// nothing is checked.
fn check_expected_fields(
    pattern: &Value,
    answer: &Value,
    path: &mut Vec<Segment>,
) -> Result<(), Invalid> {
    // A pattern of another kind than the answer's field can never match: `"110"` or
    // `"FENCED_MEMBER_EPOCH"` for an error code, `"x"` or `{...}` for a list, would fail every
    // target.
    let wanted = kind_of(answer);
    let refuse = |path: &Vec<Segment>, what: String| {
        Err(invalid(
            path.clone(),
            format!(
                "the answer's field is {}, and {what}",
                wanted.unwrap_or("null")
            ),
        ))
    };
    match pattern {
        Value::Object(map) if crate::matcher::is_operator_object(pattern) => {
            for (operator, operand) in map {
                path.push(operator.as_str().into());
                let applies_to: &[&str] = match operator.as_str() {
                    "$any" | "$all" | "$none" | "$sameItems" => &["a list"],
                    "$gt" | "$ge" | "$lt" | "$le" => &["a number"],
                    "$startsWith" | "$contains" => &["a text"],
                    "$len" => &["a list", "a text"],
                    _ => &[],
                };
                if wanted.is_some_and(|kind| !applies_to.is_empty() && !applies_to.contains(&kind))
                {
                    return refuse(
                        path,
                        format!("{operator} applies to {}", applies_to.join(" or ")),
                    );
                }
                // A reference is resolved at run time, and checked then.
                let reference = operand.as_str().is_some_and(|text| text.contains("${"));
                if let Some(message) = crate::matcher::operand_error(operator, operand) {
                    if !reference {
                        return Err(invalid(path.clone(), message));
                    }
                }
                let length = Value::from(0);
                let shape = match operator.as_str() {
                    "$eq" | "$ne" | "$not" | "$in" => answer,
                    "$any" | "$all" | "$none" | "$sameItems" => item_of(answer),
                    "$len" => &length,
                    _ => &Value::Null,
                };
                match operand {
                    // Lists of patterns, each of the shape.
                    Value::Array(items) if matches!(operator.as_str(), "$in" | "$sameItems") => {
                        for (index, item) in items.iter().enumerate() {
                            path.push(index.into());
                            check_expected_fields(item, shape, path)?;
                            path.pop();
                        }
                    }
                    _ => check_expected_fields(operand, shape, path)?,
                }
                path.pop();
            }
            Ok(())
        }
        Value::Object(map) => {
            let Value::Object(fields) = answer else {
                return match wanted {
                    Some(_) => refuse(path, "the pattern is an object".to_owned()),
                    None => Ok(()),
                };
            };
            for (key, item) in map {
                path.push(key.as_str().into());
                let Some(field) = fields.get(key) else {
                    let expected: Vec<String> =
                        fields.keys().map(|key| format!("`{key}`")).collect();
                    return Err(invalid(
                        path.clone(),
                        format!(
                            "the answer has no field `{key}`, expected one of {}",
                            expected.join(", ")
                        ),
                    ));
                };
                check_expected_fields(item, field, path)?;
                path.pop();
            }
            Ok(())
        }
        Value::Array(items) => {
            if wanted.is_some_and(|kind| kind != "a list") {
                return refuse(path, "the pattern is a list".to_owned());
            }
            let shape = item_of(answer);
            for (index, item) in items.iter().enumerate() {
                path.push(index.into());
                check_expected_fields(item, shape, path)?;
                path.pop();
            }
            Ok(())
        }
        scalar => match (kind_of(scalar), wanted) {
            (Some(found), Some(wanted)) if found != wanted => {
                refuse(path, format!("{scalar} is {found}"))
            }
            _ => Ok(()),
        },
    }
}

/// The kind of JSON value `value` is, as messages name it; `None` for null (a field left null
/// in an exemplar has no known shape) and for a text with a `${...}` reference, which becomes a
/// value of its own at run time.
fn kind_of(value: &Value) -> Option<&'static str> {
    match value {
        Value::Number(_) => Some("a number"),
        Value::String(text) if !text.contains("${") => Some("a text"),
        Value::Bool(_) => Some("true or false"),
        Value::Array(_) => Some("a list"),
        Value::Object(_) => Some("an object"),
        _ => None,
    }
}

/// The shape of an item of `answer`'s list (null, which checks nothing, where it has none).
fn item_of(answer: &Value) -> &Value {
    match answer {
        Value::Array(items) => items.first().unwrap_or(&Value::Null),
        _ => &Value::Null,
    }
}

/// Whether `path` (`.errorCode`, `.activeTasks[].partitions`, `.groups[].members[]`: field
/// names from the top, `[]` for a list's items, as a differential run names a differing field)
/// is a field of the heartbeat or describe answer.
pub fn answer_has_field(path: &str) -> bool {
    let Some(path) = path.strip_prefix('.') else {
        return false;
    };
    let exemplars = exemplars();
    [&exemplars.heartbeat_answer, &exemplars.describe_answer]
        .into_iter()
        .any(|answer| {
            path.split('.')
                .try_fold(answer, |value, segment| {
                    let mut name = segment;
                    let mut items = 0;
                    while let Some(rest) = name.strip_suffix("[]") {
                        name = rest;
                        items += 1;
                    }
                    let mut value = value.as_object()?.get(name)?;
                    for _ in 0..items {
                        value = value.as_array()?.first()?;
                    }
                    Some(value)
                })
                .is_some()
        })
}

/// The JSON forms of the heartbeat and the describe answer with every field present and every
/// list holding one item.
pub fn answer_exemplars() -> [&'static Value; 2] {
    let exemplars = exemplars();
    [&exemplars.heartbeat_answer, &exemplars.describe_answer]
}

/// The JSON forms of the messages a scenario's requests and expectations name fields of, built
/// once for every scenario loaded.
struct Exemplars {
    request: Value,
    heartbeat_answer: Value,
    describe_answer: Value,
    /// What a `group_config` step's `expect` is matched against.
    group_config_answer: Value,
}

fn exemplars() -> &'static Exemplars {
    static EXEMPLARS: OnceLock<Exemplars> = OnceLock::new();
    EXEMPLARS.get_or_init(|| Exemplars {
        request: heartbeat_request_exemplar(),
        heartbeat_answer: heartbeat_response_exemplar(),
        describe_answer: describe_response_exemplar(),
        group_config_answer: serde_json::json!({"errorCode": 0, "errorMessage": ""}),
    })
}

/// The heartbeat answer with every optional field set and every list holding one item.
fn heartbeat_response_exemplar() -> Value {
    let tasks = || Some(vec![answer::TaskIds::default().with_partitions(vec![0])]);
    let partitions = || vec![answer::TopicPartition::default().with_partitions(vec![0])];
    let response = StreamsGroupHeartbeatResponse::default()
        .with_error_message(Some(String::new()))
        .with_status(Some(vec![answer::Status::default()]))
        .with_active_tasks(tasks())
        .with_standby_tasks(tasks())
        .with_warmup_tasks(tasks())
        .with_partitions_by_user_endpoint(Some(vec![answer::EndpointToPartitions::default()
            .with_active_partitions(partitions())
            .with_standby_partitions(partitions())]));
    serde_json::to_value(response).expect("answers serialize")
}

/// The describe answer with a group whose topology and member have every list holding one item
/// (the topology description's inside left unchecked).
fn describe_response_exemplar() -> Value {
    let key_values = || vec![described::KeyValue::default()];
    let topic_infos = || vec![described::TopicInfo::default().with_topic_configs(key_values())];
    let tasks = || vec![described::TaskIds::default().with_partitions(vec![0])];
    let assignment = || {
        described::Assignment::default()
            .with_active_tasks(tasks())
            .with_standby_tasks(tasks())
            .with_warmup_tasks(tasks())
    };
    let subtopology = described::Subtopology::default()
        .with_source_topics(vec![String::new()])
        .with_repartition_sink_topics(vec![String::new()])
        .with_state_changelog_topics(topic_infos())
        .with_repartition_source_topics(topic_infos());
    let member = described::Member::default()
        .with_instance_id(Some(String::new()))
        .with_rack_id(Some(String::new()))
        .with_user_endpoint(Some(described::Endpoint::default()))
        .with_client_tags(key_values())
        .with_task_offsets(vec![described::TaskOffset::default()])
        .with_task_end_offsets(vec![described::TaskOffset::default()])
        .with_assignment(assignment())
        .with_target_assignment(assignment());
    let group = described::DescribedGroup::default()
        .with_error_message(Some(String::new()))
        .with_topology(Some(
            described::Topology::default().with_subtopologies(Some(vec![subtopology])),
        ))
        .with_members(vec![member])
        .with_assignor_name(Some(String::new()));
    let response = StreamsGroupDescribeResponse::default().with_groups(vec![group]);
    serde_json::to_value(response).expect("answers serialize")
}

fn check_version<M: WireMessage>(version: i16, path: Vec<Segment>) -> Result<(), Invalid> {
    let versions = M::VERSIONS;
    if (versions.min..=versions.max).contains(&version) {
        return Ok(());
    }
    let name = M::NAME.trim_end_matches("Request");
    Err(invalid(
        path,
        format!(
            "{name} version {version} is not in {} to {}",
            versions.min, versions.max
        ),
    ))
}

/// The variables a step may use: the group, the topics, and what earlier steps captured.
struct Known {
    names: BTreeSet<String>,
    /// Of each captured name, the 1-based steps that capture it, to tell a capture used too early
    /// from a misspelling.
    captures: BTreeMap<String, Vec<usize>>,
}

impl Known {
    fn new(scenario: &Scenario) -> Self {
        let mut captures: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (index, step) in scenario.steps.iter().enumerate() {
            for name in step.captured_names() {
                captures.entry(name.clone()).or_default().push(index + 1);
            }
        }
        Known {
            names: std::iter::once("group".to_owned())
                .chain(scenario.topics.iter().map(|topic| topic.name.clone()))
                .collect(),
            captures,
        }
    }

    fn captured(&mut self, step: &Step) {
        self.names.extend(step.captured_names().cloned());
    }

    fn unknown(&self, name: &str) -> String {
        match self.captures.get(name) {
            Some(steps) => format!("${{{name}}} is used before step {} captures it", steps[0]),
            None => {
                let names: Vec<String> = self
                    .names
                    .iter()
                    .map(|name| format!("${{{name}}}"))
                    .collect();
                format!(
                    "unknown variable ${{{name}}}; known here: {}",
                    names.join(", ")
                )
            }
        }
    }
}

/// Refuses a reference to a variable `known` lacks, anywhere in `value`.
fn check_references(value: &Value, path: &mut Vec<Segment>, known: &Known) -> Result<(), Invalid> {
    match value {
        Value::String(text) => {
            for reference in references(text).map_err(|message| invalid(path.clone(), message))? {
                if !known.names.contains(reference.name) {
                    return Err(invalid(path.clone(), known.unknown(reference.name)));
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter().enumerate().try_for_each(|(index, item)| {
            path.push(index.into());
            check_references(item, path, known)?;
            path.pop();
            Ok(())
        }),
        Value::Object(map) => map.iter().try_for_each(|(key, item)| {
            path.push(key.as_str().into());
            check_references(item, path, known)?;
            path.pop();
            Ok(())
        }),
        _ => Ok(()),
    }
}

/// Refuses keys that `exemplar` (the JSON form of the message, see
/// [`heartbeat_request_exemplar`]) lacks, at any depth, and internal topics of more than
/// [`MAX_PARTITIONS`] partitions. The message's own Deserialize ignores unknown keys, so a typo
/// would otherwise send a default instead.
fn check_fields(value: &Value, exemplar: &Value, path: &mut Vec<Segment>) -> Result<(), Invalid> {
    match (value, exemplar) {
        (Value::Object(map), Value::Object(fields)) => map.iter().try_for_each(|(key, item)| {
            path.push(key.as_str().into());
            let Some(field) = fields.get(key) else {
                let expected: Vec<String> = fields.keys().map(|key| format!("`{key}`")).collect();
                return Err(invalid(
                    path.clone(),
                    format!(
                        "unknown field `{key}`, expected one of {}",
                        expected.join(", ")
                    ),
                ));
            };
            // Values below 1 stay allowed: scenarios send them to check that they are refused.
            if let (true, Value::Number(number)) = (key == "partitions", item) {
                if number
                    .as_i64()
                    .is_none_or(|n| n > i64::from(MAX_PARTITIONS))
                {
                    return Err(invalid(
                        path.clone(),
                        format!("partitions {number} is more than {MAX_PARTITIONS}"),
                    ));
                }
            }
            check_fields(item, field, path)?;
            path.pop();
            Ok(())
        }),
        (Value::Array(items), Value::Array(shape)) => match shape.first() {
            Some(item_shape) => items.iter().enumerate().try_for_each(|(index, item)| {
                path.push(index.into());
                check_fields(item, item_shape, path)?;
                path.pop();
                Ok(())
            }),
            None => Ok(()),
        },
        // Type mismatches are the request's Deserialize's to report, once references are resolved.
        _ => Ok(()),
    }
}

/// The heartbeat request with every optional field set and every list holding one item, so that
/// its JSON form has every key a scenario may write, at every depth. (Unknown tagged fields are
/// not Kafka's JSON and are left out.)
fn heartbeat_request_exemplar() -> Value {
    let strings = || vec![String::new()];
    let key_values = || vec![request::KeyValue::default()];
    let topic_infos = || vec![request::TopicInfo::default().with_topic_configs(key_values())];
    let task_ids = || Some(vec![request::TaskIds::default().with_partitions(vec![0])]);
    let task_offsets = || Some(vec![request::TaskOffset::default()]);
    let copartition_group = request::CopartitionGroup::default()
        .with_source_topics(vec![0])
        .with_source_topic_regex(vec![0])
        .with_repartition_source_topics(vec![0]);
    let subtopology = request::Subtopology::default()
        .with_source_topics(strings())
        .with_source_topic_regex(strings())
        .with_state_changelog_topics(topic_infos())
        .with_repartition_sink_topics(strings())
        .with_repartition_source_topics(topic_infos())
        .with_copartition_groups(vec![copartition_group]);
    let request = StreamsGroupHeartbeatRequest::default()
        .with_instance_id(Some(String::new()))
        .with_rack_id(Some(String::new()))
        .with_topology(Some(
            request::Topology::default().with_subtopologies(vec![subtopology]),
        ))
        .with_active_tasks(task_ids())
        .with_standby_tasks(task_ids())
        .with_warmup_tasks(task_ids())
        .with_process_id(Some(String::new()))
        .with_user_endpoint(Some(request::Endpoint::default()))
        .with_client_tags(Some(key_values()))
        .with_task_offsets(task_offsets())
        .with_task_end_offsets(task_offsets());
    serde_json::to_value(request).expect("requests serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A null or an empty list would hide the keys below it: a field added to the message must
    /// be set in the exemplar too.
    fn assert_complete(value: &Value, path: &str) {
        match value {
            Value::Null => panic!("{path} is null in the exemplar"),
            Value::Array(items) => {
                assert_eq!(items.len(), 1, "{path} in the exemplar");
                assert_complete(&items[0], &format!("{path}[0]"));
            }
            Value::Object(map) => {
                for (key, item) in map {
                    assert_complete(item, &format!("{path}.{key}"));
                }
            }
            _ => {}
        }
    }

    #[test]
    fn the_exemplar_has_every_field_at_every_depth() {
        let exemplar = heartbeat_request_exemplar();
        assert_complete(&exemplar, "request");
        assert_eq!(exemplar.as_object().map(|map| map.len()), Some(17));
        assert_eq!(
            exemplar["topology"]["subtopologies"][0]["stateChangelogTopics"][0]
                .as_object()
                .map(|map| map.keys().cloned().collect::<Vec<_>>()),
            Some(vec![
                "name".to_owned(),
                "partitions".to_owned(),
                "replicationFactor".to_owned(),
                "topicConfigs".to_owned()
            ])
        );
    }

    #[test]
    fn expected_fields_the_answer_lacks_are_refused_inside_operators_too() {
        let describe = describe_response_exemplar();
        let expect = serde_json::json!({"groups": [{"groupEpoch": {"$gt": 1}, "members": {
            "$sameItems": [{"memberId": "a", "assignment": {"activeTask": []}}]}}]});
        let error = check_expected_fields(&expect, &describe, &mut Vec::new()).unwrap_err();
        assert_eq!(
            error.path,
            vec![
                Segment::from("groups"),
                0.into(),
                "members".into(),
                "$sameItems".into(),
                0.into(),
                "assignment".into(),
                "activeTask".into()
            ]
        );
        assert_eq!(
            error.message,
            "the answer has no field `activeTask`, expected one of `activeTasks`, `standbyTasks`, \
             `warmupTasks`"
        );
        let heartbeat = heartbeat_response_exemplar();
        let typo = serde_json::json!({"errorCod": 0});
        assert!(check_expected_fields(&typo, &heartbeat, &mut Vec::new()).is_err());
        let fine = serde_json::json!({"errorCode": {"$in": [0, 16]}, "activeTasks": {"$any":
            {"subtopologyId": "0"}}, "status": [{"statusCode": 1, "statusDetail": "x"}],
            "partitionsByUserEndpoint": [{"userEndpoint": {"host": "h"}}]});
        assert!(check_expected_fields(&fine, &heartbeat, &mut Vec::new()).is_ok());
    }

    #[test]
    fn a_scenario_that_expects_nothing_is_refused() {
        let scenario = |steps: &str| {
            crate::scenario::parse(
                "s.json",
                &format!(
                    r#"{{"name": "s", "title": "t", "rules": ["R31"], "grade": "MUST",
                        "topics": [{{"name": "in"}}], "steps": {steps}}}"#
                ),
            )
        };
        for nothing in [
            r#"[{"heartbeat": {"member": "a", "as": "join"}}]"#,
            r#"[{"heartbeat": {"member": "a", "as": "join"}, "expect": {}}, {"describe": {}}]"#,
        ] {
            let error = scenario(nothing).unwrap_err().to_string();
            assert!(
                error.contains("no step expects anything of an answer"),
                "{error}"
            );
        }
        let checked = r#"[{"heartbeat": {"member": "a", "as": "join"}}, {"describe": {},
            "expect": {"groups": [{"groupState": "Stable"}]}}]"#;
        assert!(scenario(checked).is_ok());
    }

    #[test]
    fn an_expected_literal_of_another_type_than_the_answers_field_is_refused() {
        let heartbeat = heartbeat_response_exemplar();
        for (expect, message) in [
            (
                serde_json::json!({"errorCode": "FENCED_MEMBER_EPOCH"}),
                "the answer's field is a number, and \"FENCED_MEMBER_EPOCH\" is a text",
            ),
            (
                serde_json::json!({"errorCode": {"$in": [0, "110"]}}),
                "the answer's field is a number, and \"110\" is a text",
            ),
            (
                serde_json::json!({"memberId": 7}),
                "the answer's field is a text, and 7 is a number",
            ),
            // Lists and objects, and operators of another kind than the field, never match
            // either.
            (
                serde_json::json!({"activeTasks": "x"}),
                "the answer's field is a list, and \"x\" is a text",
            ),
            (
                serde_json::json!({"status": {"statusCode": 1}}),
                "the answer's field is a list, and the pattern is an object",
            ),
            (
                serde_json::json!({"memberEpoch": [1]}),
                "the answer's field is a number, and the pattern is a list",
            ),
            (
                serde_json::json!({"errorCode": {"$any": true}}),
                "the answer's field is a number, and $any applies to a list",
            ),
            (
                serde_json::json!({"memberId": {"$gt": 1}}),
                "the answer's field is a text, and $gt applies to a number",
            ),
            (
                serde_json::json!({"memberEpoch": {"$len": 1}}),
                "the answer's field is a number, and $len applies to a list or a text",
            ),
            (
                serde_json::json!({"errorCode": {"$in": 0}}),
                "$in takes a list of patterns, and 0 is none",
            ),
            // Operands of a type the operator cannot use.
            (
                serde_json::json!({"memberEpoch": {"$gt": "x"}}),
                "$gt needs a number (e.g. {\"$gt\": 0}, or a ${name} that holds one), and \"x\" \
                 is a text",
            ),
            (
                serde_json::json!({"memberEpoch": {"$le": null}}),
                "$le needs a number (e.g. {\"$le\": 0}, or a ${name} that holds one), and the \
                 operand is null",
            ),
            (
                serde_json::json!({"errorMessage": {"$contains": 5}}),
                "$contains needs a text, in quotes (e.g. {\"$contains\": \"5\"}), and 5 is a number",
            ),
            (
                serde_json::json!({"memberId": {"$startsWith": ["m"]}}),
                "$startsWith needs a text, in quotes (e.g. {\"$startsWith\": \"[\"m\"]\"}), and \
                 [\"m\"] is a list",
            ),
            (
                serde_json::json!({"activeTasks": {"$len": "2"}}),
                "$len needs a number, or a pattern of one (e.g. {\"$len\": {\"$ge\": 1}}), and \
                 \"2\" is a text",
            ),
            (
                serde_json::json!({"activeTasks": {"$len": {"$ge": true}}}),
                "$ge needs a number (e.g. {\"$ge\": 0}, or a ${name} that holds one), and true \
                 is a boolean",
            ),
            (
                serde_json::json!({"activeTasks": {"$any": {"partitions": {"$len": {"$startsWith": "1"}}}}}),
                "the answer's field is a number, and $startsWith applies to a text",
            ),
        ] {
            let error = check_expected_fields(&expect, &heartbeat, &mut Vec::new()).unwrap_err();
            assert_eq!(error.message, message, "{expect}");
        }
        // A reference becomes a number at run time; null fields take anything; operators of
        // the field's kind pass.
        let fine = serde_json::json!({
            "memberEpoch": "${e+1}",
            "errorMessage": "x",
            "activeTasks": null,
            "status": {"$len": 0},
            "standbyTasks": {"$any": {"subtopologyId": "0"}},
            "memberId": {"$startsWith": "m"},
            "errorCode": {"$in": [0, 110]}
        });
        assert!(check_expected_fields(&fine, &heartbeat, &mut Vec::new()).is_ok());
        // A reference as an operand is checked once resolved, at run time.
        let referenced = serde_json::json!({"memberEpoch": {"$gt": "${e}"},
            "activeTasks": {"$len": "${n}"}});
        assert!(check_expected_fields(&referenced, &heartbeat, &mut Vec::new()).is_ok());
    }

    #[test]
    fn unknown_keys_are_refused_at_any_depth_with_their_path() {
        let exemplar = heartbeat_request_exemplar();
        let fields = serde_json::json!({
            "memberEpoch": 1,
            "topology": {"subtopologies": [{"subtopologyId": "0"}, {"sourceTopic": ["x"]}]}
        });
        let mut path = Vec::new();
        let error = check_fields(&fields, &exemplar, &mut path).unwrap_err();
        assert_eq!(
            error.path,
            vec![
                Segment::from("topology"),
                "subtopologies".into(),
                1.into(),
                "sourceTopic".into()
            ]
        );
        assert_eq!(
            error.message,
            "unknown field `sourceTopic`, expected one of `subtopologyId`, `sourceTopics`, \
             `sourceTopicRegex`, `stateChangelogTopics`, `repartitionSinkTopics`, \
             `repartitionSourceTopics`, `copartitionGroups`"
        );
        let fields = serde_json::json!({"activeTasks": [{"subtopologyId": "0", "partitions": [2000000000]}]});
        assert!(check_fields(&fields, &exemplar, &mut Vec::new()).is_ok());
    }
}
