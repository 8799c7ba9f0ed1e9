//! The equivalence under which a target's answer equals the reference's, and how a difference
//! is shown: both answers decoded side by side, field by field, the differing ones marked and
//! cited by rule.
//!
//! What may differ, and why (the README's "Differential runs" says the same):
//! - `throttleTimeMs`: quota enforcement of the broker, not the protocol.
//! - `errorMessage` and `status[].statusDetail`: texts. The catalogue grades Kafka's wording as
//!   INFORMATIONAL; codes are compared, texts are not.
//! - describe `members[].clientId` and `clientHost`: facts of the connection the request came on,
//!   which the reference in process does not have.
//! - Order where Kafka's is a hash order: task lists (by subtopology id, partitions ascending),
//!   the endpoint map (by host and port, its partitions by topic), describe's members (by member
//!   id) and subtopologies (by id), and a described member's task offsets and end offsets (by
//!   subtopology and partition: Kafka lists them by partition whatever order the member sent,
//!   seen on a real Streams client's traffic). The status list keeps its order (spec 7.2 fixes
//!   it).
//!
//! Everything else must be equal, member ids, heartbeat intervals and endpoint epochs included:
//! in Kafka's dialect the client chooses member ids, the reference is started with the target's
//! broker configs and the run's group configs, and endpoint epochs follow from the requests.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;
use streamspec_protocol::codes::{self, *};
use streamspec_protocol::kafka::{
    streams_group_describe_response as describe, streams_group_heartbeat_response as heartbeat,
    StreamsGroupDescribeResponse, StreamsGroupHeartbeatResponse,
};

/// One field whose values differ: its path (`.activeTasks[0].partitions`) and both values as
/// JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDifference {
    pub path: String,
    pub target: String,
    pub reference: String,
}

impl FieldDifference {
    /// The path with array indexes left out (`.activeTasks[].partitions`): what a recorded
    /// divergence names.
    pub fn field(&self) -> String {
        let mut field = String::with_capacity(self.path.len());
        let mut in_index = false;
        for c in self.path.chars() {
            match c {
                '[' => {
                    in_index = true;
                    field.push('[');
                }
                ']' => {
                    in_index = false;
                    field.push(']');
                }
                _ if in_index => {}
                _ => field.push(c),
            }
        }
        field
    }
}

/// Two answers to one request under the equivalence: `None` when they are equal, else every
/// leaf of either answer, both values side by side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideBySide {
    /// Every leaf path with the target's and the reference's value (`-` where one lacks it) and
    /// whether they differ, in the order of the answer's fields.
    pub rows: Vec<(String, String, String, bool)>,
}

impl SideBySide {
    pub fn differences(&self) -> Vec<FieldDifference> {
        self.rows
            .iter()
            .filter(|(_, _, _, differs)| *differs)
            .map(|(path, target, reference, _)| FieldDifference {
                path: path.clone(),
                target: target.clone(),
                reference: reference.clone(),
            })
            .collect()
    }

    /// The table: a `*` marks a differing field.
    pub fn render(&self) -> String {
        let width = |column: fn(&(String, String, String, bool)) -> usize| {
            self.rows.iter().map(column).max().unwrap_or(0)
        };
        let path_width = width(|row| row.0.len()).max("field".len());
        let target_width = width(|row| row.1.len() + 24).clamp("target".len(), 48);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "    {:path_width$}  {:target_width$}  reference",
            "field", "target"
        );
        for (path, target, reference, differs) in &self.rows {
            let mark = if *differs { '*' } else { ' ' };
            let target = describe_code(path, target).unwrap_or_else(|| target.clone());
            let reference = describe_code(path, reference).unwrap_or_else(|| reference.clone());
            let _ = writeln!(
                out,
                "  {mark} {path:path_width$}  {target:target_width$}  {reference}"
            );
        }
        out
    }
}

/// A response type compared under the equivalence.
pub trait Comparable: Clone + PartialEq + Serialize {
    /// The answer with what may differ cleared and hash orders sorted.
    fn normalized(&self) -> Self;

    /// The rule ids behind a differing field, for the report.
    fn rules_of(difference: &FieldDifference) -> Vec<&'static str>;
}

/// `None` when `target` equals `reference` under the equivalence, else both side by side.
pub fn compare<M: Comparable>(target: &M, reference: &M) -> Option<SideBySide> {
    let (target, reference) = (target.normalized(), reference.normalized());
    if target == reference {
        return None;
    }
    let as_json = |message: &M| serde_json::to_value(message).expect("messages serialize");
    let mut rows = Vec::new();
    walk(
        Some(&as_json(&target)),
        Some(&as_json(&reference)),
        String::new(),
        &mut rows,
    );
    Some(SideBySide { rows })
}

/// Whether a JSON value is shown field by field: an object, or an array holding objects.
fn has_fields(value: &Value) -> bool {
    match value {
        Value::Object(fields) => !fields.is_empty(),
        Value::Array(items) => holds_objects(items),
        _ => false,
    }
}

fn holds_objects(items: &[Value]) -> bool {
    items.iter().any(Value::is_object)
}

/// Walks both answers together, a row per leaf in the order of the message's fields; arrays
/// of scalars, and values of a different shape on each side (a list where the other has
/// null), are one row each.
fn walk(
    target: Option<&Value>,
    reference: Option<&Value>,
    path: String,
    rows: &mut Vec<(String, String, String, bool)>,
) {
    let shown = |value: Option<&Value>| value.map_or_else(|| "-".to_owned(), Value::to_string);
    match (target, reference) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if !a.is_empty() || !b.is_empty() => {
            let names = a
                .keys()
                .chain(b.keys().filter(|name| !a.contains_key(*name)));
            for name in names {
                // Kafka's JSON form keeps unknown tagged fields apart; neither side has any.
                if name == "_tagged" {
                    continue;
                }
                walk(a.get(name), b.get(name), format!("{path}.{name}"), rows);
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if holds_objects(a) || holds_objects(b) => {
            for index in 0..a.len().max(b.len()) {
                walk(a.get(index), b.get(index), format!("{path}[{index}]"), rows);
            }
        }
        (Some(value), None) | (None, Some(value)) if has_fields(value) => {
            let (a, b) = (shown(target), shown(reference));
            rows.push((path, a, b, true));
        }
        _ => rows.push((path, shown(target), shown(reference), target != reference)),
    }
}

/// The rule ids of every differing field, in order, each once. Where the error codes differ,
/// every other field follows from them: those of the codes, and of what the answer that
/// succeeded said beyond its tasks (its statuses and endpoint map), which the rules on the
/// failing side's request concern.
pub fn rules_of<M: Comparable>(differences: &[FieldDifference]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let error_code = differences
        .iter()
        .any(|difference| difference.path.ends_with(".errorCode"));
    let cited = differences
        .iter()
        .filter(|difference| !error_code || cited_beside_error_code(&difference.path));
    cited
        .flat_map(M::rules_of)
        .filter(|rule| seen.insert(*rule))
        .map(str::to_owned)
        .collect()
}

/// Whether a difference at `path` is cited where the error codes differ too: the codes', and
/// what the answer that succeeded said beyond its tasks.
fn cited_beside_error_code(path: &str) -> bool {
    [".errorCode", ".status", ".partitionsByUserEndpoint"]
        .iter()
        .any(|field| path.contains(field))
}

/// The rules a differential run can cite for an answer whose first differing field is `field`
/// (as a recorded divergence names it: `.activeTasks[].partitions`), which is what a recorded
/// divergence of `field` is matched against: the field's own, whatever values it holds, and
/// apart from them those of the fields that can differ after it.
pub fn rules_citable_with(field: &str) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let [heartbeat, describe] = crate::scenario::answer_exemplars();
    if field.starts_with(".groups") {
        citable::<StreamsGroupDescribeResponse>(field, describe)
    } else {
        citable::<StreamsGroupHeartbeatResponse>(field, heartbeat)
    }
}

/// [`rules_citable_with`] for the answer `M`, whose every field `exemplar` holds. Lists repeat
/// their items' fields, so every field from `field`'s top-level one on may differ after it;
/// where the error codes differ, only those [`rules_of`] cites beside them.
fn citable<M: Comparable>(
    field: &str,
    exemplar: &Value,
) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let top_level = |path: &str| path.split(['.', '[']).nth(1).unwrap_or_default().to_owned();
    let mut rows = Vec::new();
    walk(Some(exemplar), Some(exemplar), String::new(), &mut rows);
    let fields: Vec<String> = rows
        .into_iter()
        .map(|(path, ..)| {
            FieldDifference {
                path,
                target: String::new(),
                reference: String::new(),
            }
            .field()
        })
        .collect();
    let from = fields
        .iter()
        .position(|other| top_level(other) == top_level(field))
        .unwrap_or(0);
    let error_code = field.ends_with(".errorCode");
    let own = rules_for_any_value::<M>(field);
    let others = fields[from..]
        .iter()
        .filter(|other| !error_code || cited_beside_error_code(other))
        .flat_map(|other| rules_for_any_value::<M>(other))
        .filter(|rule| !own.contains(rule))
        .collect();
    (own, others)
}

/// The rules a difference at `field` is cited under, whatever the values: error codes and
/// statuses are cited by the codes answered, so every code either side may answer, and an
/// empty status list by none.
fn rules_for_any_value<M: Comparable>(field: &str) -> BTreeSet<&'static str> {
    let codes = (-1..=i16::from(u8::MAX)).map(|code| (code.to_string(), ERROR_NONE.to_string()));
    codes
        .chain([("[]".to_owned(), "null".to_owned())])
        .flat_map(|(target, reference)| {
            M::rules_of(&FieldDifference {
                path: field.to_owned(),
                target,
                reference,
            })
        })
        .collect()
}

/// The rules an error code difference concerns, by the codes either side answered.
fn error_code_rules(code: i16) -> &'static [&'static str] {
    match code {
        // The other side's code says what was expected.
        ERROR_NONE => &[],
        ERROR_INVALID_REQUEST => &["R1-R13", "R40"],
        ERROR_GROUP_ID_NOT_FOUND => &["R19", "R20"],
        ERROR_UNKNOWN_MEMBER_ID => &["R21", "R32"],
        ERROR_GROUP_MAX_SIZE_REACHED => &["R22", "R51"],
        ERROR_FENCED_MEMBER_EPOCH => &["R23", "R24"],
        ERROR_STREAMS_INVALID_TOPOLOGY => &["R6", "R16", "R17", "R37"],
        ERROR_FENCED_INSTANCE_ID => &["R50"],
        ERROR_UNRELEASED_INSTANCE_ID => &["R49"],
        ERROR_GROUP_AUTHORIZATION_FAILED | ERROR_TOPIC_AUTHORIZATION_FAILED => &["R18", "R47"],
        _ => &["spec 2.4"],
    }
}

fn status_rules(code: i8) -> &'static [&'static str] {
    match code {
        STATUS_STALE_TOPOLOGY => &["R38"],
        STATUS_MISSING_SOURCE_TOPICS => &["R33"],
        STATUS_INCORRECTLY_PARTITIONED_TOPICS => &["R35", "R36"],
        STATUS_MISSING_INTERNAL_TOPICS => &["R34"],
        STATUS_SHUTDOWN_APPLICATION => &["R43", "R44", "R45"],
        STATUS_ASSIGNMENT_DELAYED => &["R25", "R42"],
        STATUS_MISSING_CLIENT_TAGS => &["R25"],
        _ => &["spec 5.7"],
    }
}

/// The codes in a leaf's JSON (`25`, or the status codes of a status object's leaf).
fn codes_in(values: [&str; 2]) -> impl Iterator<Item = i64> + '_ {
    values
        .into_iter()
        .filter_map(|value| value.parse::<i64>().ok())
}

/// The status codes in a leaf of the status list: a code, a status, or the list.
fn status_codes_in(values: [&str; 2]) -> Vec<i64> {
    fn collect(value: &Value, codes: &mut Vec<i64>) {
        match value {
            Value::Number(code) => codes.extend(code.as_i64()),
            Value::Object(status) => codes.extend(status.get("statusCode").and_then(Value::as_i64)),
            Value::Array(statuses) => statuses.iter().for_each(|status| collect(status, codes)),
            _ => {}
        }
    }
    let mut codes = Vec::new();
    for value in values {
        if let Ok(value) = serde_json::from_str::<Value>(value) {
            collect(&value, &mut codes);
        }
    }
    codes
}

fn sort_tasks(lists: &mut [heartbeat::TaskIds]) {
    for list in lists.iter_mut() {
        list.partitions.sort_unstable();
    }
    lists.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
}

fn sort_described_tasks(lists: &mut [describe::TaskIds]) {
    for list in lists.iter_mut() {
        list.partitions.sort_unstable();
    }
    lists.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
}

impl Comparable for StreamsGroupHeartbeatResponse {
    fn normalized(&self) -> Self {
        let mut answer = self.clone();
        answer.throttle_time_ms = 0;
        answer.error_message = None;
        for status in answer.status.iter_mut().flatten() {
            status.status_detail.clear();
        }
        for lists in [
            &mut answer.active_tasks,
            &mut answer.standby_tasks,
            &mut answer.warmup_tasks,
        ]
        .into_iter()
        .flatten()
        {
            sort_tasks(lists);
        }
        if let Some(endpoints) = &mut answer.partitions_by_user_endpoint {
            for endpoint in endpoints.iter_mut() {
                for partitions in [
                    &mut endpoint.active_partitions,
                    &mut endpoint.standby_partitions,
                ] {
                    for topic in partitions.iter_mut() {
                        topic.partitions.sort_unstable();
                    }
                    // A topic read by two subtopologies has an entry for each.
                    partitions
                        .sort_by(|a, b| (&a.topic, &a.partitions).cmp(&(&b.topic, &b.partitions)));
                }
            }
            // Members sharing an endpoint have an entry each, in Kafka's hash order: ties are
            // broken on the entries' partitions.
            let key = |e: &heartbeat::EndpointToPartitions| {
                let lists = [&e.active_partitions, &e.standby_partitions].map(|partitions| {
                    partitions
                        .iter()
                        .map(|t| (t.topic.clone(), t.partitions.clone()))
                        .collect::<Vec<_>>()
                });
                (e.user_endpoint.host.clone(), e.user_endpoint.port, lists)
            };
            endpoints.sort_by_cached_key(key);
        }
        answer
    }

    fn rules_of(difference: &FieldDifference) -> Vec<&'static str> {
        let field = difference.field();
        let values = [difference.target.as_str(), difference.reference.as_str()];
        let rules: Vec<&'static str> = match field.as_str() {
            ".errorCode" => codes_in(values)
                .flat_map(|code| error_code_rules(code as i16).iter().copied())
                .collect(),
            f if f.starts_with(".status") => {
                let codes = status_codes_in(values);
                if codes.is_empty() {
                    vec!["spec 5.7", "spec 7.2"]
                } else {
                    codes
                        .into_iter()
                        .flat_map(|code| status_rules(code as i8).iter().copied())
                        .collect()
                }
            }
            ".memberEpoch" => vec!["R23", "R24", "R25", "R27", "R31", "R54"],
            ".memberId" => vec!["spec 7.1"],
            ".heartbeatIntervalMs" | ".acceptableRecoveryLag" | ".taskOffsetIntervalMs" => {
                vec!["R52", "spec 7.4"]
            }
            ".endpointInformationEpoch" => vec!["R46", "spec 7.6"],
            ".topologyDescriptionRequired" => vec!["R53"],
            f if f.starts_with(".partitionsByUserEndpoint") => vec!["R46", "spec 7.6"],
            f if f.starts_with(".activeTasks") => vec!["R26", "R27", "R28", "R31", "spec 7.3"],
            f if f.starts_with(".standbyTasks") => vec!["R26", "R41", "spec 7.3"],
            f if f.starts_with(".warmupTasks") => vec!["R12", "R26", "spec 7.3"],
            _ => vec!["spec 7.1"],
        };
        rules
    }
}

impl Comparable for StreamsGroupDescribeResponse {
    fn normalized(&self) -> Self {
        let mut answer = self.clone();
        answer.throttle_time_ms = 0;
        for group in &mut answer.groups {
            group.error_message = None;
            if let Some(subtopologies) = group
                .topology
                .as_mut()
                .and_then(|topology| topology.subtopologies.as_mut())
            {
                subtopologies.sort_by(|a, b| a.subtopology_id.cmp(&b.subtopology_id));
            }
            for member in &mut group.members {
                member.client_id.clear();
                member.client_host.clear();
                for offsets in [&mut member.task_offsets, &mut member.task_end_offsets] {
                    offsets.sort_by(|a, b| {
                        (&a.subtopology_id, a.partition).cmp(&(&b.subtopology_id, b.partition))
                    });
                }
                for assignment in [&mut member.assignment, &mut member.target_assignment] {
                    sort_described_tasks(&mut assignment.active_tasks);
                    sort_described_tasks(&mut assignment.standby_tasks);
                    sort_described_tasks(&mut assignment.warmup_tasks);
                }
            }
            group.members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
        }
        answer
    }

    fn rules_of(difference: &FieldDifference) -> Vec<&'static str> {
        let field = difference.field();
        let values = [difference.target.as_str(), difference.reference.as_str()];
        match field.as_str() {
            ".groups[].errorCode" => codes_in(values)
                .flat_map(|code| match code as i16 {
                    ERROR_GROUP_AUTHORIZATION_FAILED | ERROR_TOPIC_AUTHORIZATION_FAILED => {
                        &["R47"][..]
                    }
                    ERROR_GROUP_ID_NOT_FOUND => &["R19"][..],
                    _ => &["spec 2.4"][..],
                })
                .copied()
                .collect(),
            ".groups[].groupState" => vec!["R48", "spec 4.2"],
            ".groups[].groupEpoch" | ".groups[].assignmentEpoch" => vec!["R48", "spec 4.1"],
            f if f.starts_with(".groups[].topology") => vec!["spec 5.4"],
            f if f.contains(".targetAssignment") => vec!["R41", "spec 4.4", "spec 6"],
            f if f.contains(".assignment") => vec!["R27", "R28", "spec 4.3"],
            f if f.starts_with(".groups[].members") => vec!["R48"],
            _ => vec!["R48"],
        }
    }
}

/// A code's name for the report, where a leaf is a code (`25 UNKNOWN_MEMBER_ID`).
pub fn describe_code(path: &str, value: &str) -> Option<String> {
    let code: i64 = value.parse().ok()?;
    if path.ends_with("errorCode") {
        Some(codes::ErrorCode(code as i16).to_string())
    } else if path.ends_with("statusCode") {
        codes::status_name(code as i8).map(|name| format!("{code} {name}"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(epoch: i32) -> StreamsGroupHeartbeatResponse {
        StreamsGroupHeartbeatResponse::default()
            .with_member_id("m")
            .with_member_epoch(epoch)
            .with_throttle_time_ms(epoch)
            .with_active_tasks(Some(vec![
                heartbeat::TaskIds::default()
                    .with_subtopology_id("1")
                    .with_partitions(vec![2, 0]),
                heartbeat::TaskIds::default()
                    .with_subtopology_id("0")
                    .with_partitions(vec![1]),
            ]))
    }

    #[test]
    fn throttle_time_messages_and_task_order_may_differ() {
        let mut other = answer(3).with_throttle_time_ms(100);
        other.active_tasks.as_mut().unwrap().reverse();
        other.active_tasks.as_mut().unwrap()[1].partitions = vec![0, 2];
        other.error_message = Some("text".to_owned());
        assert_eq!(compare(&answer(3), &other), None);
    }

    fn described_offsets(order: &[(&str, i32, i64)]) -> StreamsGroupDescribeResponse {
        let offsets: Vec<describe::TaskOffset> = order
            .iter()
            .map(|(subtopology, partition, offset)| {
                describe::TaskOffset::default()
                    .with_subtopology_id(*subtopology)
                    .with_partition(*partition)
                    .with_offset(*offset)
            })
            .collect();
        let member = describe::Member::default()
            .with_member_id("m")
            .with_task_offsets(offsets.clone())
            .with_task_end_offsets(offsets);
        StreamsGroupDescribeResponse::default().with_groups(vec![
            describe::DescribedGroup::default()
                .with_group_id("g")
                .with_members(vec![member]),
        ])
    }

    #[test]
    fn described_task_offsets_may_come_in_another_order_but_not_with_other_values() {
        // Kafka 4.4.0 described 1_2, 1_3, 1_5 for a member that sent 1_5, 1_2, 1_3.
        let kafka = described_offsets(&[("1", 2, 0), ("1", 3, 19), ("1", 5, 24)]);
        let sent = described_offsets(&[("1", 5, 24), ("1", 2, 0), ("1", 3, 19)]);
        assert_eq!(compare(&kafka, &sent), None);
        let other = described_offsets(&[("1", 5, 25), ("1", 2, 0), ("1", 3, 19)]);
        let paths: Vec<String> = compare(&kafka, &other)
            .expect("an offset differs")
            .differences()
            .into_iter()
            .map(|difference| difference.path)
            .collect();
        assert_eq!(
            paths,
            [
                ".groups[0].members[0].taskOffsets[2].offset",
                ".groups[0].members[0].taskEndOffsets[2].offset"
            ]
        );
    }

    #[test]
    fn members_sharing_an_endpoint_may_come_in_any_order() {
        let entry = |partitions: Vec<i32>| {
            let topic = heartbeat::TopicPartition::default()
                .with_topic("t")
                .with_partitions(partitions);
            heartbeat::EndpointToPartitions::default()
                .with_user_endpoint(
                    heartbeat::Endpoint::default()
                        .with_host("h0")
                        .with_port(9000),
                )
                .with_active_partitions(vec![topic])
        };
        let with = |entries: Vec<heartbeat::EndpointToPartitions>| {
            answer(3).with_partitions_by_user_endpoint(Some(entries))
        };
        let target = with(vec![entry(vec![5, 3]), entry(vec![])]);
        assert_eq!(
            compare(&target, &with(vec![entry(vec![]), entry(vec![3, 5])])),
            None
        );
        let other = with(vec![entry(vec![]), entry(vec![3, 4])]);
        let differences = compare(&target, &other)
            .expect("partitions differ")
            .differences();
        assert_eq!(
            differences
                .iter()
                .map(|d| d.path.as_str())
                .collect::<Vec<_>>(),
            [".partitionsByUserEndpoint[1].activePartitions[0].partitions"]
        );
    }

    #[test]
    fn a_differing_epoch_is_marked_and_cited() {
        let table = compare(&answer(3), &answer(4)).expect("epochs differ");
        let differences = table.differences();
        assert_eq!(
            differences,
            vec![FieldDifference {
                path: ".memberEpoch".to_owned(),
                target: "3".to_owned(),
                reference: "4".to_owned()
            }]
        );
        assert_eq!(
            rules_of::<StreamsGroupHeartbeatResponse>(&differences),
            ["R23", "R24", "R25", "R27", "R31", "R54"]
        );
        let rendered = table.render();
        assert!(
            rendered.contains("  * .memberEpoch"),
            "the differing field is marked:\n{rendered}"
        );
        assert!(
            rendered.contains("    .memberId"),
            "equal fields are shown unmarked:\n{rendered}"
        );
    }

    #[test]
    fn error_codes_cite_the_rules_of_both_codes() {
        let target =
            StreamsGroupHeartbeatResponse::default().with_error_code(ERROR_FENCED_MEMBER_EPOCH);
        let reference =
            StreamsGroupHeartbeatResponse::default().with_error_code(ERROR_UNKNOWN_MEMBER_ID);
        let differences = compare(&target, &reference).unwrap().differences();
        assert_eq!(differences[0].field(), ".errorCode");
        assert_eq!(
            rules_of::<StreamsGroupHeartbeatResponse>(&differences),
            ["R23", "R24", "R21", "R32"]
        );
    }

    #[test]
    fn a_field_names_its_path_without_indexes() {
        let difference = FieldDifference {
            path: ".groups[0].members[12].assignment.activeTasks[3].partitions".to_owned(),
            target: String::new(),
            reference: String::new(),
        };
        assert_eq!(
            difference.field(),
            ".groups[].members[].assignment.activeTasks[].partitions"
        );
    }
}
