//! The simulated members: correct Streams clients, as far as the protocol goes, whose requests
//! the driver sends and whose beliefs about what they own the oracle judges.

use std::collections::BTreeSet;

use streamspec_protocol::kafka::streams_group_heartbeat_request::{
    Endpoint, KeyValue, TaskIds, Topology,
};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::history::{Holdings, MemberView, Task};
use super::setup::{Names, Setup};

/// The rebalance timeout members join with: short, so that clock advances reach it.
const REBALANCE_TIMEOUT_MS: i32 = 5_000;

/// A correct Streams client, as far as the protocol goes.
#[derive(Debug, Clone, Default)]
pub(super) struct SimMember {
    pub(super) index: usize,
    /// Counts restarts; a restarted process joins with a new member id.
    incarnation: u32,
    /// `m<index>-<incarnation>`, kept with the incarnation: the oracle reads it after every
    /// exchange.
    id: String,
    /// None while not a member (never joined, left, fenced, or crashed).
    pub(super) epoch: Option<i32>,
    /// What it believes it owns.
    pub(super) holdings: Holdings,
    /// What the coordinator last took from it as what it owns: the lists of its latest request
    /// answered without error that it saw; `None` after a request it saw no answer to, or an
    /// error (the client then reports in full again).
    pub(super) reported: Option<Holdings>,
    pub(super) crashed: bool,
    /// Left or crashed: the next join is a new process instance.
    pub(super) restart: bool,
    /// Which static instance id it joins with, `i<instance>`: its own index until it takes
    /// another member's (`Operation::TakeInstance`), which then gets this one.
    pub(super) instance: usize,
}

pub(super) fn task_lists(tasks: &BTreeSet<Task>) -> Vec<TaskIds> {
    // The set orders tasks by subtopology, then partition: a subtopology's tasks come together.
    let mut lists: Vec<TaskIds> = Vec::new();
    for (subtopology, partition) in tasks {
        match lists.last_mut() {
            Some(list) if list.subtopology_id == *subtopology => list.partitions.push(*partition),
            _ => lists.push(
                TaskIds::default()
                    .with_subtopology_id(subtopology.as_str())
                    .with_partitions(vec![*partition]),
            ),
        }
    }
    lists
}

impl SimMember {
    pub(super) fn new(index: usize) -> Self {
        SimMember {
            index,
            id: format!("m{index}-0"),
            instance: index,
            ..SimMember::default()
        }
    }

    pub(super) fn id(&self) -> &str {
        &self.id
    }

    /// A restarted process: its next join is a new instance, with a new member id.
    pub(super) fn next_incarnation(&mut self) {
        self.incarnation += 1;
        self.id = format!("m{}-{}", self.index, self.incarnation);
    }

    pub(super) fn forget(&mut self) {
        self.epoch = None;
        self.holdings = Holdings::default();
        self.reported = None;
    }

    pub(super) fn is_live(&self) -> bool {
        self.epoch.is_some() && !self.crashed
    }

    /// A heartbeat at `epoch` after the member joined: its task lists null where it omits what
    /// the coordinator already has (R26), else what it owns. Lists it omits are not built.
    pub(super) fn heartbeat(
        &self,
        group: &str,
        setup: &Setup,
        epoch: i32,
    ) -> StreamsGroupHeartbeatRequest {
        let mut request = self.without_tasks(group, setup, epoch);
        let unchanged = self.reported.as_ref() == Some(&self.holdings);
        if !(setup.members[self.index].omits_unchanged_tasks && unchanged) {
            self.report_tasks(&mut request);
        }
        request
    }

    /// A heartbeat at `epoch` reporting what the member owns.
    pub(super) fn request(
        &self,
        group: &str,
        setup: &Setup,
        epoch: i32,
    ) -> StreamsGroupHeartbeatRequest {
        let mut request = self.without_tasks(group, setup, epoch);
        self.report_tasks(&mut request);
        request
    }

    /// A heartbeat at `epoch` with null task lists. Field by field: a chain of `with_` moves the
    /// whole request at every step, and one is built for every exchange.
    fn without_tasks(
        &self,
        group: &str,
        setup: &Setup,
        epoch: i32,
    ) -> StreamsGroupHeartbeatRequest {
        let mut request = StreamsGroupHeartbeatRequest::default();
        request.group_id = group.to_owned();
        request.member_id.clone_from(&self.id);
        request.member_epoch = epoch;
        request.instance_id = self.instance_id(setup);
        request
    }

    /// Sets the request's task lists to what the member owns.
    fn report_tasks(&self, request: &mut StreamsGroupHeartbeatRequest) {
        request.active_tasks = Some(task_lists(&self.holdings.active));
        request.standby_tasks = Some(task_lists(&self.holdings.standby));
        request.warmup_tasks = Some(task_lists(&self.holdings.warmup));
    }

    pub(super) fn instance_id(&self, setup: &Setup) -> Option<String> {
        setup.members[self.index]
            .static_member
            .then(|| format!("i{}", self.instance))
    }

    pub(super) fn join_request(
        &self,
        names: &Names,
        setup: &Setup,
        topology: Topology,
    ) -> StreamsGroupHeartbeatRequest {
        let settings = &setup.members[self.index];
        self.request(&names.group, setup, 0)
            .with_rebalance_timeout_ms(REBALANCE_TIMEOUT_MS)
            .with_topology(Some(topology))
            .with_process_id(Some(format!("p{}", settings.process)))
            .with_rack_id(settings.rack.map(|rack| format!("rack{rack}")))
            .with_client_tags(settings.zone.map(|zone| {
                vec![KeyValue::default()
                    .with_key("zone")
                    .with_value(format!("z{zone}"))]
            }))
            .with_user_endpoint(settings.endpoint.then(|| {
                Endpoint::default()
                    .with_host(format!("h{}", self.index))
                    .with_port(9000 + self.index as u16)
            }))
    }

    /// What a correct client does with an answer ([`Holdings::apply`]); a member that forgot
    /// everything will rejoin.
    pub(super) fn apply(&mut self, response: &StreamsGroupHeartbeatResponse, left: bool) {
        self.reported = (response.error_code == 0).then(|| self.holdings.clone());
        if !self.holdings.apply(response, left) {
            self.forget();
            return;
        }
        if response.error_code == 0 {
            self.epoch = Some(response.member_epoch);
        }
    }

    /// The member as the oracle sees it.
    pub(super) fn view(&self, setup: &Setup) -> MemberView<'_> {
        MemberView {
            id: self.id(),
            process: setup.members[self.index].process,
            live: self.is_live(),
            holdings: &self.holdings,
        }
    }
}
