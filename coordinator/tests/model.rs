//! The reference coordinator against an abstract model of a group's membership, with
//! proptest-state-machine: the model knows only who is a member, the group epoch and the time of
//! each member's last accepted heartbeat, and from that predicts every answer's error code, the
//! epoch a joining member gets, and what a describe shows (spec 3.1 to 3.7, 4.6-3, 4.6-4).
//! `STREAMSPEC_CASES` and `STREAMSPEC_SEED` as for the other property tests.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use proptest_state_machine::{prop_state_machine, ReferenceStateMachine, StateMachineTest};
use streamspec_coordinator::{ClusterMetadata, Coordinator, CoordinatorConfig, RequestContext};
use streamspec_protocol::codes::{
    ERROR_FENCED_MEMBER_EPOCH, ERROR_GROUP_ID_NOT_FOUND, ERROR_UNKNOWN_MEMBER_ID,
};
use streamspec_protocol::fuzzing::{cases, root_seed};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, TaskIds, Topology};
use streamspec_protocol::kafka::{StreamsGroupDescribeRequest, StreamsGroupHeartbeatRequest};

const GROUP: &str = "g";
const MEMBERS: u8 = 4;
const SESSION_TIMEOUT_MS: u64 = 45_000;
/// Longer than the session timeout, so that a silent member is removed by its session only.
const REBALANCE_TIMEOUT_MS: i32 = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Transition {
    /// A member that is not in the group joins.
    Join(u8),
    /// A member heartbeats at its epoch, reporting what it owns.
    Heartbeat(u8),
    /// A member heartbeats at an epoch ahead of its own.
    AheadOfItsEpoch(u8),
    /// A member that is not in the group heartbeats as if it were.
    NotAMember(u8),
    /// The member leaves; a member not in the group tries to.
    Leave(u8),
    /// Time passes; silent members' sessions may expire.
    Advance(u64),
}

/// What the model says the last transition must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    Nothing,
    /// Accepted, with this member epoch (a join's), or any epoch up to the group epoch.
    Accepted {
        member_epoch: Option<i32>,
    },
    Refused(i16),
}

#[derive(Debug, Clone)]
struct Model {
    now_ms: u64,
    /// 0 while the group does not exist.
    group_epoch: i32,
    /// Members and the time of their last accepted heartbeat.
    members: BTreeMap<u8, u64>,
    expected: Expected,
}

struct MembershipModel;

impl ReferenceStateMachine for MembershipModel {
    type State = Model;
    type Transition = Transition;

    fn init_state() -> BoxedStrategy<Model> {
        Just(Model {
            now_ms: 0,
            group_epoch: 0,
            members: BTreeMap::new(),
            expected: Expected::Nothing,
        })
        .boxed()
    }

    fn transitions(state: &Model) -> BoxedStrategy<Transition> {
        let member = 0..MEMBERS;
        let joinable: Vec<u8> = (0..MEMBERS)
            .filter(|m| !state.members.contains_key(m))
            .collect();
        let join = if joinable.is_empty() {
            Just(Transition::Advance(1)).boxed()
        } else {
            proptest::sample::select(joinable)
                .prop_map(Transition::Join)
                .boxed()
        };
        // Time up to the earliest session deadline, and a millisecond short of it: the
        // boundaries where expiry must happen and must not.
        let to_deadline = state
            .members
            .values()
            .map(|last| (last + SESSION_TIMEOUT_MS).saturating_sub(state.now_ms))
            .min()
            .unwrap_or(SESSION_TIMEOUT_MS);
        let boundary = prop_oneof![
            Just(Transition::Advance(to_deadline)),
            Just(Transition::Advance(to_deadline.saturating_sub(1))),
        ];
        prop_oneof![
            2 => boundary,
            3 => join,
            6 => member.clone().prop_map(Transition::Heartbeat),
            1 => member.clone().prop_map(Transition::AheadOfItsEpoch),
            1 => member.clone().prop_map(Transition::NotAMember),
            2 => member.prop_map(Transition::Leave),
            2 => (0..60_000u64).prop_map(Transition::Advance),
        ]
        .boxed()
    }

    fn preconditions(state: &Model, transition: &Transition) -> bool {
        match transition {
            Transition::Join(m) => !state.members.contains_key(m),
            Transition::Heartbeat(m) | Transition::AheadOfItsEpoch(m) => {
                state.members.contains_key(m)
            }
            Transition::NotAMember(m) => !state.members.contains_key(m),
            Transition::Leave(_) | Transition::Advance(_) => true,
        }
    }

    fn apply(mut state: Model, transition: &Transition) -> Model {
        state.expected = match *transition {
            Transition::Join(m) => {
                // A new group starts at epoch 2 (Kafka 4.3+); every join bumps it (spec 3.1).
                state.group_epoch = if state.group_epoch == 0 {
                    2
                } else {
                    state.group_epoch + 1
                };
                state.members.insert(m, state.now_ms);
                Expected::Accepted {
                    member_epoch: Some(state.group_epoch),
                }
            }
            Transition::Heartbeat(m) => {
                state.members.insert(m, state.now_ms);
                Expected::Accepted { member_epoch: None }
            }
            // Spec 3.4: an epoch the member never had is fenced; the member stays.
            Transition::AheadOfItsEpoch(_) => Expected::Refused(ERROR_FENCED_MEMBER_EPOCH),
            Transition::NotAMember(_) | Transition::Leave(_) if state.group_epoch == 0 => {
                Expected::Refused(ERROR_GROUP_ID_NOT_FOUND)
            }
            Transition::NotAMember(_) => Expected::Refused(ERROR_UNKNOWN_MEMBER_ID),
            Transition::Leave(m) => {
                if state.members.remove(&m).is_some() {
                    state.group_epoch += 1;
                    Expected::Accepted {
                        member_epoch: Some(-1),
                    }
                } else {
                    Expected::Refused(ERROR_UNKNOWN_MEMBER_ID)
                }
            }
            Transition::Advance(ms) => {
                state.now_ms += ms;
                // Spec 3.7: each expired session removes its member and bumps the epoch.
                let now = state.now_ms;
                let expired: Vec<u8> = state
                    .members
                    .iter()
                    .filter(|(_, last)| **last + SESSION_TIMEOUT_MS <= now)
                    .map(|(m, _)| *m)
                    .collect();
                for m in expired {
                    state.members.remove(&m);
                    state.group_epoch += 1;
                }
                Expected::Nothing
            }
        };
        state
    }
}

/// The coordinator and what each simulated client knows: its epoch and its tasks.
struct System {
    coordinator: Coordinator,
    now_ms: u64,
    clients: BTreeMap<u8, (i32, Vec<TaskIds>)>,
}

struct CoordinatorMembership;

fn member_id(m: u8) -> String {
    format!("m{m}")
}

fn context() -> RequestContext {
    RequestContext::new("model", "/127.0.0.1")
}

impl StateMachineTest for CoordinatorMembership {
    type SystemUnderTest = System;
    type Reference = MembershipModel;

    fn init_test(_: &Model) -> System {
        let mut coordinator = Coordinator::new(CoordinatorConfig {
            initial_rebalance_delay_ms: 0,
            assignment_interval_ms: 0,
            session_timeout_ms: SESSION_TIMEOUT_MS,
            ..CoordinatorConfig::default()
        });
        coordinator.handle_metadata(ClusterMetadata::default().with_topic("in", 4));
        System {
            coordinator,
            now_ms: 0,
            clients: BTreeMap::new(),
        }
    }

    fn apply(mut system: System, model: &Model, transition: Transition) -> System {
        let base = |m: u8, epoch: i32| {
            StreamsGroupHeartbeatRequest::default()
                .with_group_id(GROUP)
                .with_member_id(member_id(m))
                .with_member_epoch(epoch)
        };
        let known = |system: &System, m: u8| system.clients.get(&m).cloned().unwrap_or_default();
        let request = match transition {
            Transition::Join(m) => base(m, 0)
                .with_rebalance_timeout_ms(REBALANCE_TIMEOUT_MS)
                .with_process_id(Some(format!("p{m}")))
                .with_topology(Some(Topology::default().with_subtopologies(vec![
                    Subtopology::default()
                        .with_subtopology_id("0")
                        .with_source_topics(vec!["in".to_owned()]),
                ])))
                .with_active_tasks(Some(vec![]))
                .with_standby_tasks(Some(vec![]))
                .with_warmup_tasks(Some(vec![])),
            Transition::Heartbeat(m) => {
                let (epoch, tasks) = known(&system, m);
                base(m, epoch)
                    .with_active_tasks(Some(tasks))
                    .with_standby_tasks(Some(vec![]))
                    .with_warmup_tasks(Some(vec![]))
            }
            Transition::AheadOfItsEpoch(m) => base(m, known(&system, m).0 + 1),
            Transition::NotAMember(m) => base(m, 1),
            Transition::Leave(m) => base(m, -1),
            Transition::Advance(ms) => {
                system.now_ms += ms;
                while let Some(deadline) = system
                    .coordinator
                    .next_deadline()
                    .filter(|deadline| *deadline <= system.now_ms)
                {
                    system.coordinator.handle_timeout(deadline);
                }
                system.clients.retain(|m, _| model.members.contains_key(m));
                return system;
            }
        };
        let (response, _) =
            system
                .coordinator
                .handle_heartbeat(system.now_ms, &context(), 1, &request);
        let m = match transition {
            Transition::Join(m)
            | Transition::Heartbeat(m)
            | Transition::AheadOfItsEpoch(m)
            | Transition::NotAMember(m)
            | Transition::Leave(m) => m,
            Transition::Advance(_) => unreachable!("answered above"),
        };
        match model.expected {
            Expected::Refused(code) => {
                assert_eq!(response.error_code, code, "{transition:?}: {response:?}")
            }
            Expected::Accepted { member_epoch } => {
                assert_eq!(response.error_code, 0, "{transition:?}: {response:?}");
                match member_epoch {
                    Some(epoch) => assert_eq!(response.member_epoch, epoch, "{transition:?}"),
                    None => {
                        // Spec 4.6-5 and 4.6-3: never backwards, never past the group.
                        let before = known(&system, m).0;
                        assert!(
                            (before..=model.group_epoch).contains(&response.member_epoch),
                            "{transition:?}: epoch {} outside {before}..={}",
                            response.member_epoch,
                            model.group_epoch
                        );
                    }
                }
                if response.member_epoch < 0 {
                    system.clients.remove(&m);
                } else {
                    let client = system.clients.entry(m).or_default();
                    client.0 = response.member_epoch;
                    if let Some(active) = response.active_tasks {
                        // A correct client gives revoked tasks up at once.
                        client.1 = active
                            .into_iter()
                            .map(|t| {
                                TaskIds::default()
                                    .with_subtopology_id(t.subtopology_id)
                                    .with_partitions(t.partitions)
                            })
                            .collect();
                    }
                }
            }
            Expected::Nothing => unreachable!("only time passing expects nothing"),
        }
        system
    }

    fn check_invariants(system: &System, model: &Model) {
        let described = system.coordinator.handle_describe(
            &context(),
            &StreamsGroupDescribeRequest::default().with_group_ids(vec![GROUP.to_owned()]),
        );
        let group = &described.groups[0];
        if model.group_epoch == 0 {
            assert_eq!(group.error_code, ERROR_GROUP_ID_NOT_FOUND);
            return;
        }
        assert_eq!(group.error_code, 0);
        assert_eq!(group.group_epoch, model.group_epoch, "group epoch");
        let members: BTreeSet<String> = group.members.iter().map(|m| m.member_id.clone()).collect();
        let expected: BTreeSet<String> = model.members.keys().map(|m| member_id(*m)).collect();
        assert_eq!(members, expected, "members");
        assert_eq!(
            group.group_state == "Empty",
            model.members.is_empty(),
            "state {}",
            group.group_state
        );
    }
}

prop_state_machine! {
    #![proptest_config(ProptestConfig {
        cases: cases(256),
        rng_seed: RngSeed::Fixed(root_seed()),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_coordinator_follows_the_membership_model(sequential 1..60 => CoordinatorMembership);
}
