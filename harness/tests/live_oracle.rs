//! `streamspec proxy` judging live traffic: a fake broker behind it lowers a member's epoch and
//! gives two members one active task; the proxy names both properties as they happen, writes
//! traces that `streamspec replay` judges again, reports them, and exits 1.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use streamspec_protocol::kafka::streams_group_describe_response::{
    Assignment, DescribedGroup, Member, TaskIds as DescribedTasks,
};
use streamspec_protocol::kafka::streams_group_heartbeat_response::TaskIds;
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

mod live;
use live::{
    fresh_folder, heartbeat, read_frame, request, start_proxy, verdict_of, wrong_broker, BINARY,
    VERSION,
};

fn task_0_0() -> Vec<TaskIds> {
    vec![TaskIds::default()
        .with_subtopology_id("0")
        .with_partitions(vec![0])]
}

fn assigned(member: &str, epoch: i32) -> Vec<u8> {
    StreamsGroupHeartbeatResponse::default()
        .with_member_id(member)
        .with_member_epoch(epoch)
        .with_heartbeat_interval_ms(5000)
        .with_active_tasks(Some(task_0_0()))
        .with_standby_tasks(Some(Vec::new()))
        .with_warmup_tasks(Some(Vec::new()))
        .encode_to_vec(VERSION)
        .unwrap()
}

fn described_member(id: &str) -> Member {
    let tasks = vec![DescribedTasks::default()
        .with_subtopology_id("0")
        .with_partitions(vec![0])];
    Member::default()
        .with_member_id(id)
        .with_member_epoch(2)
        .with_process_id(format!("process-{id}"))
        .with_assignment(Assignment::default().with_active_tasks(tasks.clone()))
        .with_target_assignment(Assignment::default().with_active_tasks(tasks))
}

/// The answers of the wrong broker, in the order it is asked: `a` joins at epoch 2 with task
/// 0_0, `b` joins at epoch 2 with task 0_0 too, `a` is then answered epoch 1, and a describe
/// shows both as members.
fn wrong_answers() -> Vec<Vec<u8>> {
    let lowered = StreamsGroupHeartbeatResponse::default()
        .with_member_id("a")
        .with_member_epoch(1)
        .with_heartbeat_interval_ms(5000)
        .encode_to_vec(VERSION)
        .unwrap();
    let describe = StreamsGroupDescribeResponse::default()
        .with_groups(vec![DescribedGroup::default()
            .with_group_id("g")
            .with_group_state("Stable")
            .with_group_epoch(2)
            .with_assignment_epoch(2)
            .with_members(vec![described_member("a"), described_member("b")])])
        .encode_to_vec(VERSION)
        .unwrap();
    vec![assigned("a", 2), assigned("b", 2), lowered, describe]
}

#[test]
fn a_wrong_broker_behind_the_proxy_is_reported_traced_and_fails_the_run() {
    let folder = fresh_folder("live-test");
    let upstream = wrong_broker(wrong_answers());
    let report = folder.join("report.json");
    let (mut proxy, mut stderr, listen) = start_proxy(&upstream, &folder, &[]);

    let mut client = TcpStream::connect(&listen).unwrap();
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let requests = [
        request(88, 1, &heartbeat("a", 0)),
        request(88, 2, &heartbeat("b", 0)),
        request(88, 3, &heartbeat("a", 2)),
        request(
            89,
            4,
            &StreamsGroupDescribeRequest::default().with_group_ids(vec!["g".to_owned()]),
        ),
    ];
    let answers = wrong_answers();
    for (index, (sent, expected)) in requests.iter().zip(&answers).enumerate() {
        client.write_all(sent).unwrap();
        let received = read_frame(&mut client).expect("an answer");
        // Forwarded untouched: the correlation id, then header v1's empty tagged fields.
        let correlation_id = (index + 1) as i32;
        assert_eq!(
            received,
            [&correlation_id.to_be_bytes()[..], &[0], expected].concat()
        );
    }
    drop(client);

    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let status = proxy.wait().unwrap();
    assert_eq!(status.code(), Some(1), "stderr: {rest}");
    let epoch_trace = folder.join("streamspec-live-1-g.json");
    let owner_trace = folder.join("streamspec-live-2-g.json");
    assert!(
        rest.contains(
            "VIOLATION always: a member's epoch never decreases (spec 4.6-5) in group g, member a: a went from epoch 2 to 1\n"
        ),
        "{rest}"
    );
    assert!(
        rest.contains(
            "VIOLATION always: at most one member owns an active task (spec 4.6-1, R27, R28) in group g, members a, b: task 0_0 owned by a and b\n"
        ),
        "{rest}"
    );
    assert!(
        rest.contains(&format!("trace: {}", epoch_trace.display())),
        "{rest}"
    );
    assert!(
        rest.contains(&format!("trace: {}", owner_trace.display())),
        "{rest}"
    );
    assert_eq!(rest.matches("VIOLATION").count(), 2, "{rest}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["command"], "proxy");
    assert_eq!(json["exit_code"], 1);
    let verdict_of = |label: &str| verdict_of(&json, label);
    assert_eq!(
        verdict_of("always: a member's epoch never decreases").as_deref(),
        Some("fail")
    );
    assert_eq!(
        verdict_of("always: at most one member owns an active task").as_deref(),
        Some("fail")
    );
    assert_eq!(
        verdict_of("always: the member id is echoed").as_deref(),
        Some("pass")
    );
    assert_eq!(
        verdict_of("always: assigned tasks exist in the topology").as_deref(),
        Some("skip")
    );

    // The trace of the second violation holds the group's four exchanges and shows both.
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&owner_trace).unwrap()).unwrap();
    assert_eq!(trace["kind"], "live");
    assert_eq!(trace["group"], "g");
    assert_eq!(
        trace["property"],
        "always: at most one member owns an active task"
    );
    assert_eq!(trace["exchanges"].as_array().unwrap().len(), 4);
    let replayed = Command::new(BINARY)
        .arg("replay")
        .arg(&owner_trace)
        .output()
        .unwrap();
    let out = String::from_utf8(replayed.stdout).unwrap();
    assert_eq!(replayed.status.code(), Some(1), "{out}");
    assert_eq!(out.matches("VIOLATION: ").count(), 2, "{out}");
    assert!(
        out.contains("VIOLATION: always: at most one member owns an active task (spec 4.6-1, R27, R28) in group g, members a, b: task 0_0 owned by a and b\n"),
        "{out}"
    );
    assert!(
        out.starts_with("judging again the 4 exchanges of group g"),
        "{out}"
    );

    // Cut to its first exchange, the trace shows no violation, and the replay says plainly
    // that the recorded one did not reproduce (exit 0, as "no violation" reads).
    let mut cut = trace.clone();
    cut["exchanges"].as_array_mut().unwrap().truncate(1);
    let cut_trace = folder.join("cut.json");
    std::fs::write(&cut_trace, cut.to_string()).unwrap();
    let replayed = Command::new(BINARY)
        .arg("replay")
        .arg(&cut_trace)
        .output()
        .unwrap();
    let out = String::from_utf8(replayed.stdout).unwrap();
    assert_eq!(replayed.status.code(), Some(0), "{out}");
    assert!(
        out.ends_with(&format!(
            "\n1 exchanges, no violation in group g\ndid not reproduce: the violation the trace recorded (always: at most one member owns an active task: {}) was not found again\n",
            trace["violation"].as_str().unwrap()
        )),
        "{out}"
    );

    // A live trace that lost a field is refused with a clear message.
    let broken = folder.join("broken.json");
    std::fs::write(&broken, r#"{"kind": "live", "group": "g"}"#).unwrap();
    let refused = Command::new(BINARY)
        .arg("replay")
        .arg(&broken)
        .output()
        .unwrap();
    let err = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!(
            "streamspec: {}: not a live trace that `streamspec proxy` wrote: missing field `upstream`",
            broken.display()
        )),
        "{err}"
    );
    std::fs::remove_dir_all(&folder).ok();
}

/// A heartbeat answer to a member that stays at `epoch` with its tasks unchanged: no task lists.
fn kept(member: &str, epoch: i32) -> Vec<u8> {
    StreamsGroupHeartbeatResponse::default()
        .with_member_id(member)
        .with_member_epoch(epoch)
        .with_heartbeat_interval_ms(5000)
        .encode_to_vec(VERSION)
        .unwrap()
}

#[test]
fn a_stale_epoch_the_proxy_plants_is_reported_traced_and_replayed() {
    let folder = fresh_folder("stale-epoch-test");
    // A correct broker: `a` joins at epoch 3 with task 0_0 and keeps both.
    let upstream = wrong_broker(vec![assigned("a", 3), kept("a", 3)]);
    let (mut proxy, mut stderr, listen) = start_proxy(
        &upstream,
        &folder,
        &["--stale-epoch", "1", "--fault-seed", "7"],
    );
    let mut client = TcpStream::connect(&listen).unwrap();
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let peer = client.local_addr().unwrap();
    // The join holds no epoch yet: its answer is forwarded as the broker gave it.
    client
        .write_all(&request(88, 1, &heartbeat("a", 0)))
        .unwrap();
    assert_eq!(
        read_frame(&mut client).expect("an answer"),
        [&1i32.to_be_bytes()[..], &[0], &assigned("a", 3)].concat()
    );
    // The member at epoch 3 is told 2, in an answer of the broker's size.
    client
        .write_all(&request(88, 2, &heartbeat("a", 3)))
        .unwrap();
    let stale = read_frame(&mut client).expect("an answer");
    assert_eq!(
        stale,
        [&2i32.to_be_bytes()[..], &[0], &kept("a", 2)].concat()
    );
    assert_eq!(stale.len(), 5 + kept("a", 3).len());
    drop(client);

    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let mut console = String::new();
    proxy
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut console)
        .unwrap();
    let status = proxy.wait().unwrap();
    assert_eq!(status.code(), Some(1), "stderr: {rest}");
    let trace = folder.join("streamspec-live-1-g.json");
    let violation = "always: a member's epoch never decreases (spec 4.6-5) in group g, member a: a went from epoch 3 to 2\n";
    let lines: Vec<&str> = rest.lines().collect();
    assert_eq!(
        lines[0],
        format!("streamspec proxy: connection 0 from {peer}: correlation id 2: stale-epoch: member epoch 3 answered as 2")
    );
    assert_eq!(
        format!("{}\n", lines[1]),
        format!("streamspec proxy: VIOLATION {violation}")
    );
    // The two exchanges that show it: the join answered 3, the heartbeat at 3 answered 2.
    assert!(lines[2].starts_with("  [op 1 at "), "{rest}");
    assert!(lines[3].contains(r#""memberEpoch":3,"#), "{rest}");
    assert!(lines[4].starts_with("  [op 2 at "), "{rest}");
    assert!(lines[5].contains(r#""memberEpoch":2,"#), "{rest}");
    assert_eq!(lines[6], format!("  trace: {}", trace.display()));
    assert_eq!(rest.matches("VIOLATION").count(), 1, "{rest}");
    assert!(
        console.lines().any(
            |line| line.starts_with("always: a member's epoch never decreases ")
                && line.contains(" fail ")
        ),
        "{console}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(json["exit_code"], 1);
    assert_eq!(
        verdict_of(&json, "always: a member's epoch never decreases").as_deref(),
        Some("fail")
    );
    assert_eq!(
        verdict_of(&json, "always: the member id is echoed").as_deref(),
        Some("pass")
    );

    // The trace holds both exchanges as the client saw them; replay finds the violation again.
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(
        recorded["property"],
        "always: a member's epoch never decreases"
    );
    assert_eq!(recorded["violation"], "a went from epoch 3 to 2");
    assert_eq!(recorded["exchanges"].as_array().unwrap().len(), 2);
    let replayed = Command::new(BINARY)
        .arg("replay")
        .arg(&trace)
        .output()
        .unwrap();
    let out = String::from_utf8(replayed.stdout).unwrap();
    assert_eq!(replayed.status.code(), Some(1), "{out}");
    assert!(
        out.starts_with("judging again the 2 exchanges of group g"),
        "{out}"
    );
    assert!(out.contains(&format!("VIOLATION: {violation}")), "{out}");
    assert_eq!(out.matches("VIOLATION: ").count(), 1, "{out}");
    std::fs::remove_dir_all(&folder).ok();
}

/// A proxy no Streams traffic passed says so, in properties, not as if scenarios were skipped.
#[test]
fn an_idle_proxy_says_that_no_traffic_passed() {
    let output = Command::new(BINARY)
        .args([
            "proxy",
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "127.0.0.1:1",
        ])
        .args(["--duration", "1s", "--trace-dir"])
        .arg(std::env::temp_dir())
        .output()
        .unwrap();
    let out = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(2), "{out}");
    assert!(
        out.contains("\nskipped 1 property (always: a seed gives one trace):\n"),
        "{out}"
    );
    assert!(
        out.ends_with("\n15 properties (0 failing, 15 not checked): 0 passed, 0 violated, 15 skipped; NOTHING CHECKED: no Streams group traffic passed the proxy\n"),
        "{out}"
    );
}
