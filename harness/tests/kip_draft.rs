//! The KIP draft dialect graded end to end: the catalogue and a campaign against the reference's
//! draft adapter in process, through the translation of `streamspec::draft`.

use std::collections::BTreeMap;
use std::time::Duration;

use streamspec::backend::{block_on, BackendExt, Connect};
use streamspec::draft::{self, applicability};
use streamspec::report::RunVerdict;
use streamspec::runner::Verdict;
use streamspec::{Backend, CampaignConfig, CheckOptions};
use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::StreamsGroupHeartbeatRequest;
use streamspec_protocol::kip_draft::StreamsGroupHeartbeatResponse as DraftResponse;
use streamspec_protocol::{MessageKind, WireMessage};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn the_catalogue_passes_against_the_draft_adapter_skipping_what_the_draft_cannot_express() {
    let report = streamspec::check(
        draft::embedded(),
        CheckOptions {
            strict: true,
            ..CheckOptions::default()
        },
    );
    let count = |verdict: Verdict| {
        report
            .outcomes
            .iter()
            .filter(|outcome| outcome.verdict == verdict)
            .count()
    };
    assert_eq!(report.verdict(), RunVerdict::Passed);
    assert_eq!(
        [
            count(Verdict::Pass),
            count(Verdict::Fail),
            count(Verdict::Error),
            count(Verdict::Skip),
            count(Verdict::Divergent),
        ],
        [132, 0, 0, 40, 1]
    );
    // The divergence recorded for the reference: R40-kept-configuration-of-deleted-topic.
    // Every skip names its reason: the draft's column for 38, and for the other 2 the behaviour
    // of older Kafka releases, as against the reference in Kafka's dialect.
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for outcome in report
        .outcomes
        .iter()
        .filter(|outcome| outcome.verdict == Verdict::Skip)
    {
        let reason = outcome.reason.as_deref().expect("a skip names its reason");
        *reasons.entry(reason).or_default() += 1;
    }
    let table = applicability();
    for (name, reason) in &table.not_applicable {
        let outcome = report
            .outcomes
            .iter()
            .find(|outcome| outcome.scenario == *name)
            .unwrap_or_else(|| panic!("{name} is in the draft's column but no scenario"));
        assert_eq!(outcome.verdict, Verdict::Skip, "{name}");
        assert_eq!(
            outcome.reason.as_deref(),
            Some(format!("does not apply to the KIP draft: {}", table.reasons[reason]).as_str())
        );
    }
    assert_eq!(table.not_applicable.len(), 38);
    let blank = report
        .outcomes
        .iter()
        .find(|outcome| outcome.scenario == "R01-blank-member-id")
        .unwrap();
    assert_eq!(
        blank.reason.as_deref(),
        Some("does not apply to the KIP draft: the coordinator assigns member ids, and a join with an empty MemberId is how a member asks for one, so a blank MemberId is no error")
    );
    let other: Vec<(&str, usize)> = reasons
        .iter()
        .filter(|(reason, _)| !reason.starts_with("does not apply to the KIP draft: "))
        .map(|(reason, count)| (*reason, *count))
        .collect();
    assert_eq!(
        other,
        [(
            "states the behaviour of kafka-4.2 and kafka-4.3; this run expects kafka-4.4 (--expect)",
            2
        )]
    );
}

#[test]
fn every_reason_of_the_drafts_column_is_used() {
    let table = applicability();
    for reason in table.reasons.keys() {
        assert!(
            table.not_applicable.values().any(|used| used == reason),
            "{reason} is never used"
        );
    }
}

/// A join of member `a` in Kafka's dialect goes to the target as the draft's join with an empty
/// MemberId and TopologyId "0"; the coordinator's id comes back on the draft's answer, with the
/// group's topology id, and the harness sees its own id echoed.
#[test]
fn a_join_goes_out_in_the_drafts_bytes_and_comes_back_in_kafkas() {
    let mut backend = block_on(draft::embedded().open("g", &BTreeMap::new())).unwrap();
    block_on(backend.create_topics(&[("in".to_owned(), 2)])).unwrap();
    let join = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_rebalance_timeout_ms(30_000)
        .with_topology(Some(Topology::default().with_subtopologies(vec![
            Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(vec!["in".to_owned()]),
        ])))
        .with_active_tasks(Some(vec![]))
        .with_standby_tasks(Some(vec![]))
        .with_warmup_tasks(Some(vec![]))
        .with_process_id(Some("p".to_owned()));
    let (response, exchange) = block_on(backend.heartbeat(1, &join)).unwrap();
    assert_eq!((response.error_code, response.member_id.as_str()), (0, "a"));
    assert_eq!(response.member_epoch, 2);
    let wire = exchange.on_the_wire.expect("the draft's bytes are kept");
    assert_eq!(
        (wire.request_kind, wire.response_kind, wire.version),
        (
            MessageKind::KipDraftStreamsGroupHeartbeatRequest,
            MessageKind::KipDraftStreamsGroupHeartbeatResponse,
            0
        )
    );
    assert_eq!(
        hex(&wire.request),
        "026701000000000000000075300102300202300203696e010101010100000101010270ff0000000000"
    );
    assert_eq!(hex(&wire.response), "000000000000000b672d6d656d6265722d3100000002000001f4000027100000ea600230010202300300000000000000010001010000");
    let answer = DraftResponse::decode_exact(&wire.response, 0).unwrap();
    assert_eq!(answer.member_id.as_deref(), Some("g-member-1"));
    assert_eq!(answer.group_topology_id.as_deref(), Some("0"));
    // The next heartbeat carries the coordinator's id.
    let heartbeat = StreamsGroupHeartbeatRequest::default()
        .with_group_id("g")
        .with_member_id("a")
        .with_member_epoch(2);
    let (response, exchange) = block_on(backend.heartbeat(1, &heartbeat)).unwrap();
    assert_eq!((response.error_code, response.member_id.as_str()), (0, "a"));
    let sent = streamspec_protocol::kip_draft::StreamsGroupHeartbeatRequest::decode_exact(
        &exchange.on_the_wire.unwrap().request,
        0,
    )
    .unwrap();
    assert_eq!(sent.member_id, "g-member-1");
}

#[test]
fn a_campaign_against_the_draft_adapter_finds_nothing() {
    let config = CampaignConfig {
        seed: 1,
        duration: Duration::from_secs(2),
        ..CampaignConfig::default()
    };
    let result = streamspec::fuzz(draft::embedded(), &config);
    assert!(result.runs > 0, "{result:?}");
    assert!(result.finding.is_none(), "{:?}", result.finding);
    assert!(result.setup_errors.is_empty(), "{:?}", result.setup_errors);
}
