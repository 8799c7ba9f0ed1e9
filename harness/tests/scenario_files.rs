//! Scenario files that cannot run as written are refused when loaded: exit 2 and one line
//! `path:line:column: message` that points at the offending value.

use std::path::PathBuf;
use std::process::Command;

/// A scenario file in a folder of its own, removed when dropped.
struct ScenarioFile {
    dir: PathBuf,
    path: String,
}

impl ScenarioFile {
    /// A scenario with topic `in` and these steps, one a line from line 5 on.
    fn with_steps(test: &str, topics: &str, steps: &[&str]) -> Self {
        Self::with_rules(test, "\"R1\"", topics, steps)
    }

    /// As [`ScenarioFile::with_steps`], naming `rules` (the JSON list's items).
    fn with_rules(test: &str, rules: &str, topics: &str, steps: &[&str]) -> Self {
        let text = format!(
            "{{\n  \"name\": \"bad\", \"title\": \"t\", \"rules\": [{rules}], \"grade\": \"MUST\",\n  \"topics\": [{topics}],\n  \"steps\": [\n    {}\n  ]\n}}\n",
            steps.join(",\n    ")
        );
        let dir = std::env::temp_dir().join(format!(
            "streamspec-scenario-files-{}-{test}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.json");
        std::fs::write(&path, text).unwrap();
        ScenarioFile {
            path: path.to_str().unwrap().to_owned(),
            dir,
        }
    }

    /// Runs `check` and `list` on the file alone; asserts that both exit 2 with the same one
    /// line on stderr, and returns it.
    fn refusal(&self) -> Vec<String> {
        let [check, list] = ["check", "list"].map(|command| {
            let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
                .args([command, "--only-scenarios", "--scenarios", &self.path])
                .output()
                .expect("the streamspec binary runs");
            let stderr: Vec<String> = String::from_utf8_lossy(&output.stderr)
                .lines()
                .map(str::to_owned)
                .collect();
            assert_eq!(output.status.code(), Some(2), "{command}: {stderr:?}");
            assert!(output.stdout.is_empty(), "{command}");
            stderr
        });
        assert_eq!(check, list);
        check
    }
}

impl Drop for ScenarioFile {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

const IN: &str = r#"{"name": "in", "partitions": 2}"#;
const JOIN: &str =
    r#"{ "heartbeat": {"member": "a", "as": "join"}, "capture": {"e": "/memberEpoch"} }"#;

#[test]
fn a_heartbeat_version_the_message_lacks() {
    let file = ScenarioFile::with_steps(
        "version",
        IN,
        &[r#"{ "heartbeat": {"member": "a", "as": "join", "version": 7} }"#],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:61: StreamsGroupHeartbeat version 7 is not in 0 to 1",
            file.path
        )]
    );
}

#[test]
fn a_describe_version_the_message_lacks() {
    let file = ScenarioFile::with_steps(
        "describe-version",
        IN,
        &[r#"{ "describe": {"version": -1} }"#],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:31: StreamsGroupDescribe version -1 is not in 0 to 1",
            file.path
        )]
    );
}

#[test]
fn two_billion_partitions() {
    let file = ScenarioFile::with_steps(
        "partitions",
        r#"{"name": "in", "partitions": 2000000000}"#,
        &[JOIN],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:3:43: partitions 2000000000 is not in 1 to 10000",
            file.path
        )]
    );
}

#[test]
fn an_internal_topic_of_two_billion_partitions() {
    let file = ScenarioFile::with_steps(
        "internal-partitions",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join", "fields": {"topology": {"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopics": ["${in}"], "repartitionSourceTopics": [{"name": "r", "partitions": 2000000000}]}]}}} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:210: partitions 2000000000 is more than 10000",
            file.path
        )]
    );
}

#[test]
fn polling_every_zero_ms() {
    let file = ScenarioFile::with_steps(
        "every",
        IN,
        &[
            JOIN,
            r#"{ "describe": {}, "expect": {"errorCode": 0}, "until": {"within_ms": 1000, "every_ms": 0} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:92: every_ms 0 is not in 1 to within_ms (1000)",
            file.path
        )]
    );
}

#[test]
fn a_sleep_of_a_day() {
    let file = ScenarioFile::with_steps("sleep", IN, &[JOIN, r#"{ "sleep_ms": 86400000 }"#]);
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:19: sleep_ms 86400000 is more than 600000, the longest wait",
            file.path
        )]
    );
}

#[test]
fn an_until_of_a_day() {
    let file = ScenarioFile::with_steps(
        "within",
        IN,
        &[
            JOIN,
            r#"{ "describe": {}, "expect": {"errorCode": 0}, "until": {"within_ms": 86400000} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:74: within_ms 86400000 is more than 600000, the longest wait",
            file.path
        )]
    );
}

#[test]
fn a_typo_in_a_heartbeat_field() {
    let file = ScenarioFile::with_steps(
        "typo",
        IN,
        &[
            JOIN,
            r#"{ "heartbeat": {"member": "a", "fields": {"memberEpok": 1}} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:61: unknown field `memberEpok`, expected one of `groupId`, `memberId`, \
             `memberEpoch`, `endpointInformationEpoch`, `instanceId`, `rackId`, `rebalanceTimeoutMs`, \
             `topology`, `activeTasks`, `standbyTasks`, `warmupTasks`, `processId`, `userEndpoint`, \
             `clientTags`, `taskOffsets`, `taskEndOffsets`, `shutdownApplication`",
            file.path
        )]
    );
}

#[test]
fn a_typo_inside_the_topology() {
    let file = ScenarioFile::with_steps(
        "nested-typo",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join", "fields": {"topology": {"epoch": 0, "subtopologies": [{"subtopologyId": "0", "sourceTopic": ["${in}"]}]}}} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:142: unknown field `sourceTopic`, expected one of `subtopologyId`, \
             `sourceTopics`, `sourceTopicRegex`, `stateChangelogTopics`, `repartitionSinkTopics`, \
             `repartitionSourceTopics`, `copartitionGroups`",
            file.path
        )]
    );
}

#[test]
fn an_unknown_variable() {
    let file = ScenarioFile::with_steps(
        "variable",
        IN,
        &[
            JOIN,
            r#"{ "describe": {}, "expect": {"groups": [{"groupId": "${grup}"}]} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:57: unknown variable ${{grup}}; known here: ${{e}}, ${{group}}, ${{in}}",
            file.path
        )]
    );
}

#[test]
fn a_capture_used_before_it_is_captured() {
    let file = ScenarioFile::with_steps(
        "capture",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join", "fields": {"memberEpoch": "${e+1}"}} }"#,
            JOIN,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:76: ${{e}} is used before step 2 captures it",
            file.path
        )]
    );
}

#[test]
fn a_precondition_without_an_expect() {
    let file = ScenarioFile::with_steps(
        "precondition-expect",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join"}, "precondition": true }"#,
            r#"{ "heartbeat": {"member": "a"}, "expect": {"errorCode": 0} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:67: a precondition needs an expect: what the set-up must answer",
            file.path
        )]
    );
}

#[test]
fn only_preconditions() {
    let file = ScenarioFile::with_steps(
        "only-preconditions",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join"}, "precondition": true, "expect": {"errorCode": 0} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:4:12: every step is a precondition: no step checks the scenario's rules",
            file.path
        )]
    );
}

#[test]
fn a_key_the_action_does_not_take() {
    let file = ScenarioFile::with_steps(
        "sleep-expect",
        IN,
        &[JOIN, r#"{ "sleep_ms": 1, "expect": {} }"#],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:6:35: sleep_ms, deny, consumer_group, topic and tasks take no expect, capture or until",
            file.path
        )]
    );
}

#[test]
fn a_comparison_with_a_text() {
    let file = ScenarioFile::with_steps(
        "gt-text",
        IN,
        &[
            r#"{ "heartbeat": {"member": "a", "as": "join"}, "expect": {"memberEpoch": {"$gt": "x"}} }"#,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:85: $gt needs a number (e.g. {{\"$gt\": 0}}, or a ${{name}} that \
             holds one), and \"x\" is a text",
            file.path
        )]
    );
}

#[test]
fn a_topic_listed_twice() {
    let file = ScenarioFile::with_steps(
        "topic-twice",
        r#"{"name": "in", "partitions": 2}, {"name": "in"}"#,
        &[JOIN],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:3:56: topic \"in\" is listed twice in `topics` (also topics[0]); give \
             each topic a name of its own",
            file.path
        )]
    );
}

#[test]
fn a_deny_step_without_the_authorizer() {
    let file = ScenarioFile::with_steps(
        "deny-no-authorizer",
        IN,
        &[
            r#"{ "deny": {"operation": "READ", "resource": "GROUP", "name": "${group}"} }"#,
            JOIN,
        ],
    );
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:5:15: a deny step needs a broker with an authorizer; add \"requires\": \
             {{\"broker_configs\": {{\"authorizer.class.name\": \
             \"org.apache.kafka.metadata.authorizer.StandardAuthorizer\"}}}}",
            file.path
        )]
    );
}

#[test]
fn a_scenario_name_too_long_for_its_topics_names() {
    let file = ScenarioFile::with_steps("long-name", IN, &[JOIN]);
    let text = std::fs::read_to_string(&file.path).unwrap();
    let long = format!("\"{}\"", "n".repeat(200));
    std::fs::write(&file.path, text.replacen("\"bad\"", &long, 1)).unwrap();
    assert_eq!(
        file.refusal(),
        [format!(
            "streamspec: {}:2:11: topic \"in\" is named streamspec-<run id>-<scenario name>-in on \
             a target: 279 characters with a run id of 64, more than Kafka's 249; shorten the \
             scenario name (200 characters) or the topic name by 30",
            file.path
        )]
    );
}

const LATE: &str = r#"{"name": "in", "partitions": 2}, {"name": "late", "create": false}"#;

/// What `check` says of a file with topics `in` and `late` (not created) and `steps`.
fn refusal_of(test: &str, steps: &[&str]) -> String {
    let file = ScenarioFile::with_steps(test, LATE, steps);
    let refusal = file.refusal();
    assert_eq!(refusal.len(), 1, "{refusal:?}");
    refusal[0].replace(&file.path, "FILE")
}

#[test]
fn topic_steps_that_cannot_run_as_written() {
    for (test, step, message) in [
        (
            "topic-unknown",
            r#"{ "topic": {"create": "nope", "partitions": 2} }"#,
            "6:27: topic \"nope\" is not one of the scenario's topics (in, late); add it to \
             `topics`, with \"create\": false for one the scenario creates later",
        ),
        (
            "topic-exists",
            r#"{ "topic": {"create": "in", "partitions": 2} }"#,
            "6:27: topic \"in\" exists here already",
        ),
        (
            "topic-shrinks",
            r#"{ "topic": {"grow": "in", "partitions": 2} }"#,
            "6:45: topic \"in\" has 2 partitions here; grow needs more, not 2",
        ),
        (
            "topic-missing",
            r#"{ "topic": {"delete": "late"} }"#,
            "6:27: topic \"late\" does not exist here",
        ),
        (
            "topic-too-big",
            r#"{ "topic": {"create": "late", "partitions": 10001} }"#,
            "6:49: partitions 10001 is not in 1 to 10000",
        ),
        (
            "topic-no-partitions",
            r#"{ "topic": {"grow": "in"} }"#,
            "6:31: topic: create and grow need partitions",
        ),
        (
            "topic-two-actions",
            r#"{ "topic": {"grow": "in", "delete": "in"} }"#,
            "6:47: topic needs exactly one of create, grow, delete (the name of one of the \
             scenario's topics)",
        ),
        (
            "topic-typo",
            r#"{ "topic": {"crate": "late", "partitions": 2} }"#,
            "6:23: unknown field `crate`, expected one of `create`, `grow`, `delete`, `partitions`",
        ),
    ] {
        assert_eq!(
            refusal_of(test, &[JOIN, step]),
            format!("streamspec: FILE:{message}"),
            "{test}"
        );
    }
}

#[test]
fn tasks_steps_that_cannot_run_as_written() {
    for (test, step, message) in [
        (
            "tasks-unknown-member",
            r#"{ "tasks": {"members": ["a", "b"], "disjoint": true} }"#,
            "6:34: member \"b\" sends no heartbeat before this step",
        ),
        (
            "tasks-nothing-judged",
            r#"{ "tasks": {"members": ["a"]} }"#,
            "6:35: tasks needs at least one of union, disjoint, disjoint_per_process, count",
        ),
        (
            "tasks-member-twice",
            r#"{ "tasks": {"members": ["a", "a"], "count": 1} }"#,
            "6:52: tasks: member \"a\" is named twice",
        ),
        (
            "tasks-no-describe",
            r#"{ "tasks": {"members": ["a"], "from": "describe", "count": 1} }"#,
            "6:43: from describe needs a describe step before this one",
        ),
        (
            "tasks-bad-union",
            r#"{ "tasks": {"members": ["a"], "union": "every"} }"#,
            "6:51: union is \"all\" or a list of {\"subtopologyId\", \"partitions\"}, found \"every\"",
        ),
        (
            "tasks-union-twice",
            r#"{ "tasks": {"members": ["a"], "union": [{"subtopologyId": "0", "partitions": [1, 1]}]} }"#,
            "6:44: task 0_1 is listed twice",
        ),
        (
            "tasks-bad-kind",
            r#"{ "tasks": {"members": ["a"], "kind": "actives", "count": 1} }"#,
            "6:51: unknown variant `actives`, expected one of `active`, `standby`, `warmup`",
        ),
    ] {
        assert_eq!(
            refusal_of(test, &[JOIN, step]),
            format!("streamspec: FILE:{message}"),
            "{test}"
        );
    }
}

#[test]
fn rule_ids_of_the_spec_or_of_another_catalogue() {
    // A scenario that runs must expect something.
    const JOIN_ACCEPTED: &str =
        r#"{ "heartbeat": {"member": "a", "as": "join"}, "expect": {"errorCode": 0} }"#;
    let file = ScenarioFile::with_rules(
        "rules-external",
        r#""R54", "KAFKA-GMMT-123""#,
        IN,
        &[JOIN_ACCEPTED],
    );
    let output = Command::new(env!("CARGO_BIN_EXE_streamspec"))
        .args(["check", "--only-scenarios", "--scenarios", &file.path])
        .output()
        .expect("the streamspec binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|line| line.starts_with("KAFKA-GMMT-123 pass ")),
        "{stdout}"
    );
    for (test, rules, message) in [
        (
            "rules-lowercase",
            r#""kafka-1""#,
            "rule id \"kafka-1\" is neither R1 to R54 nor an external id of the form \
             [A-Z][A-Z0-9-]* (e.g. KAFKA-GMMT-123)",
        ),
        (
            "rules-digit-first",
            r#""1R""#,
            "rule id \"1R\" is neither R1 to R54 nor an external id of the form [A-Z][A-Z0-9-]* \
             (e.g. KAFKA-GMMT-123)",
        ),
        (
            "rules-beyond-the-spec",
            r#""R55""#,
            "rule id \"R55\" is no rule of the spec (R1 to R54)",
        ),
        (
            "rules-leading-zero",
            r#""R01""#,
            "rule id \"R01\" is no rule of the spec (R1 to R54)",
        ),
    ] {
        let file = ScenarioFile::with_rules(test, rules, IN, &[JOIN]);
        assert_eq!(
            file.refusal(),
            [format!("streamspec: {}: {message}", file.path)],
            "{test}"
        );
    }
}
