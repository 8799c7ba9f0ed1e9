//! What happens in a run: the [`Operation`]s (faults among them) and the [`RunInput`] that one
//! byte string decodes to, shared by fuzzers, proptest and seeded campaigns.

use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    CopartitionGroup, Subtopology, TopicInfo, Topology,
};
use streamspec_protocol::rng::{sub_seed, SplitMix64};

use super::setup::Setup;

/// The longest single clock advance, past the test broker's 6 s session timeout.
pub(super) const MAX_ADVANCE_MS: u16 = 8_192;
/// Partition counts a resize may grow a topic to.
pub(super) const MAX_RESIZE: u8 = 12;

/// One step of a run; faults are operations too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary, Serialize, Deserialize)]
pub enum Operation {
    /// The member joins: after a restart with a new member id, after being fenced with its old
    /// one, or, while still a member, as a fault.
    Join { member: u8 },
    /// A regular heartbeat reporting what the member owns.
    Heartbeat { member: u8 },
    /// The member leaves (-1), and restarts later with a new member id.
    Leave { member: u8 },
    /// A static member leaves to come back (-2); a dynamic one leaves as with `Leave`.
    StaticLeave { member: u8 },
    /// The process dies: it stops heartbeating and its tasks stop.
    Crash { member: u8 },
    /// Time passes (`ms` modulo 8192).
    Advance { ms: u16 },
    /// A source topic grows (metadata change).
    Resize { topic: u8, partitions: u8 },
    /// The member asks for an application shutdown.
    Shutdown { member: u8 },
    /// Fault: a heartbeat with an epoch one off the member's arrives: a delayed one, one below
    /// (R24), for `member` below 128; one above it (R23), for 128 and up. Either way the
    /// member never sees the answer.
    StaleEpoch { member: u8 },
    /// Fault: a heartbeat claiming, beside what the member owns, a task the topology lacks.
    BogusTask { member: u8 },
    /// Fault: the member sends a heartbeat but never sees the answer.
    DropResponse { member: u8 },
    /// Fault: a heartbeat is sent twice; the member sees the second answer.
    Duplicate { member: u8 },
    /// Fault: a heartbeat carries the topology, which only a join may (R10).
    TopologyOnHeartbeat { member: u8 },
    /// Fault: a member that is not in the group joins with a topology Kafka refuses: duplicate
    /// subtopology ids, a copartition index out of range, a changelog with a partition count, or
    /// an internal topic as source (spec 2.3, open question 9).
    InvalidJoin { member: u8, kind: u8 },
    /// A member that is not in the group joins with the topology at the next epoch, an upgrade
    /// Kafka 4.4 refuses while the group has members (R37).
    UpgradeTopology { member: u8 },
    /// The source topic missing since the start is created.
    CreateLateTopic,
    /// That topic is deleted again: the topology stops being ready (spec 5.5).
    DeleteLateTopic,
    /// A static member joins (epoch 0, after a restart with a new member id, or while still a
    /// member) with the instance id of another static member that is not live, of its process
    /// or another: a member released at -2 is replaced by it, its tasks and all (spec 3.6, R49);
    /// one that crashed and is still in the group refuses it (UNRELEASED_INSTANCE_ID). Taken,
    /// the two swap instance ids.
    TakeInstance { member: u8, of: u8 },
}

/// A run's input: what it sets up, then what happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunInput {
    pub setup: Setup,
    pub operations: Vec<Operation>,
}

/// The most operations a fuzzer's byte input runs; bytes past them are not read. libFuzzer grows
/// inputs up to its largest seed (32 KB, a captured application's history), thousands of
/// operations, each a heartbeat, a describe and the oracle's checks under AddressSanitizer, some
/// of them over the whole history so far; inputs that long ran a few a second. 256 is above a
/// campaign's 200 operations a run; seeds written as JSON run whole.
pub const MAX_FUZZ_OPERATIONS: usize = 256;

impl RunInput {
    /// A fuzzer's input: a run written as JSON (seeds made from scenarios), or else bytes as
    /// [`RunInput::from_bytes`] reads them, up to [`MAX_FUZZ_OPERATIONS`] operations.
    pub fn from_fuzz_input(data: &[u8]) -> RunInput {
        serde_json::from_slice::<RunInput>(data)
            .ok()
            .filter(|input| input.setup.validate().is_ok())
            .unwrap_or_else(|| RunInput::read(data, MAX_FUZZ_OPERATIONS))
    }

    /// The run that `data` encodes, all of its bytes used: fuzzers, proptest and campaigns share
    /// it. Short inputs fall back to defaults rather than being refused.
    pub fn from_bytes(data: &[u8]) -> RunInput {
        RunInput::read(data, usize::MAX)
    }

    /// The run that `data` encodes, its operations read until the bytes or `max_operations` run
    /// out.
    fn read(data: &[u8], max_operations: usize) -> RunInput {
        let mut input = Unstructured::new(data);
        let setup = Setup::arbitrary(&mut input).unwrap_or_default();
        let mut operations = Vec::new();
        while !input.is_empty() && operations.len() < max_operations {
            match input.arbitrary() {
                Ok(operation) => operations.push(operation),
                Err(_) => break,
            }
        }
        RunInput { setup, operations }
    }
}

/// The bytes of run `run` of a campaign seeded with `root_seed`: SplitMix64
/// ([`streamspec_protocol::rng`]), pinned so that a seed means the same runs everywhere.
pub fn run_bytes(root_seed: u64, run: u64, length: usize) -> Vec<u8> {
    SplitMix64::new(sub_seed(root_seed, run)).bytes(length)
}

/// `topology` made invalid in one of four ways Kafka refuses.
pub(super) fn invalid_topology(topology: &Topology, kind: u8) -> Topology {
    let mut invalid = topology.clone();
    let first = invalid.subtopologies[0].clone();
    match kind % 4 {
        0 => invalid.subtopologies.push(first),
        1 => {
            invalid.subtopologies[0].copartition_groups =
                vec![CopartitionGroup::default().with_source_topics(vec![7])]
        }
        2 => {
            invalid.subtopologies[0].state_changelog_topics = vec![TopicInfo::default()
                .with_name(format!("{}-invalid-changelog", first.subtopology_id))
                .with_partitions(3)]
        }
        _ => invalid.subtopologies.push(
            Subtopology::default()
                .with_subtopology_id("internal")
                .with_source_topics(vec!["__consumer_offsets".to_owned()]),
        ),
    }
    invalid
}
