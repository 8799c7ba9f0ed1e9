//! Messages the size of busy groups, for the benchmarks: a steady heartbeat, a join with many
//! subtopologies and the describe response of a group with many members.

use super::{described_topology, member, sample, steady_all_nulls, Sample};
use crate::kafka::streams_group_describe_response as describe;
use crate::kafka::streams_group_heartbeat_request as hb_req;
use crate::AnyMessage;

/// A heartbeat of a member whose state did not change: every nullable field null (68 bytes).
pub fn steady_heartbeat() -> hb_req::StreamsGroupHeartbeatRequest {
    steady_all_nulls()
}

/// A join carrying a topology of `subtopologies` subtopologies, each with two source topics, a
/// changelog, a repartition sink and a repartition source.
pub fn join(subtopologies: usize) -> hb_req::StreamsGroupHeartbeatRequest {
    let subtopology = |index: usize| {
        hb_req::Subtopology::default()
            .with_subtopology_id(index.to_string())
            .with_source_topics(vec![format!("input-{index}-a"), format!("input-{index}-b")])
            .with_state_changelog_topics(vec![hb_req::TopicInfo::default()
                .with_name(format!("app-1-store-{index}-changelog"))
                .with_topic_configs(vec![hb_req::KeyValue::default()
                    .with_key("cleanup.policy")
                    .with_value("compact")])])
            .with_repartition_sink_topics(vec![format!("app-1-repartition-{}", index + 1)])
            .with_repartition_source_topics(vec![hb_req::TopicInfo::default()
                .with_name(format!("app-1-repartition-{index}"))
                .with_partitions(8)])
    };
    steady_heartbeat()
        .with_member_epoch(0)
        .with_rebalance_timeout_ms(300_000)
        .with_topology(Some(
            hb_req::Topology::default()
                .with_subtopologies((0..subtopologies).map(subtopology).collect()),
        ))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("9d1c2b3a-0000-4000-8000-00000000beef".into()))
}

/// The describe response of one stable group of `members` members, each owning three active
/// and three standby tasks, with its topology.
pub fn describe_group(members: usize) -> describe::StreamsGroupDescribeResponse {
    let member = |index: usize| {
        let first = 3 * index as i32;
        member(
            &format!("member-{index}"),
            8,
            &[first, first + 1, first + 2],
            &[first + 3, first + 4, first + 5],
        )
    };
    describe::StreamsGroupDescribeResponse::default().with_groups(vec![
        describe::DescribedGroup::default()
            .with_group_id("app-1")
            .with_group_state("Stable")
            .with_group_epoch(8)
            .with_assignment_epoch(8)
            .with_topology(Some(described_topology()))
            .with_members((0..members).map(member).collect()),
    ])
}

/// The benchmark messages, all at version 0.
pub fn all() -> Vec<Sample> {
    vec![
        sample(
            "hb_steady",
            0,
            AnyMessage::StreamsGroupHeartbeatRequest(steady_heartbeat()),
        ),
        sample(
            "hb_join_100_subtopologies",
            0,
            AnyMessage::StreamsGroupHeartbeatRequest(join(100)),
        ),
        sample(
            "describe_100_members",
            0,
            AnyMessage::StreamsGroupDescribeResponse(describe_group(100)),
        ),
    ]
}
