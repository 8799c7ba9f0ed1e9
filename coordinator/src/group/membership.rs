//! Who is in a group: adding, replacing and removing members, static membership (spec 3.6), the
//! epoch check (spec 3.4), leaving (spec 3.5) and timeouts.

use std::collections::BTreeMap;

use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};

use super::member::{Member, MemberState, MetadataChange};
use super::Group;
use crate::context::{Effect, RemovalReason, RequestContext};
use crate::errors::ErrorAnswer;
use crate::tasks::TaskSets;

impl Group {
    /// The member holding static instance `instance`, if any.
    pub(super) fn static_member(&self, instance: &str) -> Option<&Member> {
        self.static_members
            .get(instance)
            .and_then(|id| self.members.get(id))
            .filter(|member| member.metadata.instance_id.as_deref() == Some(instance))
    }

    /// Adds a member that is not in the group, keeping the indexes.
    pub(super) fn put_member(&mut self, member: Member) {
        if let Some(instance) = &member.metadata.instance_id {
            self.static_members
                .insert(instance.clone(), member.id.clone());
        }
        self.holders.add_member(&member);
        let previous = self.members.insert(member.id.clone(), member);
        debug_assert!(previous.is_none(), "put_member adds, take_member removes");
    }

    /// Takes a member out, keeping the indexes.
    pub(super) fn take_member(&mut self, member_id: &str) -> Option<Member> {
        let member = self.members.remove(member_id)?;
        self.holders.remove_member(&member);
        if let Some(instance) = &member.metadata.instance_id {
            if self.static_members.get(instance).map(String::as_str) == Some(member_id) {
                self.static_members.remove(instance);
            }
        }
        Some(member)
    }

    /// Changes a member's tasks through `change`, keeping the task indexes: the cost follows the
    /// member's own tasks.
    pub(super) fn change_tasks<R>(
        &mut self,
        member_id: &str,
        change: impl FnOnce(&mut Member) -> R,
    ) -> R {
        let member = self
            .members
            .get_mut(member_id)
            .expect("a member of the group");
        self.holders.remove_member(member);
        let result = change(member);
        self.holders.add_member(member);
        result
    }

    /// Gives a member these tasks, keeping the task indexes. The indexes are left alone when the
    /// tasks stay as they were, as they do at every heartbeat of a member waiting for others to
    /// release its tasks.
    pub(super) fn set_tasks(
        &mut self,
        member_id: &str,
        assigned: TaskSets,
        pending_revocation: TaskSets,
    ) {
        let member = self
            .members
            .get_mut(member_id)
            .expect("a member of the group");
        if member.assigned == assigned && member.pending_revocation == pending_revocation {
            return;
        }
        self.holders.remove_member(member);
        member.assigned = assigned;
        member.pending_revocation = pending_revocation;
        self.holders.add_member(member);
    }

    /// Takes `request`'s member metadata up (spec 3.1 step 3); what changed. A change of what
    /// the indexes are keyed on (process, instance) takes the member out and puts it back.
    pub(super) fn update_metadata(
        &mut self,
        request: &StreamsGroupHeartbeatRequest,
        context: &RequestContext,
    ) -> MetadataChange {
        let member_id = request.member_id.as_str();
        let member = self
            .members
            .get_mut(member_id)
            .expect("a member of the group");
        if !member.metadata.rekeyed_by(request) {
            return member.metadata.update(request, context);
        }
        let mut member = self.take_member(member_id).expect("a member of the group");
        let changed = member.metadata.update(request, context);
        self.put_member(member);
        changed
    }

    /// Removes a member and bumps the epoch, as a leave does (spec 3.5).
    fn remove_member(&mut self, member_id: &str) {
        self.take_member(member_id);
        self.member_order.remove(member_id);
        self.targets.remove(member_id);
        self.bump();
        if self.members.is_empty() {
            // An empty group's target is empty at the new epoch (KAFKA-20442), and a shutdown
            // request is forgotten.
            self.assignment_epoch = self.epoch;
            self.shutdown_requested_by = None;
        }
    }

    pub(crate) fn expire(&mut self, now_ms: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        let expired: Vec<(String, RemovalReason)> = self
            .members
            .values()
            .filter_map(|member| {
                if member.session_deadline_ms <= now_ms {
                    Some((member.id.clone(), RemovalReason::SessionTimeout)) // R30
                } else if member
                    .rebalance_deadline_ms
                    .is_some_and(|deadline| deadline <= now_ms)
                {
                    Some((member.id.clone(), RemovalReason::RebalanceTimeout)) // R29
                } else {
                    None
                }
            })
            .collect();
        for (member_id, reason) in expired {
            self.remove_member(&member_id);
            effects.push(Effect::MemberRemoved {
                group_id: self.id.clone(),
                member_id,
                reason,
            });
        }
        effects
    }
}

/// R23, R24: the request's epoch against the stored one (spec 3.4).
pub(super) fn check_epoch(
    member: &Member,
    request_epoch: i32,
    owned: Option<&TaskSets>,
) -> Result<(), ErrorAnswer> {
    if request_epoch > member.epoch {
        return Err(ErrorAnswer::fenced_member_epoch(
            "greater",
            request_epoch,
            member.epoch,
        ));
    }
    if request_epoch < member.epoch {
        // A lost response is tolerated: the previous epoch, with owned tasks it was assigned.
        let tolerated = request_epoch == member.previous_epoch
            && owned.is_some_and(|owned| owned.minus(&member.assigned).is_empty());
        if !tolerated {
            return Err(ErrorAnswer::fenced_member_epoch(
                "smaller",
                request_epoch,
                member.epoch,
            ));
        }
    }
    Ok(())
}

/// The static-membership checks of a request carrying an instance id (spec 3.6).
pub(super) fn check_instance(
    group: &Group,
    request: &StreamsGroupHeartbeatRequest,
) -> Result<(), ErrorAnswer> {
    let Some(instance) = &request.instance_id else {
        return Ok(());
    };
    let holder = group.static_member(instance);
    match (request.member_epoch, holder) {
        (0, Some(holder)) if holder.epoch != -2 => Err(ErrorAnswer::unreleased_instance_id(
            &request.member_id,
            instance,
            &holder.id,
        )),
        (0, _) => Ok(()),
        (_, None) => Err(ErrorAnswer::unknown_instance_id(instance)),
        (_, Some(holder)) if holder.id != request.member_id => Err(
            ErrorAnswer::fenced_instance_id(&request.member_id, instance, &holder.id),
        ),
        _ => Ok(()),
    }
}

/// A leave: -1 removes the member, -2 (static) keeps it at epoch -2 (spec 3.5, R31, R49).
pub(super) fn leave(
    groups: &mut BTreeMap<String, Group>,
    request: &StreamsGroupHeartbeatRequest,
) -> Result<(StreamsGroupHeartbeatResponse, Vec<Effect>), ErrorAnswer> {
    let Some(group) = groups.get_mut(&request.group_id) else {
        return Err(ErrorAnswer::group_not_found(&request.group_id));
    };
    check_instance(group, request)?;
    if !group.members.contains_key(&request.member_id) {
        return Err(ErrorAnswer::unknown_member(request));
    }
    if request.shutdown_application && group.shutdown_requested_by.is_none() {
        group.shutdown_requested_by = Some(request.member_id.clone()); // R45
    }
    // A leave writes records, which commit what a refused heartbeat configured (R40).
    group.commit_configuration();
    if request.member_epoch == -1 {
        group.remove_member(&request.member_id);
    } else {
        group.change_tasks(&request.member_id, |member| {
            // Its previous epoch is kept, as Kafka 4.4.0 keeps it: a rejoin replaces the member
            // (spec 3.6).
            member.epoch = -2;
            member.pending_revocation = TaskSets::default();
            member.rebalance_deadline_ms = None;
            if member.state == MemberState::UnrevokedTasks {
                member.state = MemberState::Stable;
            }
        });
    }
    let response = StreamsGroupHeartbeatResponse::default()
        .with_member_id(request.member_id.clone())
        .with_member_epoch(request.member_epoch)
        .with_status(Some(Vec::new()));
    Ok((response, Vec::new()))
}
