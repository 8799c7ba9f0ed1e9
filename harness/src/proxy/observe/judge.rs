//! The oracle's properties on live traffic: an adapter from the exchanges a proxy passes on to
//! the views [`crate::simulation::oracle`] judges. It decides nothing itself: each property it
//! applies is judged by the oracle's own condition; it only says which properties are sound on
//! traffic it did not drive ([`LIVE`], [`not_live_because`]) and keeps, per group, what those
//! conditions read.

use std::collections::{BTreeMap, BTreeSet};

use kafka_protocol::messages::{RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{Decodable, HeaderVersion};
use serde::{Deserialize, Serialize};
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;
use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::{DecodeError, WireMessage};

use crate::backend::BackendError;
use crate::simulation::history::{ExchangeView, GroupView, Holdings, MemberView};
use crate::simulation::oracle::{self, Condition, Found, Property, PROPERTIES};
use crate::simulation::setup::Setup;
use crate::simulation::Event;

/// StreamsGroupHeartbeat's api key.
pub const HEARTBEAT_KEY: i16 = 88;
/// StreamsGroupDescribe's api key.
pub const DESCRIBE_KEY: i16 = 89;

/// Heartbeats kept per group: past it, the oldest [`DROPPED_AT_ONCE`] go. A property reads at
/// most the latest exchanges of the members it names, so dropping old ones can only hide a
/// violation, never make one up.
pub const EXCHANGES_PER_GROUP: usize = 4096;
/// Exchanges dropped at once when a group's history is full.
pub const DROPPED_AT_ONCE: usize = 1024;
/// Groups followed at once; exchanges of further groups are counted, not judged.
pub const GROUPS_MAX: usize = 10_000;

/// The properties judged on live traffic, each by the oracle's own condition.
/// "assigned tasks exist in the topology" only on exchanges whose group's topology has every
/// source and repartition topic counted ([`super::topics::task_counts`]).
pub const LIVE: [&Property; 10] = [
    &oracle::WELL_FORMED,
    &oracle::ERROR_CODES,
    &oracle::BARE_ERRORS,
    &oracle::MEMBER_ID_ECHOED,
    &oracle::TASK_LISTS_TOGETHER,
    &oracle::TASKS_EXIST,
    &oracle::EPOCH_NEVER_DECREASES,
    &oracle::EPOCH_ORDER,
    &oracle::ONE_ACTIVE_OWNER,
    &oracle::ROLES_APART,
];

/// How many exchanges that judge `property` have passed: describes for the properties that read
/// the members a describe lists, heartbeats for the others, any exchange for well-formed answers.
pub fn exchanges_judging(property: &Property, judge: &LiveJudge) -> u64 {
    if property.name == oracle::WELL_FORMED.name {
        judge.judged
    } else if property.name == oracle::TASKS_EXIST.name {
        judge.tasks_judged
    } else if [
        &oracle::EPOCH_ORDER,
        &oracle::ONE_ACTIVE_OWNER,
        &oracle::ROLES_APART,
    ]
    .iter()
    .any(|described| described.name == property.name)
    {
        judge.describes
    } else {
        judge.heartbeats
    }
}

/// Why an `always` or `eventually` property of the oracle is not judged on live traffic;
/// "the group settles" is judged at the proxy's end when `settled_at_exit` ([`super::settle`]).
pub fn not_live_because(property: &Property, settled_at_exit: bool) -> Option<&'static str> {
    let reason = match property.name {
        name if name == oracle::ANSWERED.name => {
            "a proxy cannot tell a slow answer from a lost one; clients bound their own waits"
        }
        name if name == oracle::ANSWERS_EQUAL.name => {
            "needs the reference coordinator fed the same requests (fuzz --differential)"
        }
        name if name == oracle::TARGETS_VALID.name => {
            "needs the group's standby count and which subtopologies are stateful and ready"
        }
        name if name == oracle::SETTLES.name && !settled_at_exit => {
            "needs to know when faults stop: declare the groups settled when the proxy stops with --settled-at-exit"
        }
        name if name == oracle::DETERMINISTIC.name => "needs two runs of one input",
        _ => return None,
    };
    Some(reason)
}

/// A request and its answer of api 88 or 89 as they passed, header included, with the times in
/// milliseconds since the proxy started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Passed {
    /// When the answer came back.
    pub at_ms: u64,
    /// When the request went on to the broker. Requests of different connections that were
    /// in flight together may have been handled in either order, whatever order their answers
    /// came in; `None` in traces written before it was recorded (taken as `at_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_ms: Option<u64>,
    pub api_key: i16,
    pub version: i16,
    /// The request frame without its size prefix, in hex.
    #[serde(with = "hex")]
    pub request: Vec<u8>,
    /// The answer frame without its size prefix, in hex.
    #[serde(with = "hex")]
    pub response: Vec<u8>,
}

/// A violated property, seen on the exchange `exchange` (an index into the judge's record of
/// `group`).
#[derive(Debug, Clone)]
pub struct LiveViolation {
    pub property: &'static Property,
    pub group: String,
    pub detail: String,
    /// The members the exchanges that show it belong to.
    pub members: Vec<String>,
    /// The exchanges that show it, one request and answer each, as the oracle renders them;
    /// for a describe, the described group as JSON.
    pub shown: String,
}

impl LiveViolation {
    /// `always: ... (rules) in group G, members a, b: detail`, then the exchanges.
    pub fn render(&self) -> String {
        format!(
            "{} ({}) in group {}, member{} {}: {}\n{}",
            self.property,
            self.property.rules,
            self.group,
            if self.members.len() == 1 { "" } else { "s" },
            if self.members.is_empty() {
                "(none named)".to_owned()
            } else {
                self.members.join(", ")
            },
            self.detail,
            self.shown
        )
    }
}

/// When a member's latest heartbeat passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LastHeartbeat {
    /// The group's exchange count then.
    pub(super) exchange: u64,
    /// When its answer came.
    pub(super) answered_ms: u64,
}

/// The latest describe of a group answered without error.
#[derive(Debug)]
pub(super) struct LatestDescribe {
    /// The group's exchange count then.
    exchange: u64,
    /// When it went on to the broker, where the trace recorded it.
    sent_ms: Option<u64>,
    /// The members it listed.
    listed: BTreeSet<String>,
}

impl LatestDescribe {
    /// Whether `member`, whose latest heartbeat was `last`, had left the group by this describe
    /// (its session expired, as after a crash; R21): not listed though the broker handled that
    /// heartbeat first, as its answer came before the describe went on. Without that time, a
    /// heartbeat answered before the describe's answer is taken as handled first; so is one
    /// answered in the millisecond the describe went on (times are whole milliseconds, and a
    /// client that waits for the answer before it describes sends within the same one).
    pub(super) fn left_by(&self, member: &str, last: &LastHeartbeat) -> bool {
        let by_order = last.exchange < self.exchange;
        let handled_first = match self.sent_ms {
            Some(sent_ms) => {
                last.answered_ms < sent_ms || (last.answered_ms == sent_ms && by_order)
            }
            None => by_order,
        };
        handled_first && !self.listed.contains(member)
    }
}

/// What the judge keeps of one group.
#[derive(Debug, Default)]
pub struct GroupRecord {
    /// Its heartbeats, as the oracle's conditions read them.
    pub(super) history: Vec<Event>,
    /// What each member still in the group was last told it owns ([`Holdings::apply`]).
    pub(super) holdings: BTreeMap<String, Holdings>,
    /// The topology of the latest heartbeat that carried one and was answered without error.
    pub(super) topology: Option<Topology>,
    /// Exchanges of the group so far: the order of heartbeats and describes.
    pub(super) exchanges: u64,
    /// By member still in the group (as in `holdings`), its latest heartbeat.
    pub(super) last_heartbeat: BTreeMap<String, LastHeartbeat>,
    /// The latest describe of the group answered without error.
    pub(super) described: Option<LatestDescribe>,
    /// Every exchange that named it, raw, for its trace.
    pub passed: Vec<Passed>,
    /// Exchanges dropped to keep within [`EXCHANGES_PER_GROUP`].
    pub dropped: u64,
}

/// The record of `group` in `groups`, made on first sight while fewer than [`GROUPS_MAX`] are
/// followed, with `passed` added to its raw exchanges; `None` (counted in `unfollowed`) past it.
fn record<'g>(
    groups: &'g mut BTreeMap<String, GroupRecord>,
    unfollowed: &mut u64,
    group: &str,
    passed: &Passed,
) -> Option<&'g mut GroupRecord> {
    if !groups.contains_key(group) && groups.len() >= GROUPS_MAX {
        *unfollowed += 1;
        return None;
    }
    let record = groups.entry(group.to_owned()).or_default();
    record.exchanges += 1;
    record.dropped += keep_within(&mut record.passed);
    record.passed.push(passed.clone());
    Some(record)
}

/// Drops the oldest entries of a full record.
fn keep_within<T>(entries: &mut Vec<T>) -> u64 {
    if entries.len() < EXCHANGES_PER_GROUP {
        return 0;
    }
    entries.drain(..DROPPED_AT_ONCE);
    DROPPED_AT_ONCE as u64
}

/// The properties of [`LIVE`], per group, over every exchange passed to [`LiveJudge::judge`].
#[derive(Debug, Default)]
pub struct LiveJudge {
    groups: BTreeMap<String, GroupRecord>,
    /// Exchanges of groups past [`GROUPS_MAX`].
    pub unfollowed: u64,
    /// Requests that did not decode: their answers are judged well-formed or not, nothing more.
    pub undecoded_requests: u64,
    /// Exchanges judged.
    pub judged: u64,
    /// Heartbeat and describe exchanges judged: a property none of its exchanges reached is not
    /// reported as passing.
    pub heartbeats: u64,
    pub describes: u64,
    /// Heartbeats judged for "assigned tasks exist in the topology": those of a group whose
    /// topology's tasks were known.
    pub tasks_judged: u64,
    /// What the conditions that read a run's setup are given; none of [`LIVE`] reads it.
    setup: Setup,
    topology: Topology,
}

/// The group of an exchange whose request did not decode.
pub const UNKNOWN_GROUP: &str = "(request not decoded)";

/// A body after its header, decoded strictly (no byte left over).
pub(crate) fn decode_body<M: WireMessage + HeaderVersion>(
    frame: &[u8],
    version: i16,
    response: bool,
) -> Result<M, String> {
    let mut body = frame;
    let header_version = M::header_version(version);
    let header = if response {
        ResponseHeader::decode(&mut body, header_version).map(|_| ())
    } else {
        RequestHeader::decode(&mut body, header_version).map(|_| ())
    };
    header.map_err(|error| format!("{} header: {error}", M::NAME))?;
    M::decode_exact(body, version).map_err(|error: DecodeError| {
        BackendError::Malformed {
            what: format!("{} v{version}", M::NAME),
            source: error,
        }
        .to_string()
    })
}

impl LiveJudge {
    /// The groups followed, by name.
    pub fn groups(&self) -> impl Iterator<Item = &str> {
        self.groups.keys().map(String::as_str)
    }

    /// The record of `group`, if it is followed.
    pub fn group(&self, group: &str) -> Option<&GroupRecord> {
        self.groups.get(group)
    }

    /// Judges one exchange, in the order they passed, with each topic's partition count as
    /// answers showed it so far (`partitions`); returns what it violates.
    pub fn judge(
        &mut self,
        passed: &Passed,
        partitions: &BTreeMap<String, i32>,
    ) -> Vec<LiveViolation> {
        self.judged += 1;
        match passed.api_key {
            HEARTBEAT_KEY => {
                self.heartbeats += 1;
                self.heartbeat(passed, partitions)
            }
            DESCRIBE_KEY => {
                self.describes += 1;
                self.describe(passed)
            }
            _ => Vec::new(),
        }
    }

    /// An answer that does not decode breaks "answers are well-formed", as a malformed answer
    /// to the campaign's transport does.
    fn malformed(&mut self, group: &str, passed: &Passed, detail: String) -> Vec<LiveViolation> {
        if record(&mut self.groups, &mut self.unfollowed, group, passed).is_none() {
            return Vec::new();
        }
        vec![LiveViolation {
            property: &oracle::WELL_FORMED,
            group: group.to_owned(),
            detail,
            members: Vec::new(),
            shown: format!(
                "  api {} v{}: response bytes {}\n",
                passed.api_key,
                passed.version,
                hex::encode(&passed.response)
            ),
        }]
    }

    fn heartbeat(
        &mut self,
        passed: &Passed,
        partitions: &BTreeMap<String, i32>,
    ) -> Vec<LiveViolation> {
        let request: Result<StreamsGroupHeartbeatRequest, _> =
            decode_body(&passed.request, passed.version, false);
        let response: Result<StreamsGroupHeartbeatResponse, _> =
            decode_body(&passed.response, passed.version, true);
        let request = match request {
            Ok(request) => request,
            Err(_) => {
                self.undecoded_requests += 1;
                return match response {
                    Ok(_) => Vec::new(),
                    Err(detail) => self.malformed(UNKNOWN_GROUP, passed, detail),
                };
            }
        };
        let response = match response {
            Ok(response) => response,
            Err(detail) => return self.malformed(&request.group_id, passed, detail),
        };
        let group = request.group_id.clone();
        let LiveJudge {
            groups,
            unfollowed,
            setup,
            topology,
            tasks_judged,
            ..
        } = self;
        let Some(record) = record(groups, unfollowed, &group, passed) else {
            return Vec::new();
        };
        record.dropped += keep_within(&mut record.history);
        let left = request.member_epoch < 0;
        let member = request.member_id.clone();
        record.last_heartbeat.insert(
            member.clone(),
            LastHeartbeat {
                exchange: record.exchanges,
                answered_ms: passed.at_ms,
            },
        );
        if let (Some(sent), 0) = (&request.topology, response.error_code) {
            record.topology = Some(sent.clone());
        }
        // Tasks are judged only against a topology whose every topic has a known count.
        let task_counts = record
            .topology
            .as_ref()
            .and_then(|sent| super::topics::task_counts(sent, partitions).ok());
        *tasks_judged += u64::from(task_counts.is_some());
        let no_counts = BTreeMap::new();
        record.history.push(Event {
            operation: record.history.len() + 1,
            now_ms: passed.at_ms,
            member: member.clone(),
            request,
            response,
            delivered: true,
        });
        let view = ExchangeView {
            history: &record.history,
            setup,
            task_counts: task_counts.as_ref().unwrap_or(&no_counts),
            topology,
            source_topic_missing: false,
        };
        let violations = live_properties()
            .filter(|property| task_counts.is_some() || **property != oracle::TASKS_EXIST)
            .filter_map(|property| match property.condition {
                Condition::Exchange(holds) => holds(&view).err().map(|found| (property, found)),
                _ => None,
            })
            .map(|(property, found)| shown(property, &group, &record.history, found))
            .collect();
        let event = record.history.last().expect("just pushed");
        let holdings = record.holdings.entry(member).or_default();
        if !holdings.apply(&event.response, left) {
            // Forgotten together: a group's churn of member ids must not grow its record.
            let member = &event.member;
            record.holdings.remove(member);
            record.last_heartbeat.remove(member);
        }
        violations
    }

    fn describe(&mut self, passed: &Passed) -> Vec<LiveViolation> {
        let request: Result<StreamsGroupDescribeRequest, _> =
            decode_body(&passed.request, passed.version, false);
        let response: Result<StreamsGroupDescribeResponse, _> =
            decode_body(&passed.response, passed.version, true);
        let response = match (request, response) {
            (_, Ok(response)) => response,
            (Ok(request), Err(detail)) => {
                let group = request.group_ids.first().map_or(UNKNOWN_GROUP, |g| g);
                return self.malformed(group, passed, detail);
            }
            (Err(_), Err(detail)) => {
                self.undecoded_requests += 1;
                return self.malformed(UNKNOWN_GROUP, passed, detail);
            }
        };
        let mut violations = Vec::new();
        for described in &response.groups {
            let Some(record) = record(
                &mut self.groups,
                &mut self.unfollowed,
                &described.group_id,
                passed,
            ) else {
                continue;
            };
            if described.error_code == 0 {
                let members = described
                    .members
                    .iter()
                    .map(|member| member.member_id.clone())
                    .collect();
                let latest = LatestDescribe {
                    exchange: record.exchanges,
                    sent_ms: passed.sent_ms,
                    listed: members,
                };
                // Only where the times show it: a member in flight with the describe stays.
                if latest.sent_ms.is_some() {
                    forget_left(record, &latest);
                }
                record.described = Some(latest);
            }
            violations.extend(judge_group(record, &self.setup, described));
        }
        violations
    }
}

/// Forgets the members that had left the group by `describe` ([`LatestDescribe::left_by`]):
/// members that never leave must not grow a group's record. One heartbeating again is unknown
/// to the broker, or joins afresh, and is followed from that answer.
fn forget_left(record: &mut GroupRecord, describe: &LatestDescribe) {
    let left: Vec<String> = record
        .last_heartbeat
        .iter()
        .filter(|(member, last)| describe.left_by(member, last))
        .map(|(member, _)| member.clone())
        .collect();
    for member in &left {
        record.holdings.remove(member);
        record.last_heartbeat.remove(member);
    }
}

/// The group properties of [`LIVE`] on a describe of the group beside what its members were told.
fn judge_group(
    record: &GroupRecord,
    setup: &Setup,
    described: &DescribedGroup,
) -> Vec<LiveViolation> {
    // The oracle tells processes apart by a small number; a describe names them by id.
    let processes: BTreeSet<&str> = described
        .members
        .iter()
        .map(|member| member.process_id.as_str())
        .collect();
    let process_of = |id: &str| {
        processes
            .iter()
            .position(|process| *process == id)
            .and_then(|index| u8::try_from(index).ok())
    };
    let members: Option<Vec<MemberView<'_>>> = described
        .members
        .iter()
        .filter_map(|member| {
            let holdings = record.holdings.get(&member.member_id)?;
            Some(process_of(&member.process_id).map(|process| MemberView {
                id: &member.member_id,
                process,
                live: true,
                holdings,
            }))
        })
        .collect();
    let view = GroupView {
        history: &record.history,
        setup,
        group: described,
        // More processes than the oracle can number: only what needs no holdings is judged.
        members: members.unwrap_or_default(),
        ready_now: true,
        lost_response: false,
    };
    let described_json = serde_json::to_string(described).unwrap_or_default();
    live_properties()
        .filter_map(|property| match property.condition {
            Condition::Group(holds) => holds(&view).err().map(|found| (property, found)),
            _ => None,
        })
        .map(|(property, found)| {
            let mut violation = shown(property, &described.group_id, &record.history, found);
            violation
                .shown
                .push_str(&format!("  described: {described_json}\n"));
            violation
        })
        .collect()
}

/// The properties of [`LIVE`], in the oracle's order.
fn live_properties() -> impl Iterator<Item = &'static Property> {
    PROPERTIES
        .into_iter()
        .filter(|property| LIVE.contains(property))
}

pub(super) fn shown(
    property: &'static Property,
    group: &str,
    history: &[Event],
    found: Found,
) -> LiveViolation {
    let members: BTreeSet<String> = found
        .events
        .iter()
        .filter_map(|index| history.get(*index))
        .map(|event| event.member.clone())
        .collect();
    let shown = found
        .events
        .iter()
        .filter_map(|index| history.get(*index))
        .map(Event::render)
        .collect();
    LiveViolation {
        property,
        group: group.to_owned(),
        detail: found.detail,
        members: members.into_iter().collect(),
        shown,
    }
}

/// Bytes as lowercase hex in JSON.
pub mod hex;

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::BytesMut;
    use kafka_protocol::protocol::{Encodable, StrBytes};
    use streamspec_protocol::kafka::streams_group_describe_response::{Assignment, Member};
    use streamspec_protocol::kafka::streams_group_heartbeat_response::TaskIds;

    /// A frame body: the header of `api_key` at v0 (request header v2, response header v1),
    /// then `body`.
    fn framed(api_key: Option<i16>, correlation_id: i32, body: Vec<u8>) -> Vec<u8> {
        let mut frame = BytesMut::new();
        match api_key {
            Some(api_key) => RequestHeader::default()
                .with_request_api_key(api_key)
                .with_correlation_id(correlation_id)
                .with_client_id(Some(StrBytes::from_static_str("t")))
                .encode(&mut frame, 2),
            None => ResponseHeader::default()
                .with_correlation_id(correlation_id)
                .encode(&mut frame, 1),
        }
        .unwrap();
        frame.extend_from_slice(&body);
        frame.to_vec()
    }

    fn heartbeat(member: &str, epoch: i32, response: StreamsGroupHeartbeatResponse) -> Passed {
        let request = StreamsGroupHeartbeatRequest::default()
            .with_group_id("g")
            .with_member_id(member)
            .with_member_epoch(epoch);
        Passed {
            at_ms: 0,
            sent_ms: Some(0),
            api_key: HEARTBEAT_KEY,
            version: 0,
            request: framed(Some(HEARTBEAT_KEY), 1, request.encode_to_vec(0).unwrap()),
            response: framed(None, 1, response.encode_to_vec(0).unwrap()),
        }
    }

    fn told(member: &str, epoch: i32, partitions: Vec<i32>) -> StreamsGroupHeartbeatResponse {
        let active = vec![TaskIds::default()
            .with_subtopology_id("0")
            .with_partitions(partitions)];
        StreamsGroupHeartbeatResponse::default()
            .with_member_id(member)
            .with_member_epoch(epoch)
            .with_active_tasks(Some(active))
            .with_standby_tasks(Some(Vec::new()))
            .with_warmup_tasks(Some(Vec::new()))
    }

    fn describe_of(members: &[&str]) -> Passed {
        let request = StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]);
        let members = members
            .iter()
            .map(|id| {
                Member::default()
                    .with_member_id(*id)
                    .with_member_epoch(3)
                    .with_process_id(format!("p-{id}"))
                    .with_assignment(Assignment::default())
                    .with_target_assignment(Assignment::default())
            })
            .collect();
        let response =
            StreamsGroupDescribeResponse::default().with_groups(vec![DescribedGroup::default()
                .with_group_id("g")
                .with_group_epoch(3)
                .with_assignment_epoch(3)
                .with_members(members)]);
        Passed {
            at_ms: 0,
            sent_ms: Some(0),
            api_key: DESCRIBE_KEY,
            version: 0,
            request: framed(Some(DESCRIBE_KEY), 2, request.encode_to_vec(0).unwrap()),
            response: framed(None, 2, response.encode_to_vec(0).unwrap()),
        }
    }

    #[test]
    fn a_task_revoked_before_it_moves_is_never_owned_twice() {
        let mut judge = LiveJudge::default();
        let exchanges = [
            heartbeat("a", 0, told("a", 1, vec![0, 1])),
            // Revoked from a at its epoch, then given to b once a's answer passed.
            heartbeat("a", 1, told("a", 1, vec![0])),
            heartbeat("b", 0, told("b", 3, vec![1])),
            heartbeat("a", 1, told("a", 3, vec![0])),
            describe_of(&["a", "b"]),
        ];
        for passed in &exchanges {
            let found: Vec<_> = judge
                .judge(passed, &BTreeMap::new())
                .iter()
                .map(LiveViolation::render)
                .collect();
            assert_eq!(found, Vec::<String>::new());
        }
        assert_eq!(judge.judged, 5);
        assert_eq!(judge.group("g").map(|record| record.passed.len()), Some(5));
    }

    #[test]
    fn a_member_that_left_or_was_fenced_or_removed_is_forgotten_until_it_joins_again() {
        use streamspec_protocol::codes::{ERROR_FENCED_MEMBER_EPOCH, ERROR_UNKNOWN_MEMBER_ID};
        let answered = |member: &str, error_code: i16| {
            StreamsGroupHeartbeatResponse::default()
                .with_member_id(member)
                .with_member_epoch(-1)
                .with_error_code(error_code)
        };
        let mut judge = LiveJudge::default();
        let exchanges = [
            heartbeat("a", 0, told("a", 1, vec![0])),
            heartbeat("b", 0, told("b", 2, vec![1])),
            heartbeat("c", 0, told("c", 3, vec![2])),
            heartbeat("d", 0, told("d", 4, vec![3])),
            // A dynamic leave (R21's -1), answered with epoch -1.
            heartbeat("a", -1, answered("a", 0)),
            // Fenced on a greater epoch than the coordinator's (R23).
            heartbeat("b", 9, answered("b", ERROR_FENCED_MEMBER_EPOCH)),
            // Removed: its session expired (R21).
            heartbeat("c", 3, answered("c", ERROR_UNKNOWN_MEMBER_ID)),
            heartbeat("d", 4, told("d", 4, vec![3])),
            // Back as a joiner: known again from this heartbeat.
            heartbeat("b", 0, told("b", 5, vec![1])),
        ];
        for passed in &exchanges {
            judge.judge(passed, &BTreeMap::new());
        }
        let record = judge.group("g").expect("followed");
        let at = |exchange| LastHeartbeat {
            exchange,
            answered_ms: 0,
        };
        assert_eq!(
            record.last_heartbeat,
            BTreeMap::from([("b".to_owned(), at(9)), ("d".to_owned(), at(8))])
        );
        assert_eq!(record.holdings.keys().collect::<Vec<_>>(), vec!["b", "d"]);
    }

    /// `passed` as sent at `sent_ms` and answered at `answered_ms`.
    fn timed(mut passed: Passed, sent_ms: u64, answered_ms: u64) -> Passed {
        passed.sent_ms = Some(sent_ms);
        passed.at_ms = answered_ms;
        passed
    }

    #[test]
    fn a_member_a_later_describe_does_not_list_is_forgotten_once_its_heartbeat_was_handled_first() {
        let mut judge = LiveJudge::default();
        let exchanges = [
            timed(heartbeat("a", 0, told("a", 1, vec![0])), 0, 10),
            timed(heartbeat("b", 0, told("b", 2, vec![1])), 20, 30),
            // c's join went on before the describe and was answered after it went on: the broker
            // may have handled the describe first, so c is kept though it is not listed.
            timed(heartbeat("c", 0, told("c", 3, vec![2])), 35, 45),
            // d was answered in the millisecond the describe went on, before its answer came:
            // handled first, so it left too.
            timed(heartbeat("d", 0, told("d", 4, vec![3])), 38, 40),
            // a crashed: its session expired (R21); the describe went on at 40.
            timed(describe_of(&["b"]), 40, 50),
        ];
        for passed in &exchanges {
            judge.judge(passed, &BTreeMap::new());
        }
        let record = judge.group("g").expect("followed");
        assert_eq!(record.holdings.keys().collect::<Vec<_>>(), vec!["b", "c"]);
        assert_eq!(
            record.last_heartbeat.keys().collect::<Vec<_>>(),
            vec!["b", "c"]
        );
        // Heartbeating again, a is unknown (R21) and stays forgotten.
        let unknown = StreamsGroupHeartbeatResponse::default()
            .with_member_id("a")
            .with_member_epoch(-1)
            .with_error_code(streamspec_protocol::codes::ERROR_UNKNOWN_MEMBER_ID);
        judge.judge(&timed(heartbeat("a", 1, unknown), 60, 70), &BTreeMap::new());
        let record = judge.group("g").expect("followed");
        assert_eq!(record.holdings.keys().collect::<Vec<_>>(), vec!["b", "c"]);
    }

    #[test]
    fn an_answer_that_does_not_decode_breaks_well_formed_answers_in_its_group() {
        let mut judge = LiveJudge::default();
        let mut passed = heartbeat("a", 0, told("a", 1, vec![0]));
        // Cut inside the answer's body: header v1 is 5 bytes, the error code 2 more.
        passed.response.truncate(8);
        let found = judge.judge(&passed, &BTreeMap::new());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].property, &oracle::WELL_FORMED);
        assert_eq!(found[0].group, "g");
        assert!(
            found[0]
                .detail
                .starts_with("StreamsGroupHeartbeatResponse v0: "),
            "{}",
            found[0].detail
        );
        assert_eq!(
            found[0].shown,
            format!(
                "  api 88 v0: response bytes {}\n",
                hex::encode(&passed.response)
            )
        );
    }

    #[test]
    fn hex_round_trips_and_refuses_what_is_not_hex() {
        assert_eq!(hex::encode(&[0, 0x7f, 0xff]), "007fff");
        assert_eq!(hex::decode("007fff"), Ok(vec![0, 0x7f, 0xff]));
        assert_eq!(
            hex::decode("0"),
            Err("odd number of hex digits (1)".to_owned())
        );
        assert_eq!(hex::decode("0g"), Err("not hex at character 0".to_owned()));
    }
}
