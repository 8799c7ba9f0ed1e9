//! The conditions of the oracle's properties: plain functions over the views the driver hands
//! over, each citing the rule it holds.

use std::collections::{BTreeMap, BTreeSet};

use streamspec_protocol::codes::{
    ERROR_COORDINATOR_LOAD_IN_PROGRESS, ERROR_COORDINATOR_NOT_AVAILABLE, ERROR_FENCED_INSTANCE_ID,
    ERROR_FENCED_MEMBER_EPOCH, ERROR_GROUP_AUTHORIZATION_FAILED, ERROR_GROUP_ID_NOT_FOUND,
    ERROR_GROUP_MAX_SIZE_REACHED, ERROR_INVALID_REQUEST, ERROR_NOT_COORDINATOR,
    ERROR_STREAMS_INVALID_TOPOLOGY, ERROR_TOPIC_AUTHORIZATION_FAILED, ERROR_UNKNOWN_MEMBER_ID,
    ERROR_UNKNOWN_SERVER_ERROR, ERROR_UNRELEASED_INSTANCE_ID, ERROR_UNSUPPORTED_VERSION,
    GROUP_STATE_EMPTY, GROUP_STATE_NOT_READY, GROUP_STATE_STABLE,
};
use streamspec_protocol::kafka::streams_group_describe_response::DescribedGroup;

use super::{Found, TracePair};
use crate::simulation::history::{
    described_tasks, first_difference, last_events_of, previous_holder_join, response_task_refs,
    trace_hash, Event, ExchangeView, GroupView, MemberView, Task, TaskRef,
};

/// Error codes StreamsGroupHeartbeat may carry (spec 2.4).
const ALLOWED_ERRORS: [i16; 15] = [
    ERROR_UNKNOWN_SERVER_ERROR,
    ERROR_COORDINATOR_LOAD_IN_PROGRESS,
    ERROR_COORDINATOR_NOT_AVAILABLE,
    ERROR_NOT_COORDINATOR,
    ERROR_UNKNOWN_MEMBER_ID,
    ERROR_TOPIC_AUTHORIZATION_FAILED,
    ERROR_GROUP_AUTHORIZATION_FAILED,
    ERROR_UNSUPPORTED_VERSION,
    ERROR_INVALID_REQUEST,
    ERROR_GROUP_ID_NOT_FOUND,
    ERROR_GROUP_MAX_SIZE_REACHED,
    ERROR_FENCED_INSTANCE_ID,
    ERROR_FENCED_MEMBER_EPOCH,
    ERROR_UNRELEASED_INSTANCE_ID,
    ERROR_STREAMS_INVALID_TOPOLOGY,
];

/// A breach shown by the exchange judged alone.
pub(super) fn here(view: &ExchangeView<'_>, detail: String) -> Found {
    Found::new(detail, vec![view.at()])
}

/// A breach of the group seen after the latest exchange.
pub(super) fn on_last(view: &GroupView<'_>, detail: String) -> Found {
    Found::new(detail, vec![view.history.len().saturating_sub(1)])
}

/// Spec 2.4: the answer's error code is one the RPC defines.
pub(super) fn error_codes(view: &ExchangeView<'_>) -> Result<(), Found> {
    let code = view.event().response.error_code;
    if code != 0 && !ALLOWED_ERRORS.contains(&code) {
        return Err(here(view, format!("error code {code}")));
    }
    Ok(())
}

/// Spec 2.2: an error answer carries no member id, epoch, task lists or endpoints.
pub(super) fn bare_errors(view: &ExchangeView<'_>) -> Result<(), Found> {
    let response = &view.event().response;
    let bare = response.member_id.is_empty()
        && response.member_epoch == 0
        && response.active_tasks.is_none()
        && response.standby_tasks.is_none()
        && response.warmup_tasks.is_none()
        && response.partitions_by_user_endpoint.is_none();
    if response.error_code != 0 && !bare {
        return Err(here(view, format!("{response:?}")));
    }
    Ok(())
}

/// Spec 7.1: a successful answer to a member names that member.
pub(super) fn member_id_echoed(view: &ExchangeView<'_>) -> Result<(), Found> {
    let Event {
        request, response, ..
    } = view.event();
    if response.error_code == 0
        && request.member_epoch >= 0
        && response.member_id != request.member_id
    {
        let detail = format!("{} for {}", response.member_id, request.member_id);
        return Err(here(view, detail));
    }
    Ok(())
}

/// Spec 7.1, 7.3: null means unchanged, so the three lists change together, and a join always
/// gets them.
pub(super) fn task_lists_together(view: &ExchangeView<'_>) -> Result<(), Found> {
    let Event {
        request, response, ..
    } = view.event();
    if response.error_code != 0 {
        return Ok(());
    }
    let present = [
        &response.active_tasks,
        &response.standby_tasks,
        &response.warmup_tasks,
    ]
    .iter()
    .filter(|list| list.is_some())
    .count();
    if (present != 0 && present != 3) || (request.member_epoch == 0 && present == 0) {
        let detail = format!(
            "{present} of 3 task lists in the answer to a heartbeat at epoch {}",
            request.member_epoch
        );
        return Err(here(view, detail));
    }
    Ok(())
}

/// Spec 4.6-8: every task in a successful answer is one of the topology's.
pub(super) fn tasks_exist(view: &ExchangeView<'_>) -> Result<(), Found> {
    let response = &view.event().response;
    if response.error_code != 0 {
        return Ok(());
    }
    let lists = [
        &response.active_tasks,
        &response.standby_tasks,
        &response.warmup_tasks,
    ];
    for (subtopology, partition) in lists
        .into_iter()
        .flatten()
        .flat_map(|lists| response_task_refs(lists))
    {
        let tasks = view.task_counts.get(subtopology).copied().unwrap_or(0);
        if partition < 0 || partition >= tasks {
            let detail =
                format!("task {subtopology}_{partition}; the subtopology has {tasks} tasks");
            return Err(here(view, detail));
        }
    }
    Ok(())
}

/// The epoch `member` was last answered while a member, and that exchange, from the exchanges of
/// `history`: none once it was fenced, found unknown or left, as its epoch then starts over.
pub(super) fn last_epoch(history: &[Event], member: &str) -> Option<(i32, usize)> {
    for (at, event) in history.iter().enumerate().rev() {
        if event.member != member {
            continue;
        }
        let code = event.response.error_code;
        if event.request.member_epoch < 0
            || matches!(code, ERROR_UNKNOWN_MEMBER_ID | ERROR_FENCED_MEMBER_EPOCH)
        {
            return None;
        }
        if code == 0 {
            return Some((event.response.member_epoch, at));
        }
    }
    None
}

/// Spec 4.6-5: while a member stays one, the epochs it is answered never decrease.
pub(super) fn epoch_never_decreases(view: &ExchangeView<'_>) -> Result<(), Found> {
    let event = view.event();
    if event.response.error_code != 0 || event.request.member_epoch < 0 {
        return Ok(());
    }
    let this = view.at();
    match last_epoch(&view.history[..this], &event.member) {
        Some((previous, at)) if event.response.member_epoch < previous => Err(Found::new(
            format!(
                "{} went from epoch {previous} to {}",
                event.member, event.response.member_epoch
            ),
            vec![at, this],
        )),
        _ => Ok(()),
    }
}

/// Spec 4.6-3: member epoch <= assignment epoch <= group epoch, on a describe.
pub(super) fn epoch_order(group: &DescribedGroup) -> Result<(), String> {
    if group.error_code != 0 {
        return Ok(());
    }
    for member in &group.members {
        let in_order = group.assignment_epoch <= group.group_epoch
            && (member.member_epoch < 0 || member.member_epoch <= group.assignment_epoch);
        if !in_order {
            return Err(format!(
                "{} at {} with assignment epoch {} and group epoch {}",
                member.member_id, member.member_epoch, group.assignment_epoch, group.group_epoch
            ));
        }
    }
    Ok(())
}

/// [`targets_valid`] on the group after an exchange. A coordinator sees topics created or
/// deleted only at a later heartbeat, so only the setup's lasting reason for a topology that
/// cannot be ready binds at every instant.
pub(super) fn targets_valid_now(view: &GroupView<'_>) -> Result<(), Found> {
    let setup = view.setup;
    targets_valid(
        view.group,
        usize::from(setup.standby_replicas),
        |id| setup.is_stateful(id),
        setup.is_ready(),
    )
    .map_err(|detail| on_last(view, detail))
}

/// Spec 5.5, 6: the target assignment on a describe keeps the assignor's guarantees: one active
/// owner per task, no task in two roles on one process, at most min(standby replicas,
/// processes - 1) standbys and none for stateless subtopologies, and empty targets while the
/// topology cannot be ready.
pub(super) fn targets_valid(
    group: &DescribedGroup,
    standby_replicas: usize,
    is_stateful: impl Fn(&str) -> bool,
    ready: bool,
) -> Result<(), String> {
    if group.error_code != 0 {
        return Ok(());
    }
    let mut processes: Vec<&str> = group
        .members
        .iter()
        .map(|m| m.process_id.as_str())
        .collect();
    processes.sort_unstable();
    processes.dedup();
    // The count of processes is that of the target's epoch only while no member came or went
    // since: a leave bumps the group epoch, and the next heartbeat computes a new target.
    let current = group.assignment_epoch == group.group_epoch;
    let mut numbers = SubtopologyNumbers::default();
    let mut active_owner: Vec<((usize, i32), &str)> = Vec::new();
    // Each standby target's task and process; sorted below (the oracle checks after every
    // exchange, and sorting a vector costs less than building a map of sets).
    let mut standbys: Vec<(TaskRef<'_>, &str)> = Vec::new();
    // Each member's active targets, read once and looked at again below.
    let mut actives: Vec<Vec<TaskRef<'_>>> = Vec::with_capacity(group.members.len());
    for member in &group.members {
        let target = &member.target_assignment;
        let active = described_tasks(&target.active_tasks);
        let has_target = !active.is_empty()
            || [&target.standby_tasks, &target.warmup_tasks]
                .into_iter()
                .flatten()
                .any(|list| !list.partitions.is_empty());
        if current && !ready && has_target {
            return Err(format!(
                "{} has a target while the topology cannot be ready",
                member.member_id
            ));
        }
        for &task in &active {
            active_owner.push((numbers.task(task), member.member_id.as_str()));
        }
        for task in described_tasks(&target.standby_tasks) {
            if !is_stateful(task.0) {
                return Err(format!(
                    "{} has a standby of stateless task {}_{}",
                    member.member_id, task.0, task.1
                ));
            }
            standbys.push((task, &member.process_id));
        }
        actives.push(active);
    }
    if let Some((task, other, member)) = first_repeat(active_owner) {
        return Err(format!(
            "task {}_{} is the target of {other} and {member}",
            numbers.name(task.0),
            task.1
        ));
    }
    standbys.sort_unstable();
    standbys.dedup();
    let allowed = standby_replicas.min(processes.len().saturating_sub(1));
    // The processes of one task, in task order.
    for on in standbys.chunk_by(|a, b| a.0 == b.0).filter(|_| current) {
        if on.len() > allowed {
            let task = on[0].0;
            return Err(format!(
                "task {}_{} has standbys on {} processes; at most {allowed}",
                task.0,
                task.1,
                on.len()
            ));
        }
    }
    for (member, active) in group.members.iter().zip(&actives) {
        for task in active {
            if standbys
                .binary_search(&(*task, member.process_id.as_str()))
                .is_ok()
            {
                return Err(format!(
                    "task {}_{} is active and standby on process {}",
                    task.0, task.1, member.process_id
                ));
            }
        }
    }
    Ok(())
}

/// The simulated members the coordinator counts as members of the group. A member the
/// coordinator removed (its session expired) may still believe it owns tasks until its next
/// heartbeat is refused; such a zombie is fenced, so only members of the group count.
pub(super) fn in_group<'v, 'a>(view: &'v GroupView<'a>) -> Vec<&'v MemberView<'a>> {
    let mut ids: Vec<&str> = if view.group.error_code == 0 {
        view.group
            .members
            .iter()
            .map(|m| m.member_id.as_str())
            .collect()
    } else {
        Vec::new()
    };
    ids.sort_unstable();
    view.members
        .iter()
        .filter(|member| ids.binary_search(&member.id).is_ok())
        .collect()
}

/// Spec 4.6-1, R27, R28: no two members of the group believe they own one active task.
pub(super) fn one_active_owner(view: &GroupView<'_>) -> Result<(), Found> {
    let mut numbers = SubtopologyNumbers::default();
    let mut owners = Vec::new();
    for member in in_group(view) {
        for (subtopology, partition) in &member.holdings.active {
            owners.push((numbers.task((subtopology, *partition)), member.id));
        }
    }
    match first_repeat(owners) {
        None => Ok(()),
        Some((task, other, member)) => {
            let detail = format!(
                "task {}_{} owned by {other} and {member}",
                numbers.name(task.0),
                task.1
            );
            let events = last_events_of(view.history, &[other, member]);
            Err(Found::new(detail, events))
        }
    }
}

/// Subtopology ids as small numbers, in the order first met, so that tasks sort as integers:
/// which key repeats first does not depend on the keys' order, and comparing the ids as strings
/// was most of the time of sorting a group's tasks after every exchange. A group has few
/// subtopologies, so a list is searched.
#[derive(Default)]
struct SubtopologyNumbers<'a>(Vec<&'a str>);

impl<'a> SubtopologyNumbers<'a> {
    fn task(&mut self, (subtopology, partition): TaskRef<'a>) -> (usize, i32) {
        let number = match self.0.iter().position(|known| *known == subtopology) {
            Some(number) => number,
            None => {
                self.0.push(subtopology);
                self.0.len() - 1
            }
        };
        (number, partition)
    }

    fn name(&self, number: usize) -> &'a str {
        self.0[number]
    }
}

/// The first key of `pairs` met a second time, with the values of its first and second
/// meetings: what inserting the pairs into a map in order finds first, without the map (the
/// oracle checks this after every exchange). Ties of sorting keep the pairs' order.
fn first_repeat<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> Option<(K, V, V)> {
    let mut pairs: Vec<(K, usize, V)> = pairs
        .into_iter()
        .enumerate()
        .map(|(index, (key, value))| (key, index, value))
        .collect();
    pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    // A pair whose key the pair before it has is a repeat; the earliest met is the first.
    let second = (1..pairs.len())
        .filter(|&i| pairs[i].0 == pairs[i - 1].0)
        .min_by_key(|&i| pairs[i].1)?;
    let mut pairs = pairs.into_iter().skip(second - 1);
    let (key, _, first) = pairs.next()?;
    let (_, _, repeat) = pairs.next()?;
    Some((key, first, repeat))
}

/// Spec 4.6-2: no process holds a task as active and as standby or warm-up at once, except
/// where a take of a static instance put it so: Kafka copies a released static member's tasks
/// to the member taking its instance whatever the taker's process holds (spec 3.6), and each keeps
/// its role until task lists take it away (a lost answer or null lists leave them as they were,
/// spec 7.3), which may be long after: the taker keeps a copied active task until a later target
/// moves it, and the other member is sent lists that keep its standby meanwhile (Kafka 4.4.0 and
/// the reference alike).
pub(super) fn roles_apart(view: &GroupView<'_>) -> Result<(), Found> {
    let members = in_group(view);
    for member in &members {
        for other in members
            .iter()
            .filter(|other| other.process == member.process)
        {
            let conflict = member.holdings.active.iter().find(|task| {
                let in_two_roles =
                    other.holdings.standby.contains(*task) || other.holdings.warmup.contains(*task);
                let task = (task.0.as_str(), task.1);
                in_two_roles
                    && !taken_apart(view.history, (member.id, Role::Active), other.id, task)
                    && !taken_apart(view.history, (other.id, Role::Standby), member.id, task)
                    && !taken_in_a_lost_answer(view.history, member.id, Role::Active, task)
                    && !taken_in_a_lost_answer(view.history, other.id, Role::Standby, task)
            });
            let Some(task) = conflict else { continue };
            let detail = format!(
                "process p{}: task {}_{} active at {} and standby or warm-up at {}",
                member.process, task.0, task.1, member.id, other.id
            );
            let events = last_events_of(view.history, &[member.id, other.id]);
            return Err(Found::new(detail, events));
        }
    }
    Ok(())
}

/// A member's hold on a task: as active, or as standby or warm-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Active,
    Standby,
}

impl Role {
    fn other(self) -> Role {
        match self {
            Role::Active => Role::Standby,
            Role::Standby => Role::Active,
        }
    }
}

/// What an exchange did to its member's hold on `task` in `role`: `Some(true)` when the member
/// was sent lists holding it so, `Some(false)` when it lost it (lists without it, or it left or
/// was fenced or unknown), `None` when its holdings stayed as they were (a lost answer, another
/// error, null lists).
fn holds_after(event: &Event, role: Role, task: TaskRef<'_>) -> Option<bool> {
    event
        .delivered
        .then(|| answered_hold(event, role, task))
        .flatten()
}

/// What an answer says of its member's hold on `task` in `role`, whether or not the member saw
/// it: as [`holds_after`] of a delivered answer.
fn answered_hold(event: &Event, role: Role, task: TaskRef<'_>) -> Option<bool> {
    let response = &event.response;
    if event.request.member_epoch < 0
        || matches!(
            response.error_code,
            ERROR_UNKNOWN_MEMBER_ID | ERROR_FENCED_MEMBER_EPOCH
        )
    {
        return Some(false);
    }
    if response.error_code != 0 {
        return None;
    }
    let lists = match role {
        Role::Active => [response.active_tasks.as_ref(), None],
        Role::Standby => [
            response.standby_tasks.as_ref(),
            response.warmup_tasks.as_ref(),
        ],
    };
    let mut sent = lists.into_iter().flatten().peekable();
    sent.peek()?;
    Some(
        sent.flatten()
            .any(|list| list.subtopology_id == task.0 && list.partitions.contains(&task.1)),
    )
}

/// Whether `member` holds `task` in `role` only because it never saw the answer that took it
/// away: its latest answer saying anything of its tasks was lost, and did not hold the task so.
/// A standby or warm-up is gone from the coordinator's view at once, without waiting for the
/// member, and Kafka 4.4.0 need not send the lists again (R24), so the member's belief is stale,
/// not the coordinator's doing.
fn taken_in_a_lost_answer(history: &[Event], member: &str, role: Role, task: TaskRef<'_>) -> bool {
    (history.iter().rev())
        .filter(|event| event.member == member)
        .find_map(|event| answered_hold(event, role, task).map(|holds| (event.delivered, holds)))
        == Some((false, false))
}

/// Whether no exchange of `member` in `events` took its hold on `task` in `role` away.
fn kept(events: &[Event], member: &str, role: Role, task: TaskRef<'_>) -> bool {
    (events.iter())
        .filter(|event| event.member == member)
        .all(|event| holds_after(event, role, task) != Some(false))
}

/// Whether `taker` holds `task` in its role beside `other` holding it in the other role only
/// because a take put it so: a join of `taker` (accepted, epoch 0) naming a static instance
/// that another member held before gave it `task` in its role with the released member's
/// tasks, `other` held `task` in the other role then, and neither was sent lists taking it away
/// since. The take need not be across processes itself: a copy carries its tasks on to the
/// next member taking the instance (a take across processes, a release, then a take within the
/// taker's process).
fn taken_apart(
    history: &[Event],
    (taker, role): (&str, Role),
    other: &str,
    task: TaskRef<'_>,
) -> bool {
    let takes = (0..history.len()).filter(|&at| {
        let event = &history[at];
        event.member == taker
            && event.request.member_epoch == 0
            && event.response.error_code == 0
            && previous_holder_join(history, at).is_some()
    });
    takes.into_iter().any(|at| {
        let other_held = (history[..at].iter())
            .rev()
            .filter(|event| event.member == other)
            .find_map(|event| holds_after(event, role.other(), task))
            == Some(true);
        holds_after(&history[at], role, task) == Some(true)
            && kept(&history[at + 1..], taker, role, task)
            && other_held
            && kept(&history[at..], other, role.other(), task)
    })
}

/// Spec 4.6-7, 4.6-10: the group has settled: with no live member it is empty (or gone); while
/// the topology cannot be ready it is NotReady and assigns nothing; otherwise it is Stable with
/// every task assigned once, and the members know of them all (unless an answer was lost, when
/// Kafka 4.4 may never tell a member a task it gained, so the coordinator's assignment decides).
pub(super) fn settled(view: &GroupView<'_>) -> Result<(), String> {
    let group = view.group;
    let live: Vec<_> = view.members.iter().filter(|m| m.live).collect();
    if live.is_empty() {
        let settled = group.error_code != 0 || group.group_state == GROUP_STATE_EMPTY;
        return match settled {
            true => Ok(()),
            false => Err(format!(
                "no live member, yet the group is {}",
                group.group_state
            )),
        };
    }
    let assigned: Vec<TaskRef<'_>> = group
        .members
        .iter()
        .flat_map(|m| &m.assignment.active_tasks)
        .flat_map(|t| t.partitions.iter().map(|p| (t.subtopology_id.as_str(), *p)))
        .collect();
    if !view.ready_now {
        if group.group_state == GROUP_STATE_NOT_READY && assigned.is_empty() {
            return Ok(());
        }
        return Err(format!(
            "the topology cannot be ready, yet the group is {} with {} tasks assigned",
            group.group_state,
            assigned.len()
        ));
    }
    let expected: usize = view
        .setup
        .task_counts()
        .values()
        .map(|count| *count as usize)
        .sum();
    let distinct: BTreeSet<&TaskRef<'_>> = assigned.iter().collect();
    let known: usize = live.iter().map(|m| m.holdings.active.len()).sum();
    let settled = group.group_state == GROUP_STATE_STABLE
        && assigned.len() == expected
        && distinct.len() == expected
        && (view.lost_response || known == expected);
    if settled {
        return Ok(());
    }
    Err(format!(
        "the group is {} with {} of {expected} tasks assigned ({} distinct), the members know of {known}",
        group.group_state,
        assigned.len(),
        distinct.len()
    ))
}

/// Two runs of one input exchange the same bytes (names aside).
pub(super) fn same_trace(pair: &TracePair<'_>) -> Result<(), Found> {
    let first = trace_hash(pair.first, pair.first_prefix);
    let second = trace_hash(pair.second, pair.second_prefix);
    if first == second {
        return Ok(());
    }
    let differs = first_difference(
        pair.first,
        pair.first_prefix,
        pair.second,
        pair.second_prefix,
    );
    Err(Found::new(
        format!(
            "trace hashes {first:016x} and {second:016x} differ; first at exchange {}",
            differs.map_or("(one trace is longer)".to_owned(), |at| at.to_string())
        ),
        differs.into_iter().collect(),
    ))
}

/// Spec 4.6-7, 4.6-10: [`settled`] where no describe shows the coordinator's side, as on traffic
/// the harness did not drive once its user declares the faults over: `members` are the members
/// still in the group, and their last answers stand for the group. It has settled when they
/// were all last answered one epoch (in a Stable group every member is at the group's epoch) and
/// their active tasks hold every task of `task_counts` (tasks per subtopology) exactly once and
/// no other (what the members were told stands for what the coordinator assigned, and they know
/// of them all).
pub(super) fn settled_members(
    history: &[Event],
    members: &[MemberView<'_>],
    task_counts: &BTreeMap<String, i32>,
) -> Result<(), Found> {
    let mut problems = Vec::new();
    let epochs: BTreeMap<&str, Option<i32>> = members
        .iter()
        .map(|member| {
            let epoch = last_epoch(history, member.id).map(|(epoch, _)| epoch);
            (member.id, epoch)
        })
        .collect();
    let distinct: BTreeSet<Option<i32>> = epochs.values().copied().collect();
    if distinct.len() > 1 || distinct.contains(&None) {
        let each: Vec<String> = epochs
            .iter()
            .map(|(id, epoch)| match epoch {
                Some(epoch) => format!("{id} at {epoch}"),
                None => format!("{id} at none"),
            })
            .collect();
        problems.push(format!(
            "the members were last answered other epochs: {}",
            each.join(", ")
        ));
    }
    let mut owners: BTreeMap<&Task, Vec<&str>> = BTreeMap::new();
    for member in members {
        for task in &member.holdings.active {
            owners.entry(task).or_default().push(member.id);
        }
    }
    let name = |task: &Task| format!("{}_{}", task.0, task.1);
    for (task, by) in owners.iter().filter(|(_, by)| by.len() > 1) {
        problems.push(format!("task {} owned by {}", name(task), by.join(" and ")));
    }
    let expected: Vec<Task> = task_counts
        .iter()
        .flat_map(|(subtopology, count)| (0..*count).map(|p| (subtopology.clone(), p)))
        .collect();
    let unowned: Vec<String> = expected
        .iter()
        .filter(|task| !owners.contains_key(task))
        .map(name)
        .collect();
    if !unowned.is_empty() {
        problems.push(format!("no member owns {}", unowned.join(", ")));
    }
    let foreign: Vec<String> = owners
        .keys()
        .filter(|task| !expected.contains(task))
        .map(|task| name(task))
        .collect();
    if !foreign.is_empty() {
        problems.push(format!("not in the topology: {}", foreign.join(", ")));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let ids: Vec<&str> = members.iter().map(|member| member.id).collect();
    Err(Found::new(
        format!(
            "members still in the group {}: {}",
            ids.join(", "),
            problems.join("; ")
        ),
        last_events_of(history, &ids),
    ))
}

#[cfg(test)]
mod tests {
    use super::first_repeat;

    #[test]
    fn first_repeat_is_what_inserting_in_order_meets_first() {
        let pairs = [("a", 1), ("b", 2), ("c", 3), ("b", 4), ("a", 5), ("b", 6)];
        assert_eq!(first_repeat(pairs), Some(("b", 2, 4)));
        assert_eq!(
            first_repeat([("x", 1), ("x", 2), ("x", 3)]),
            Some(("x", 1, 2))
        );
        assert_eq!(
            first_repeat([("b", 1), ("a", 2), ("a", 3), ("b", 4)]),
            Some(("a", 2, 3))
        );
        assert_eq!(first_repeat([("a", 1), ("b", 2)]), None);
        assert_eq!(first_repeat(Vec::<(&str, i32)>::new()), None);
    }
}
