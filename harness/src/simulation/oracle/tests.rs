//! Each property firing on a hand-made bad exchange, describe or history.

use std::collections::{BTreeMap, BTreeSet};

use super::conditions::{epoch_order, targets_valid};
use super::*;
use crate::simulation::history::ExchangeView;
use crate::simulation::setup::Setup;
use streamspec_protocol::kafka::streams_group_describe_response::{
    self, Assignment, DescribedGroup, Member,
};
use streamspec_protocol::kafka::streams_group_heartbeat_request::Topology;
use streamspec_protocol::kafka::streams_group_heartbeat_response;
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

fn heartbeat(epoch: i32) -> StreamsGroupHeartbeatRequest {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("sim")
        .with_member_id("m0-0")
        .with_member_epoch(epoch)
}

fn event(request: StreamsGroupHeartbeatRequest, response: StreamsGroupHeartbeatResponse) -> Event {
    Event {
        operation: 1,
        now_ms: 0,
        member: request.member_id.clone(),
        request,
        response,
        delivered: true,
    }
}

/// The exchange properties of the last exchange of `history`, with 4 tasks in the topology.
fn judge(history: &[Event]) -> Result<(), (&'static Property, String)> {
    let setup = Setup::default();
    let counts = BTreeMap::from([("0".to_owned(), 4)]);
    let topology = Topology::default();
    let view = ExchangeView {
        history,
        setup: &setup,
        task_counts: &counts,
        topology: &topology,
        source_topic_missing: false,
    };
    judge_exchange(&view).map_err(|(property, found)| (property, found.detail))
}

/// What `response` to a heartbeat at epoch 1 of `m0-0` breaks.
fn breach(response: StreamsGroupHeartbeatResponse) -> (&'static Property, String) {
    judge(&[event(heartbeat(1), response)]).unwrap_err()
}

fn tasks(subtopology: &str, partitions: &[i32]) -> Vec<streams_group_describe_response::TaskIds> {
    vec![streams_group_describe_response::TaskIds::default()
        .with_subtopology_id(subtopology)
        .with_partitions(partitions.to_vec())]
}

fn member(id: &str, process: &str, epoch: i32, target: Assignment) -> Member {
    Member::default()
        .with_member_id(id)
        .with_process_id(process)
        .with_member_epoch(epoch)
        .with_target_assignment(target)
}

fn group(members: Vec<Member>) -> DescribedGroup {
    DescribedGroup::default()
        .with_group_id("sim")
        .with_group_epoch(3)
        .with_assignment_epoch(3)
        .with_members(members)
}

#[test]
fn the_list_names_each_property_once_in_judging_order() {
    let labels: BTreeSet<String> = PROPERTIES.iter().map(|p| p.label()).collect();
    assert_eq!(labels.len(), PROPERTIES.len());
    assert_eq!(invariants().count(), 15);
    assert_eq!(sometimes_properties().count(), 7);
    assert_eq!(ANSWERED.label(), "always: every request is answered");
    assert_eq!(
        SETTLES.label(),
        "eventually: the group settles with every task owned once"
    );
    assert_eq!(REVOCATION.label(), "sometimes: a task is revoked");
}

#[test]
fn a_failed_call_is_unanswered_unless_its_answer_does_not_decode() {
    let timeout = BackendError::Unsupported {
        operation: "sleep".to_owned(),
    };
    assert_eq!(failed_call(&timeout), &ANSWERED);
}

#[test]
fn a_divergence_fires_with_the_member_s_exchanges_and_the_others_last() {
    let other = |epoch| {
        event(
            heartbeat(epoch).with_member_id("m1-0"),
            StreamsGroupHeartbeatResponse::default(),
        )
    };
    let own = |epoch| event(heartbeat(epoch), StreamsGroupHeartbeatResponse::default());
    let history = [own(1), other(1), other(2), own(2)];
    assert_eq!(judge_answer(None, &history, Some("m0-0")), Ok(()));
    let divergence = crate::differential::Divergence {
        exchange: "StreamsGroupHeartbeat v1".to_owned(),
        request: "{}".to_owned(),
        at_ms: 7,
        differences: vec![crate::differential::compare::FieldDifference {
            path: ".errorCode".to_owned(),
            target: "110".to_owned(),
            reference: "25".to_owned(),
        }],
        rules: vec!["R21".to_owned()],
        table: "  * .errorCode  110  25\n".to_owned(),
        timing_sensitive: false,
    };
    let (property, found) =
        judge_answer(Some(divergence.clone()), &history, Some("m0-0")).unwrap_err();
    assert_eq!(property, &ANSWERS_EQUAL);
    assert_eq!(found.events, [0, 2, 3], "m0-0's exchanges and m1-0's last");
    assert_eq!(
        found.detail,
        "StreamsGroupHeartbeat v1 at 7 ms differs from the reference's in .errorCode (rules R21)\n  request {}\n  * .errorCode  110  25\n"
    );
    // After a describe, the last exchange of each member.
    let (_, found) = judge_answer(Some(divergence), &history, None).unwrap_err();
    assert_eq!(found.events, [2, 3]);
}

#[test]
fn error_codes_outside_the_set_fire() {
    let response = StreamsGroupHeartbeatResponse::default().with_error_code(7);
    assert_eq!(breach(response), (&ERROR_CODES, "error code 7".to_owned()));
}

#[test]
fn error_responses_that_are_not_bare_fire() {
    let response = StreamsGroupHeartbeatResponse::default()
        .with_error_code(ERROR_FENCED_MEMBER_EPOCH)
        .with_member_epoch(3);
    assert_eq!(breach(response).0, &BARE_ERRORS);
}

#[test]
fn a_member_id_not_echoed_fires() {
    let response = StreamsGroupHeartbeatResponse::default().with_member_id("other");
    assert_eq!(
        breach(response),
        (&MEMBER_ID_ECHOED, "other for m0-0".to_owned())
    );
}

#[test]
fn task_lists_sent_apart_or_missing_on_a_join_fire() {
    let lists = Some(vec![]);
    let one_list = StreamsGroupHeartbeatResponse::default()
        .with_member_id("m0-0")
        .with_active_tasks(lists.clone());
    assert_eq!(
        breach(one_list),
        (
            &TASK_LISTS_TOGETHER,
            "1 of 3 task lists in the answer to a heartbeat at epoch 1".to_owned()
        )
    );
    let join_without_lists = StreamsGroupHeartbeatResponse::default().with_member_id("m0-0");
    let (property, _) = judge(&[event(heartbeat(0), join_without_lists)]).unwrap_err();
    assert_eq!(property, &TASK_LISTS_TOGETHER);
    let all = StreamsGroupHeartbeatResponse::default()
        .with_member_id("m0-0")
        .with_active_tasks(lists.clone())
        .with_standby_tasks(lists.clone())
        .with_warmup_tasks(lists);
    assert_eq!(judge(&[event(heartbeat(0), all)]), Ok(()));
}

#[test]
fn tasks_outside_the_topology_fire() {
    let response = StreamsGroupHeartbeatResponse::default()
        .with_member_id("m0-0")
        .with_active_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![
            streams_group_heartbeat_response::TaskIds::default()
                .with_subtopology_id("0")
                .with_partitions(vec![4]),
        ]));
    assert_eq!(
        breach(response),
        (
            &TASKS_EXIST,
            "task 0_4; the subtopology has 4 tasks".to_owned()
        )
    );
}

#[test]
fn a_decreasing_epoch_fires_until_the_member_starts_over() {
    let answer = |epoch| {
        StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0-0")
            .with_member_epoch(epoch)
    };
    let mut history = vec![
        event(heartbeat(1), answer(9)),
        event(heartbeat(9), answer(2)),
    ];
    let setup = Setup::default();
    let counts = BTreeMap::new();
    let topology = Topology::default();
    let view = ExchangeView {
        history: &history,
        setup: &setup,
        task_counts: &counts,
        topology: &topology,
        source_topic_missing: false,
    };
    let (property, found) = judge_exchange(&view).unwrap_err();
    assert_eq!(property, &EPOCH_NEVER_DECREASES);
    assert_eq!(
        found,
        Found::new("m0-0 went from epoch 9 to 2".to_owned(), vec![0, 1])
    );
    // A fenced member starts over: its rejoin may be answered a lower epoch.
    history.insert(
        1,
        event(
            heartbeat(9),
            StreamsGroupHeartbeatResponse::default().with_error_code(ERROR_FENCED_MEMBER_EPOCH),
        ),
    );
    assert_eq!(judge(&history), Ok(()));
}

#[test]
fn a_member_ahead_of_the_assignment_epoch_fires() {
    let described = group(vec![member("m0-0", "p0", 4, Assignment::default())]);
    assert_eq!(
        epoch_order(&described).unwrap_err(),
        "m0-0 at 4 with assignment epoch 3 and group epoch 3"
    );
}

#[test]
fn two_active_targets_of_one_task_fire() {
    let target = Assignment::default().with_active_tasks(tasks("0", &[1]));
    let described = group(vec![
        member("m0-0", "p0", 3, target.clone()),
        member("m1-0", "p1", 3, target),
    ]);
    assert_eq!(
        targets_valid(&described, 0, |_| true, true).unwrap_err(),
        "task 0_1 is the target of m0-0 and m1-0"
    );
}

#[test]
fn a_standby_beside_its_active_fires() {
    let described = group(vec![
        member(
            "m0-0",
            "p0",
            3,
            Assignment::default().with_active_tasks(tasks("0", &[1])),
        ),
        member(
            "m1-0",
            "p0",
            3,
            Assignment::default().with_standby_tasks(tasks("0", &[1])),
        ),
        member("m2-0", "p1", 3, Assignment::default()),
    ]);
    assert_eq!(
        targets_valid(&described, 1, |_| true, true).unwrap_err(),
        "task 0_1 is active and standby on process p0"
    );
}

#[test]
fn too_many_or_stateless_standbys_fire() {
    let standby = Assignment::default().with_standby_tasks(tasks("0", &[1]));
    let described = group(vec![member("m0-0", "p0", 3, standby.clone())]);
    assert_eq!(
        targets_valid(&described, 1, |_| true, true).unwrap_err(),
        "task 0_1 has standbys on 1 processes; at most 0"
    );
    assert_eq!(
        targets_valid(&described, 1, |_| false, true).unwrap_err(),
        "m0-0 has a standby of stateless task 0_1"
    );
}

#[test]
fn a_target_of_a_topology_that_cannot_be_ready_fires() {
    let target = Assignment::default().with_active_tasks(tasks("0", &[0]));
    let described = group(vec![member("m0-0", "p0", 3, target)]);
    assert_eq!(
        targets_valid(&described, 0, |_| true, false).unwrap_err(),
        "m0-0 has a target while the topology cannot be ready"
    );
    assert_eq!(targets_valid(&described, 0, |_| true, true), Ok(()));
}

#[test]
fn sometimes_properties_count_the_exchanges_that_witness_them() {
    let fenced = event(
        heartbeat(3),
        StreamsGroupHeartbeatResponse::default().with_error_code(ERROR_FENCED_MEMBER_EPOCH),
    );
    let static_leave = event(
        heartbeat(-2),
        StreamsGroupHeartbeatResponse::default().with_member_epoch(-2),
    );
    // m0-0 joining as i1 takes another member's instance id; as i0, its own, it does not.
    let join_as = |instance: &str| {
        event(
            heartbeat(0).with_instance_id(Some(instance.to_owned())),
            StreamsGroupHeartbeatResponse::default().with_member_epoch(3),
        )
    };
    let mut coverage = Coverage::default();
    coverage.observe(&[
        fenced.clone(),
        static_leave,
        fenced,
        join_as("i1"),
        join_as("i0"),
    ]);
    coverage.add(&coverage.clone());
    let counts: Vec<(String, u64)> = coverage
        .counts()
        .map(|(property, count)| (property.name.to_owned(), count))
        .collect();
    assert_eq!(
        counts,
        [
            ("a task is revoked".to_owned(), 0),
            ("a member is fenced".to_owned(), 4),
            ("a member is unknown".to_owned(), 0),
            ("a standby is placed".to_owned(), 0),
            ("a static member leaves".to_owned(), 2),
            ("an instance id is taken".to_owned(), 2),
            ("the topology is not ready".to_owned(), 0),
        ]
    );
}

/// An answer at `epoch` from `member` to a heartbeat, with no task lists.
fn answered(member: &str, epoch: i32, error_code: i16) -> Event {
    let request = heartbeat(epoch).with_member_id(member);
    let response = StreamsGroupHeartbeatResponse::default()
        .with_error_code(error_code)
        .with_member_id(if error_code == 0 { member } else { "" })
        .with_member_epoch(if error_code == 0 { epoch } else { 0 });
    event(request, response)
}

fn holding(active: &[i32]) -> crate::simulation::history::Holdings {
    crate::simulation::history::Holdings {
        active: active.iter().map(|p| ("0".to_owned(), *p)).collect(),
        ..Default::default()
    }
}

/// What [`judge_settled_members`] says of members `(id, active tasks of subtopology 0)` whose
/// last answers are `history`, with 3 tasks in the topology.
fn settled_members_of(history: &[Event], members: &[(&str, &[i32])]) -> Result<(), String> {
    let holdings: Vec<_> = members.iter().map(|(_, active)| holding(active)).collect();
    let views: Vec<MemberView<'_>> = members
        .iter()
        .zip(&holdings)
        .map(|((id, _), holdings)| MemberView {
            id,
            process: 0,
            live: true,
            holdings,
        })
        .collect();
    let counts = BTreeMap::from([("0".to_owned(), 3)]);
    judge_settled_members(history, &views, &counts).map_err(|(property, found)| {
        assert_eq!(property, &SETTLES);
        format!("{} {:?}", found.detail, found.events)
    })
}

#[test]
fn members_at_one_epoch_owning_every_task_once_have_settled() {
    let history = [answered("a", 4, 0), answered("b", 4, 0)];
    assert_eq!(
        settled_members_of(&history, &[("a", &[0, 2]), ("b", &[1])]),
        Ok(())
    );
}

#[test]
fn a_task_owned_twice_or_by_no_one_or_beyond_the_topology_is_not_settled() {
    let history = [answered("a", 4, 0), answered("b", 4, 0)];
    assert_eq!(
        settled_members_of(&history, &[("a", &[0, 1]), ("b", &[1, 3])]),
        Err("members still in the group a, b: task 0_1 owned by a and b; no member owns 0_2; not in the topology: 0_3 [0, 1]".to_owned())
    );
}

#[test]
fn members_at_other_epochs_or_never_answered_have_not_settled() {
    // b's last answer is an error: its epoch is the one before, 3.
    let history = [
        answered("b", 3, 0),
        answered("a", 4, 0),
        answered("b", 4, ERROR_UNKNOWN_SERVER_ERROR),
    ];
    assert_eq!(
        settled_members_of(&history, &[("a", &[0, 1]), ("b", &[2])]),
        Err("members still in the group a, b: the members were last answered other epochs: a at 4, b at 3 [1, 2]".to_owned())
    );
    assert_eq!(
        settled_members_of(&history[2..], &[("b", &[0, 1, 2])]),
        Err("members still in the group b: the members were last answered other epochs: b at none [0]".to_owned())
    );
}

/// A Kafka answer that assigns tasks while the source topic is missing shows the known issue of
/// the kept configuration; the same answer with the topic there, or one revoking every task,
/// does not.
#[test]
fn tasks_assigned_while_the_source_topic_is_missing_show_the_kept_configuration_issue() {
    let setup = Setup::default();
    let counts = BTreeMap::from([("0".to_owned(), 2)]);
    let topology = Topology::default();
    let answer = |partitions: &[i32]| {
        StreamsGroupHeartbeatResponse::default()
            .with_member_id("m0-0")
            .with_member_epoch(3)
            .with_active_tasks(Some(vec![
                streams_group_heartbeat_response::TaskIds::default()
                    .with_subtopology_id("0")
                    .with_partitions(partitions.to_vec()),
            ]))
    };
    let shown = |response: StreamsGroupHeartbeatResponse, missing: bool| {
        let history = [event(heartbeat(2), response)];
        let view = ExchangeView {
            history: &history,
            setup: &setup,
            task_counts: &counts,
            topology: &topology,
            source_topic_missing: missing,
        };
        known_issue(&view).map(|issue| issue.id)
    };
    assert_eq!(
        shown(answer(&[0, 1]), true),
        Some("kafka-kept-configuration-of-deleted-topic")
    );
    assert_eq!(shown(answer(&[0, 1]), false), None);
    assert_eq!(shown(answer(&[]), true), None);
    assert_eq!(
        KAFKA_KEPT_CONFIGURATION_OF_DELETED_TOPIC.property.label(),
        SETTLES.label()
    );
}
