//! "eventually: the group settles with every task owned once" on live traffic, judged once, when
//! the proxy stops, and only when its user declares that the groups are settled by then
//! (`streamspec proxy --settled-at-exit`): the proxy cannot know when faults stop otherwise.
//!
//! A group is judged from the last answers of the members still in it, by the oracle's own
//! condition for that case ([`oracle::judge_settled_members`]): a member that left, or whose
//! own answer said it is fenced or unknown, is out; so is one a later describe of the group did
//! not list (its session expired, as after a crash). A group none of whose members is still in
//! it is not judged: no member owns a task, so nothing shows whether the group settled. Nor is a
//! group whose topology the proxy never saw, or one of whose topics has no count yet: the tasks
//! are then unknown, and an unknown is never a pass.

use std::collections::BTreeMap;

use super::judge::{shown, GroupRecord, LiveViolation};
use crate::simulation::history::MemberView;
use crate::simulation::oracle;

/// What judging one group at the proxy's end found.
#[derive(Debug)]
pub enum Settlement {
    Settled,
    Unsettled(LiveViolation),
    /// Why the group was not judged.
    NotJudged(String),
}

/// Judges `group`, whose record is `record`, as settled with the topics' counts `partitions`.
pub fn settled_at_exit(
    group: &str,
    record: &GroupRecord,
    partitions: &BTreeMap<String, i32>,
) -> Settlement {
    let Some(topology) = &record.topology else {
        return Settlement::NotJudged(
            "no heartbeat that passed the proxy carried its topology".to_owned(),
        );
    };
    let task_counts = match super::topics::task_counts(topology, partitions) {
        Ok(counts) => counts,
        Err(topic) => {
            return Settlement::NotJudged(format!(
                "the partition count of topic {topic} is unknown (no Metadata or CreateTopics answer showed it)"
            ))
        }
    };
    let members: Vec<MemberView<'_>> = record
        .holdings
        .iter()
        .filter(|(id, _)| !expired(record, id))
        .map(|(id, holdings)| MemberView {
            id,
            // One process each: the condition does not tell processes apart.
            process: 0,
            live: true,
            holdings,
        })
        .collect();
    if members.is_empty() {
        return Settlement::NotJudged(
            "every member left, or was fenced or removed, before the proxy stopped".to_owned(),
        );
    }
    match oracle::judge_settled_members(&record.history, &members, &task_counts) {
        Ok(()) => Settlement::Settled,
        Err((property, found)) => {
            Settlement::Unsettled(shown(property, group, &record.history, found))
        }
    }
}

/// Whether `member` had left the group by its latest describe
/// ([`super::judge::LatestDescribe::left_by`]): with the times recorded such members are
/// forgotten when the describe passes; without them, only here.
fn expired(record: &GroupRecord, member: &str) -> bool {
    match (&record.described, record.last_heartbeat.get(member)) {
        (Some(describe), Some(last)) => describe.left_by(member, last),
        _ => false,
    }
}
