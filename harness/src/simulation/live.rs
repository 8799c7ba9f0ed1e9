//! A real client's history retold as a run: a live trace the proxy captured (`streamspec proxy
//! --capture`) mapped onto a [`RunInput`], so that what real Kafka Streams clients did becomes a
//! `coordinator_ops` seed the reference and the oracle replay deterministically.
//!
//! - Topology: the first join's topology onto [`Setup`]: source topics with the partition counts
//!   the trace recorded, subtopologies chained by repartition topics, changelogs, copartition
//!   groups; the group configs recorded give the standby count and rack-aware tags.
//! - Members: every real member id, in order of appearance, onto a slot of the simulated pool;
//!   real processes numbered in order of appearance. A new member id of a process reuses a slot
//!   of that process whose member left or vanished (a restart: a new incarnation), else takes a
//!   free slot; when the pool is full its exchanges are folded away (dropped and counted).
//! - Reporting: a slot whose real members sent null task lists (unchanged) omits them too.
//! - Requests: epoch 0 is a join, -1 a leave, -2 a static leave, any other a heartbeat (a
//!   shutdown request when it asks for one); a member silent for [`SILENT_INTERVALS`] of its
//!   heartbeat intervals while the trace goes on, without having left, vanished: a crash.
//! - Time: the gaps between exchanges become clock advances.
//!
//! Describes are not retold: the simulation describes the group after every exchange itself.
//! What the real members owned is not copied either: the simulated members report what the
//! reference told them, which keeps the run one the oracle can judge.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::operation::{Operation, RunInput, MAX_ADVANCE_MS};
use super::setup::{MemberSetup, Setup, SubtopologySetup, MEMBERS};
use crate::proxy::observe::judge::decode_body;
use crate::proxy::observe::{LiveTrace, HEARTBEAT_KEY};

/// Heartbeat intervals a member may stay silent, while others go on, before it counts as gone.
pub const SILENT_INTERVALS: u64 = 3;
/// The interval assumed for a member never told one: Kafka's default.
const DEFAULT_INTERVAL_MS: u64 = 5_000;
/// Group configs the setup reads.
const STANDBY_REPLICAS: &str = "streams.num.standby.replicas";
const RACK_AWARE_TAGS: &str = "streams.rack.aware.assignment.tags";

/// A live trace retold as a run, and what the retelling left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRun {
    pub input: RunInput,
    /// Real member ids by slot of the pool, in order of appearance (a slot's later incarnations
    /// after the first).
    pub slots: Vec<Vec<String>>,
    /// Heartbeats of members that found the pool full, not retold.
    pub folded: usize,
    /// Describes, not retold (the simulation describes after every exchange).
    pub describes: usize,
    /// Real members that vanished without leaving, retold as crashes.
    pub crashes: usize,
}

/// One heartbeat of the trace, decoded.
struct Beat {
    at_ms: u64,
    request: StreamsGroupHeartbeatRequest,
    interval_ms: Option<u64>,
}

/// A slot of the pool and who holds it now.
struct Slot {
    process: usize,
    member: String,
    /// Its member left (-1 or -2) or vanished: a later member of its process may restart in it.
    gone: bool,
}

impl RunInput {
    /// The run that retells `trace` (see the module documentation); an error names what of the
    /// trace the simulation cannot express.
    pub fn from_live_trace(trace: &LiveTrace) -> Result<LiveRun, String> {
        if trace.dropped > 0 {
            return Err(format!(
                "the trace lacks the {} earliest exchanges of group {}",
                trace.dropped, trace.group
            ));
        }
        let mut beats = Vec::new();
        let mut describes = 0;
        for (index, passed) in trace.exchanges.iter().enumerate() {
            if passed.api_key != HEARTBEAT_KEY {
                describes += 1;
                continue;
            }
            let request: StreamsGroupHeartbeatRequest =
                decode_body(&passed.request, passed.version, false)
                    .map_err(|error| format!("exchange {}: {error}", index + 1))?;
            let interval_ms = decode_body::<StreamsGroupHeartbeatResponse>(
                &passed.response,
                passed.version,
                true,
            )
            .ok()
            .filter(|response| response.heartbeat_interval_ms > 0)
            .map(|response| response.heartbeat_interval_ms as u64);
            beats.push(Beat {
                at_ms: passed.at_ms,
                request,
                interval_ms,
            });
        }
        let topology = beats
            .iter()
            .find_map(|beat| beat.request.topology.as_ref())
            .ok_or_else(|| format!("no join of group {} carries a topology", trace.group))?;
        let mut setup = setup_of(trace, topology)?;

        let vanished_after = vanishing_points(&beats);
        let mut processes: Vec<String> = Vec::new();
        let mut slots: Vec<Slot> = Vec::new();
        let mut slot_of: BTreeMap<String, usize> = BTreeMap::new();
        let mut folded_members: BTreeSet<String> = BTreeSet::new();
        let mut history: Vec<Vec<String>> = Vec::new();
        let mut operations = Vec::new();
        let (mut folded, mut crashes) = (0, 0);
        let start_ms = beats.first().map_or(0, |beat| beat.at_ms);
        let mut clock_ms = 0;
        for (index, beat) in beats.iter().enumerate() {
            let request = &beat.request;
            let member = &request.member_id;
            if folded_members.contains(member) {
                folded += 1;
                continue;
            }
            let slot = match slot_of.get(member) {
                Some(slot) => *slot,
                None => {
                    let process = request.process_id.clone().unwrap_or_default();
                    let process = match processes.iter().position(|p| *p == process) {
                        Some(number) => number,
                        None => {
                            processes.push(process);
                            processes.len() - 1
                        }
                    };
                    let reused = slots
                        .iter()
                        .position(|slot| slot.gone && slot.process == process);
                    let slot = match reused {
                        Some(slot) => {
                            slots[slot].member = member.clone();
                            slots[slot].gone = false;
                            history[slot].push(member.clone());
                            slot
                        }
                        None if slots.len() < MEMBERS => {
                            setup.members[slots.len()] = member_setup(process, request);
                            slots.push(Slot {
                                process,
                                member: member.clone(),
                                gone: false,
                            });
                            history.push(vec![member.clone()]);
                            slots.len() - 1
                        }
                        None => {
                            folded_members.insert(member.clone());
                            folded += 1;
                            continue;
                        }
                    };
                    slot_of.insert(member.clone(), slot);
                    slot
                }
            };
            let target_ms = beat.at_ms - start_ms;
            while clock_ms < target_ms {
                let step = (target_ms - clock_ms).min(u64::from(MAX_ADVANCE_MS - 1));
                operations.push(Operation::Advance { ms: step as u16 });
                clock_ms += step;
            }
            let pool_member = slot as u8;
            operations.push(match request.member_epoch {
                0 => Operation::Join {
                    member: pool_member,
                },
                -1 => Operation::Leave {
                    member: pool_member,
                },
                -2 => Operation::StaticLeave {
                    member: pool_member,
                },
                _ if request.shutdown_application => Operation::Shutdown {
                    member: pool_member,
                },
                _ => Operation::Heartbeat {
                    member: pool_member,
                },
            });
            if request.member_epoch < 0 {
                slots[slot].gone = true;
            } else if vanished_after.get(member) == Some(&index) {
                operations.push(Operation::Crash {
                    member: pool_member,
                });
                slots[slot].gone = true;
                crashes += 1;
            }
            debug_assert_eq!(slots[slot].member, *member);
        }
        // A slot whose real members sent null task lists after joining omits unchanged ones too.
        for (slot, members) in history.iter().enumerate() {
            setup.members[slot].omits_unchanged_tasks = beats.iter().any(|beat| {
                beat.request.member_epoch > 0
                    && beat.request.active_tasks.is_none()
                    && members.contains(&beat.request.member_id)
            });
        }
        let input = RunInput { setup, operations };
        input.setup.validate()?;
        Ok(LiveRun {
            input,
            slots: history,
            folded,
            describes,
            crashes,
        })
    }
}

/// For each member that vanished without leaving, the index of its last heartbeat: the trace
/// goes on for more than [`SILENT_INTERVALS`] of its heartbeat intervals after it.
fn vanishing_points(beats: &[Beat]) -> BTreeMap<String, usize> {
    let mut last: BTreeMap<&str, usize> = BTreeMap::new();
    let mut interval: BTreeMap<&str, u64> = BTreeMap::new();
    for (index, beat) in beats.iter().enumerate() {
        last.insert(&beat.request.member_id, index);
        if let Some(ms) = beat.interval_ms {
            interval.insert(&beat.request.member_id, ms);
        }
    }
    let end_ms = beats.last().map_or(0, |beat| beat.at_ms);
    last.into_iter()
        .filter(|(member, index)| {
            let beat = &beats[*index];
            let silent_ms =
                SILENT_INTERVALS * interval.get(member).copied().unwrap_or(DEFAULT_INTERVAL_MS);
            beat.request.member_epoch >= 0 && end_ms - beat.at_ms > silent_ms
        })
        .map(|(member, index)| (member.to_owned(), index))
        .collect()
}

/// A member's settings from its first request: its process, a static instance id, an endpoint,
/// a rack (racks folded onto the pool's two) and a `zone` client tag.
fn member_setup(process: usize, request: &StreamsGroupHeartbeatRequest) -> MemberSetup {
    let small = |text: &str| (text.bytes().map(u32::from).sum::<u32>() % 2) as u8;
    MemberSetup {
        process: process as u8,
        static_member: request.instance_id.is_some(),
        endpoint: request.user_endpoint.is_some(),
        rack: request.rack_id.as_deref().map(small),
        zone: request
            .client_tags
            .iter()
            .flatten()
            .find(|tag| tag.key == "zone")
            .map(|tag| small(&tag.value)),
        // Set once its heartbeats are seen (see `from_live_trace`).
        omits_unchanged_tasks: false,
    }
}

/// The setup a real topology maps onto: its source topics (with the partition counts the trace
/// recorded), its subtopologies in order, each reading at most the previous one's repartition
/// topic, and the group configs the trace recorded.
fn setup_of(trace: &LiveTrace, topology: &Topology) -> Result<Setup, String> {
    let mut topic_names: Vec<&str> = Vec::new();
    let mut subtopologies = Vec::new();
    let mut previous_sinks: &[String] = &[];
    for subtopology in &topology.subtopologies {
        let id = &subtopology.subtopology_id;
        if !subtopology.source_topic_regex.is_empty() {
            return Err(format!(
                "subtopology {id} reads topics by pattern, which a run cannot express"
            ));
        }
        let mut sources = Vec::new();
        for topic in &subtopology.source_topics {
            let index = match topic_names.iter().position(|name| name == topic) {
                Some(index) => index,
                None => {
                    topic_names.push(topic);
                    topic_names.len() - 1
                }
            };
            sources.push(index);
        }
        let reads_repartition = !subtopology.repartition_source_topics.is_empty();
        if subtopology
            .repartition_source_topics
            .iter()
            .any(|topic| !previous_sinks.contains(&topic.name))
        {
            return Err(format!(
                "subtopology {id} reads a repartition topic the subtopology before it does not write; a run chains subtopologies in order"
            ));
        }
        subtopologies.push(SubtopologySetup {
            sources,
            reads_repartition,
            changelog: !subtopology.state_changelog_topics.is_empty(),
            copartitioned: !subtopology.copartition_groups.is_empty(),
        });
        previous_sinks = &subtopology.repartition_sink_topics;
    }
    let topics = topic_names
        .iter()
        .map(|name| {
            trace
                .topics
                .iter()
                .find(|seen| seen.topic == *name)
                .and_then(|seen| seen.partitions)
                .ok_or_else(|| format!("the trace recorded no partition count of topic {name}"))
        })
        .collect::<Result<Vec<i32>, String>>()?;
    let config = |name: &str| {
        trace
            .group_configs
            .iter()
            .rfind(|seen| seen.group == trace.group && seen.name == name)
            .map(|seen| seen.value.as_str())
    };
    let standby_replicas = match config(STANDBY_REPLICAS) {
        None => 0,
        Some(value) => value
            .parse()
            .map_err(|_| format!("{STANDBY_REPLICAS} is not a count: {value}"))?,
    };
    let setup = Setup {
        topics,
        subtopologies,
        standby_replicas,
        rack_aware_tags: config(RACK_AWARE_TAGS).is_some_and(|tags| !tags.is_empty()),
        ..Setup::default()
    };
    setup.validate()?;
    Ok(setup)
}
