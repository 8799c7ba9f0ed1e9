//! Group settings: the coordinator's own, with Kafka's defaults, and the group-level configs Kafka
//! 4.4.0 knows (spec 9.2) as one table: each config's name, how Kafka reads its value, and how the
//! value is checked against the broker's bounds and stored.

use std::collections::BTreeSet;

/// Group settings, with Apache Kafka's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordinatorConfig {
    pub session_timeout_ms: u64,
    /// How long a group that was empty waits before its first assignment (Kafka 4.2+).
    pub initial_rebalance_delay_ms: u64,
    /// The least time between two target assignments of a group (Kafka 4.3+).
    pub assignment_interval_ms: u64,
    pub heartbeat_interval_ms: i32,
    pub max_size: usize,
    pub num_standby_replicas: i32,
    pub acceptable_recovery_lag: i64,
    pub task_offset_interval_ms: i32,
    /// Client tag keys every member should report, for rack-aware standby placement (4.4).
    pub rack_aware_assignment_tags: Vec<String>,
    /// The broker's bounds on the group configs (min, max), and the most standby replicas.
    pub session_timeout_bounds_ms: (u64, u64),
    pub heartbeat_interval_bounds_ms: (u64, u64),
    pub assignment_interval_bounds_ms: (u64, u64),
    pub max_standby_replicas: i32,
    pub max_warmup_replicas: i32,
    pub min_task_offset_interval_ms: i32,
}

impl Default for CoordinatorConfig {
    fn default() -> Self {
        CoordinatorConfig {
            session_timeout_ms: 45_000,
            initial_rebalance_delay_ms: 3_000,
            assignment_interval_ms: 1_000,
            heartbeat_interval_ms: 5_000,
            max_size: i32::MAX as usize,
            num_standby_replicas: 0,
            acceptable_recovery_lag: 10_000,
            task_offset_interval_ms: 60_000,
            rack_aware_assignment_tags: Vec::new(),
            session_timeout_bounds_ms: (45_000, 60_000),
            heartbeat_interval_bounds_ms: (5_000, 15_000),
            assignment_interval_bounds_ms: (0, 15_000),
            max_standby_replicas: 2,
            max_warmup_replicas: 20,
            min_task_offset_interval_ms: 15_000,
        }
    }
}

/// A number read from a group config's value, for the config's own checks.
#[derive(Debug, Clone, Copy)]
struct Number<'a> {
    name: &'a str,
    value: i64,
}

impl Number<'_> {
    /// The number within the broker's bounds (min, max), inclusive.
    fn in_range(self, (min, max): (u64, u64)) -> Result<u64, String> {
        let unsigned = self.value as u64;
        if (min..=max).contains(&unsigned) {
            Ok(unsigned)
        } else {
            Err(format!(
                "{} must be in the range {min} to {max} inclusive.",
                self.name
            ))
        }
    }

    fn at_most(self, max: i32) -> Result<i32, String> {
        if self.value > i64::from(max) {
            Err(format!("{} must be less than or equal to {max}", self.name))
        } else {
            Ok(self.value as i32)
        }
    }
}

/// Checks a number against the broker's settings (the second config) and stores it in the
/// group's settings (the first).
type SetNumber = fn(Number<'_>, &mut CoordinatorConfig, &CoordinatorConfig) -> Result<(), String>;

/// How Kafka reads a group config's value before its own checks, and what the config does with
/// the value read.
enum Setting {
    /// A 32-bit number of at least `at_least`.
    Int { at_least: i64, set: SetNumber },
    /// A 64-bit number of at least `at_least`.
    Long { at_least: i64, set: SetNumber },
    /// `true` or `false` in any case; it changes nothing here.
    Boolean,
    /// Comma-separated names (trimmed, empty ones left out), given with the config's name.
    List(fn(&str, Vec<String>, &mut CoordinatorConfig) -> Result<(), String>),
    /// Text as the client sent it, given with the config's name.
    Text(fn(&str, &str) -> Result<(), String>),
}

/// One group config Kafka 4.4.0 knows.
struct GroupConfig {
    name: &'static str,
    setting: Setting,
}

/// The assignors a broker registers by default (`group.streams.assignors`).
const REGISTERED_ASSIGNORS: [&str; 1] = ["sticky"];

/// The group configs Kafka 4.4.0 knows (spec 9.2), with Kafka's messages for refused values
/// (scenarios R41-group-config-bounds and R41-group-config-bounds-message).
const GROUP_CONFIGS: [GroupConfig; 11] = [
    GroupConfig {
        name: "streams.session.timeout.ms",
        setting: Setting::Int {
            at_least: 1,
            set: |number, config, broker| {
                config.session_timeout_ms = number.in_range(broker.session_timeout_bounds_ms)?;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.heartbeat.interval.ms",
        setting: Setting::Int {
            at_least: 1,
            set: |number, config, broker| {
                config.heartbeat_interval_ms =
                    number.in_range(broker.heartbeat_interval_bounds_ms)? as i32;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.task.offset.interval.ms",
        setting: Setting::Int {
            at_least: 1,
            set: |number, config, broker| {
                if number.value < i64::from(broker.min_task_offset_interval_ms) {
                    return Err(format!(
                        "{} must be greater than or equal to {}",
                        number.name, broker.min_task_offset_interval_ms
                    ));
                }
                config.task_offset_interval_ms = number.value as i32;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.num.standby.replicas",
        setting: Setting::Int {
            at_least: 0,
            set: |number, config, broker| {
                config.num_standby_replicas = number.at_most(broker.max_standby_replicas)?;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.num.warmup.replicas",
        setting: Setting::Int {
            at_least: 0,
            // Checked, then unused: Kafka 4.4.0 assigns no warm-up tasks (its assignment refiner
            // returns the target it is given; scenario R12-no-warmup-tasks-assigned).
            set: |number, _, broker| number.at_most(broker.max_warmup_replicas).map(|_| ()),
        },
    },
    GroupConfig {
        name: "streams.initial.rebalance.delay.ms",
        setting: Setting::Int {
            at_least: 0,
            set: |number, config, _| {
                config.initial_rebalance_delay_ms = number.value as u64;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.assignment.interval.ms",
        setting: Setting::Int {
            at_least: 0,
            set: |number, config, broker| {
                config.assignment_interval_ms =
                    number.in_range(broker.assignment_interval_bounds_ms)?;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.acceptable.recovery.lag",
        setting: Setting::Long {
            at_least: 0,
            set: |number, config, _| {
                config.acceptable_recovery_lag = number.value;
                Ok(())
            },
        },
    },
    GroupConfig {
        name: "streams.assignor.offload.enable",
        // Offloading only moves the assignment to another thread in Kafka; nothing to do.
        setting: Setting::Boolean,
    },
    GroupConfig {
        name: "streams.rack.aware.assignment.tags",
        setting: Setting::List(|name, keys, config| {
            let distinct: BTreeSet<&String> = keys.iter().collect();
            if distinct.len() != keys.len() {
                return Err(format!("{name} must not contain duplicate tag keys."));
            }
            config.rack_aware_assignment_tags = keys;
            Ok(())
        }),
    },
    GroupConfig {
        name: "streams.assignor.name",
        setting: Setting::Text(|name, text| {
            if !REGISTERED_ASSIGNORS.contains(&text) {
                return Err(format!(
                    "{name} '{text}' is not a registered task assignor. Registered assignors are: [{}].",
                    REGISTERED_ASSIGNORS.join(", ")
                ));
            }
            Ok(())
        }),
    },
];

/// The names of the group configs Kafka 4.4.0 knows (spec 9.2), in table order.
pub const GROUP_CONFIG_NAMES: [&str; GROUP_CONFIGS.len()] = {
    let mut names = [""; GROUP_CONFIGS.len()];
    let mut index = 0;
    while index < names.len() {
        names[index] = GROUP_CONFIGS[index].name;
        index += 1;
    }
    names
};

impl GroupConfig {
    /// Reads `text` as the setting's type says, with Kafka's messages for a value of the wrong
    /// type or below the type's lower bound, then checks and stores it in `config`.
    fn set(
        &self,
        text: &str,
        config: &mut CoordinatorConfig,
        broker: &CoordinatorConfig,
    ) -> Result<(), String> {
        let name = self.name;
        let invalid =
            |reason: &str| format!("Invalid value {text} for configuration {name}: {reason}");
        let number = |type_name: &str, at_least: i64, parsed: Option<i64>| {
            let value =
                parsed.ok_or_else(|| invalid(&format!("Not a number of type {type_name}")))?;
            if value < at_least {
                return Err(format!(
                    "Invalid value {value} for configuration {name}: Value must be at least {at_least}"
                ));
            }
            Ok(Number { name, value })
        };
        let trimmed = text.trim();
        match self.setting {
            Setting::Int { at_least, set } => set(
                number("INT", at_least, trimmed.parse::<i32>().ok().map(i64::from))?,
                config,
                broker,
            ),
            Setting::Long { at_least, set } => set(
                number("LONG", at_least, trimmed.parse::<i64>().ok())?,
                config,
                broker,
            ),
            Setting::Boolean => {
                if !trimmed.eq_ignore_ascii_case("true") && !trimmed.eq_ignore_ascii_case("false") {
                    return Err(invalid("Expected value to be either true or false"));
                }
                Ok(())
            }
            Setting::List(set) => {
                let keys = trimmed
                    .split(',')
                    .map(str::trim)
                    .filter(|key| !key.is_empty())
                    .map(str::to_owned)
                    .collect();
                set(name, keys, config)
            }
            Setting::Text(set) => set(name, text),
        }
    }
}

/// `current` with `configs` set as Kafka's IncrementalAlterConfigs on a GROUP resource sets them:
/// all or nothing, each value of its type and within the bounds that `broker` (the broker's own
/// settings) gives, and the session timeout above the heartbeat interval (spec 9.2).
pub(crate) fn with_group_configs(
    current: &CoordinatorConfig,
    broker: &CoordinatorConfig,
    configs: &[(&str, &str)],
) -> Result<CoordinatorConfig, String> {
    let mut config = current.clone();
    for (name, text) in configs {
        let Some(known) = GROUP_CONFIGS.iter().find(|known| known.name == *name) else {
            return Err(format!("Unknown group config name: {name}"));
        };
        known.set(text, &mut config, broker)?;
    }
    if config.session_timeout_ms <= config.heartbeat_interval_ms as u64 {
        return Err(
            "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"
                .to_owned(),
        );
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, value: &str) -> Result<CoordinatorConfig, String> {
        let broker = CoordinatorConfig::default();
        with_group_configs(&broker, &broker, &[(name, value)])
    }

    #[test]
    fn the_names_are_the_tables_and_unique() {
        let distinct: BTreeSet<&str> = GROUP_CONFIG_NAMES.iter().copied().collect();
        assert_eq!(distinct.len(), GROUP_CONFIGS.len());
        assert_eq!(GROUP_CONFIG_NAMES[0], "streams.session.timeout.ms");
        assert_eq!(GROUP_CONFIG_NAMES[10], "streams.assignor.name");
    }

    #[test]
    fn an_unknown_name_is_refused() {
        assert_eq!(
            set("streams.bogus.config", "1"),
            Err("Unknown group config name: streams.bogus.config".to_owned())
        );
    }

    #[test]
    fn a_value_is_read_by_type_then_bounded() {
        assert_eq!(
            set("streams.num.standby.replicas", "x"),
            Err("Invalid value x for configuration streams.num.standby.replicas: Not a number of type INT".to_owned())
        );
        assert_eq!(
            set("streams.num.standby.replicas", "3"),
            Err("streams.num.standby.replicas must be less than or equal to 2".to_owned())
        );
        assert_eq!(
            set("streams.num.standby.replicas", " 2 ").map(|c| c.num_standby_replicas),
            Ok(2)
        );
    }
}
