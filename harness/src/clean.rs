//! `streamspec clean`: finds what runs left on a broker (every topic, group config and ACL
//! resource whose name starts with [`NAME_PREFIX`]) and removes it.

use std::time::Duration;

use crate::kafka::KafkaTarget;
use crate::transport::TransportResult;
use crate::NAME_PREFIX;

/// What became of one kind of leftover.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Leftovers {
    /// `topics`, `group configs` or `ACLs`.
    pub kind: &'static str,
    /// What was found (and, unless a dry run, removed), one entry per name.
    pub found: Vec<String>,
    /// What could not be removed, each with why.
    pub failed: Vec<String>,
    /// Why this kind cannot exist on the target, when it cannot.
    pub absent_because: Option<&'static str>,
}

impl Leftovers {
    fn new(kind: &'static str) -> Leftovers {
        Leftovers {
            kind,
            ..Leftovers::default()
        }
    }

    /// One line for what was found, then one per failure.
    pub fn lines(&self, dry_run: bool) -> Vec<String> {
        let removed = self.found.len() - self.failed.len();
        let head = match (self.found.is_empty(), self.absent_because) {
            (true, Some(reason)) => format!("{}: none ({reason})", self.kind),
            (true, None) => format!("{}: none", self.kind),
            (false, _) if dry_run => format!(
                "{}: would remove {}: {}",
                self.kind,
                self.found.len(),
                self.found.join(", ")
            ),
            (false, _) => format!(
                "{}: removed {removed} of {}: {}",
                self.kind,
                self.found.len(),
                self.found.join(", ")
            ),
        };
        std::iter::once(head)
            .chain(
                self.failed
                    .iter()
                    .map(|failure| format!("{}: could not remove {failure}", self.kind)),
            )
            .collect()
    }
}

/// Lists, and unless `dry_run` removes, what runs left on the broker at `address` under `prefix`
/// (which starts with [`NAME_PREFIX`]; longer, it narrows the clean-up to one run): ACLs first
/// (they could stand in the way of the rest), then group configs, then topics. A failure to
/// remove one thing is recorded and the rest still tried; a failure to list is an error.
pub async fn clean(
    address: &str,
    prefix: &str,
    timeout: Duration,
    dry_run: bool,
) -> TransportResult<Vec<Leftovers>> {
    let mut kafka =
        KafkaTarget::connect(address, &format!("{NAME_PREFIX}clean"), timeout, 1).await?;

    let mut acls = Leftovers::new("ACLs");
    match kafka.acl_resources_with_prefix(prefix).await? {
        None => acls.absent_because = Some("the broker has no authorizer"),
        Some(resources) => {
            for resource in resources {
                acls.found.push(resource.to_string());
                if !dry_run {
                    if let Err(error) = kafka.remove_acls_on(&resource).await {
                        acls.failed.push(format!("{resource}: {error}"));
                    }
                }
            }
        }
    }

    let mut configs = Leftovers::new("group configs");
    for group in kafka.group_ids().await? {
        if !group.starts_with(prefix) {
            continue;
        }
        let names = kafka.group_config_overrides(&group).await?;
        if names.is_empty() {
            continue;
        }
        configs
            .found
            .push(format!("{group} ({})", names.join(", ")));
        if !dry_run {
            if let Err(error) = kafka.delete_group_configs(&group, &names).await {
                configs.failed.push(format!("{group}: {error}"));
            }
        }
    }

    let mut topics = Leftovers::new("topics");
    let mut names: Vec<String> = kafka
        .topic_names()
        .await?
        .into_iter()
        .filter(|name| name.starts_with(prefix))
        .collect();
    names.sort();
    for name in names {
        // One at a time, so that a failure names its topic.
        if !dry_run {
            if let Err(error) = kafka
                .delete_topics(std::slice::from_ref(&name), timeout)
                .await
            {
                topics.failed.push(format!("{name}: {error}"));
            }
        }
        topics.found.push(name);
    }
    Ok(vec![topics, configs, acls])
}

/// Which of `topics` and of `groups` the broker at `address` has: a run about to make the
/// topics would share them with whoever made them, and one joining such a group would find its
/// epochs and last assignment (Kafka keeps a streams group after its members leave), not a new
/// group. Each list sorted.
pub async fn names_in_use(
    address: &str,
    topics: &std::collections::BTreeSet<String>,
    groups: &std::collections::BTreeSet<String>,
    timeout: Duration,
) -> TransportResult<(Vec<String>, Vec<String>)> {
    let mut kafka =
        KafkaTarget::connect(address, &format!("{NAME_PREFIX}run-id-check"), timeout, 1).await?;
    let mut topics_in_use: Vec<String> = kafka
        .topic_names()
        .await?
        .into_iter()
        .filter(|name| topics.contains(name))
        .collect();
    topics_in_use.sort();
    // Sorted and each once already.
    let groups_in_use = kafka
        .group_ids()
        .await?
        .into_iter()
        .filter(|id| groups.contains(id))
        .collect();
    Ok((topics_in_use, groups_in_use))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_say_what_was_removed_and_what_failed() {
        let topics = Leftovers {
            kind: "topics",
            found: vec!["streamspec-a".to_owned(), "streamspec-b".to_owned()],
            failed: vec!["streamspec-b: deleting topics failed".to_owned()],
            absent_because: None,
        };
        assert_eq!(
            topics.lines(false),
            [
                "topics: removed 1 of 2: streamspec-a, streamspec-b",
                "topics: could not remove streamspec-b: deleting topics failed"
            ]
        );
        assert_eq!(
            topics.lines(true)[0],
            "topics: would remove 2: streamspec-a, streamspec-b"
        );
        let acls = Leftovers {
            absent_because: Some("the broker has no authorizer"),
            ..Leftovers::new("ACLs")
        };
        assert_eq!(
            acls.lines(false),
            ["ACLs: none (the broker has no authorizer)"]
        );
    }
}
