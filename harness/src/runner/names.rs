//! The names a run gives the groups and topics it makes on a target.

use crate::NAME_PREFIX;

/// A name Kafka accepts for a topic or group, [`NAME_PREFIX`] then `parts`: letters, digits,
/// `.`, `_`, `-`.
pub(super) fn kafka_name(parts: &[&str]) -> String {
    let joined = parts.join("-");
    let legal: String = joined
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '.' || ch == '_' || ch == '-' {
                ch
            } else {
                '_'
            }
        })
        .collect();
    format!("{NAME_PREFIX}{legal}")
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_legal_kafka_names() {
        assert_eq!(
            kafka_name(&["r1", "R25 join/a"]),
            "streamspec-r1-R25_join_a"
        );
    }

    #[test]
    fn catalogue_names_start_with_the_prefix_and_fit_kafka() {
        // A run id as `check` makes it (milliseconds in hex), and room for the suffixes of the
        // internal topics a coordinator derives from the group id.
        const RUN_ID: &str = "19a2b3c4d5e";
        const INTERNAL_SUFFIX_ROOM: usize = 64;
        for scenario in crate::scenario::catalogue() {
            let group = kafka_name(&[RUN_ID, &scenario.name]);
            assert!(group.starts_with(NAME_PREFIX), "{group}");
            assert!(group.len() + INTERNAL_SUFFIX_ROOM <= 249, "{group}");
            for topic in &scenario.topics {
                let name = kafka_name(&[RUN_ID, &scenario.name, &topic.name]);
                assert!(name.starts_with(NAME_PREFIX), "{name}");
                assert!(name.len() <= 249, "{name}");
            }
        }
    }
}
