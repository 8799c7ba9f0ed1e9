//! A live trace answered again by the reference coordinator (`streamspec replay LIVE-TRACE
//! --differential`): its requests are sent to the reference in the order and at the times the
//! proxy saw them, the topics' partition counts and the group's configs set as the trace
//! recorded them, and each answer
//! compared with the broker's under the equivalence of `fuzz --differential`
//! ([`crate::differential::compare`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use kafka_protocol::messages::RequestHeader;
use kafka_protocol::protocol::{Decodable, HeaderVersion};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

use super::judge::{decode_body, Passed, DESCRIBE_KEY, HEARTBEAT_KEY};
use super::LiveTrace;
use crate::backend::StreamsApi;
use crate::differential::compare::{self, Comparable, SideBySide};
use crate::embedded::EmbeddedTarget;

/// Differing exchanges shown in full; the rest are counted by field.
const SHOWN_MAX: usize = 5;

/// What answering a live trace again found.
#[derive(Debug)]
pub struct Answered {
    pub text: String,
    /// Exchanges whose answers differ under the equivalence.
    pub differing: usize,
}

/// The request body after its header; `None` when the header does not decode.
fn body_of<M: HeaderVersion>(request: &[u8], version: i16) -> Option<&[u8]> {
    let mut body = request;
    RequestHeader::decode(&mut body, M::header_version(version)).ok()?;
    Some(body)
}

/// The broker's answer beside the reference's to one exchange, and the reference's state after
/// it: `None` when equal. The reference may answer from a state with the internal topics it
/// asked for created (a broker creates them asynchronously, and the proxy sees them only when a
/// client asks for metadata): the state that answers as the broker did, else the nearest, is the
/// reference from then on.
fn compared<Req, Resp>(
    reference: &EmbeddedTarget,
    api: StreamsApi,
    passed: &Passed,
) -> Result<(EmbeddedTarget, Option<SideBySide>), String>
where
    Req: WireMessage + HeaderVersion,
    Resp: WireMessage + HeaderVersion + Comparable,
{
    let body = body_of::<Req>(&passed.request, passed.version)
        .ok_or_else(|| format!("a request header of api {} does not decode", passed.api_key))?;
    let broker: Resp = decode_body(&passed.response, passed.version, true)?;
    let mut nearest: Option<(EmbeddedTarget, SideBySide)> = None;
    for mut state in EmbeddedTarget::with_internal_topics_created(vec![reference.clone()]) {
        let answer = state
            .answer(api, passed.version, body)
            .map_err(|error| error.to_string())?;
        let answer =
            Resp::decode_exact(&answer, passed.version).map_err(|error| error.to_string())?;
        match compare::compare(&broker, &answer) {
            None => return Ok((state, None)),
            Some(side_by_side) => {
                let count = side_by_side.differences().len();
                if nearest
                    .as_ref()
                    .is_none_or(|(_, near)| count < near.differences().len())
                {
                    nearest = Some((state, side_by_side));
                }
            }
        }
    }
    let (state, side_by_side) = nearest.expect("the reference's own state answers");
    Ok((state, Some(side_by_side)))
}

/// [`compared`] for the exchange's api.
fn answered(
    reference: &EmbeddedTarget,
    passed: &Passed,
) -> Result<(EmbeddedTarget, Option<SideBySide>), String> {
    match passed.api_key {
        HEARTBEAT_KEY => compared::<StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse>(
            reference,
            StreamsApi::Heartbeat,
            passed,
        ),
        DESCRIBE_KEY => compared::<StreamsGroupDescribeRequest, StreamsGroupDescribeResponse>(
            reference,
            StreamsApi::Describe,
            passed,
        ),
        other => Err(format!("api key {other} is not a Streams group api")),
    }
}

/// How many exchanges after the earliest answered one are looked at for requests the broker
/// may have handled before it.
const CONCURRENT_MAX: usize = 64;

/// The exchanges not yet answered again that the broker may have handled before `first`, the
/// earliest answered of them, in the order their answers came: those whose request went on
/// before `first`'s answer came back. Requests of different connections in flight together
/// reach the broker's handlers in either order, and answers come back through different
/// connections; one whose request went on later was handled later. `first` itself is not
/// among them.
fn concurrent_with<'a>(
    exchanges: &'a [Passed],
    replayed: &'a [bool],
    first: usize,
) -> impl Iterator<Item = usize> + 'a {
    let answered_ms = exchanges[first].at_ms;
    (first + 1..exchanges.len().min(first + 1 + CONCURRENT_MAX)).filter(move |&index| {
        let passed = &exchanges[index];
        !replayed[index] && passed.sent_ms.unwrap_or(passed.at_ms) <= answered_ms
    })
}

/// Sends the trace's requests to a fresh reference (the test broker profile's settings), each
/// at its time with the topics as they then were, and compares every answer with the broker's.
/// A trace missing its group's earliest exchanges cannot be answered again: an error.
pub fn answer_again(trace: &LiveTrace) -> Result<Answered, String> {
    if trace.dropped > 0 {
        return Err(format!(
            "the trace lacks the {} earliest exchanges of group {}: the reference cannot be brought to the state they made",
            trace.dropped, trace.group
        ));
    }
    let mut reference = EmbeddedTarget::default().deferring_internal_topics();
    let mut topics = trace.topics.iter().peekable();
    let mut configs = trace.group_configs.iter().peekable();
    let mut text = format!(
        "answering again with the reference the {} exchanges of group {} seen in front of {} ({} topic and {} group config changes recorded)\n",
        trace.exchanges.len(),
        trace.group,
        trace.upstream,
        trace.topics.len(),
        trace.group_configs.len()
    );
    let mut differing = 0;
    let mut reordered = 0;
    let mut fields: BTreeMap<String, usize> = BTreeMap::new();
    let exchanges = &trace.exchanges;
    let mut replayed = vec![false; exchanges.len()];
    let mut first = 0;
    while first < exchanges.len() {
        if replayed[first] {
            first += 1;
            continue;
        }
        // Whichever request is handled next, it is handled by the time `first` was answered.
        let now_ms = exchanges[first].at_ms;
        // A topic the broker showed by then is one the reference knows.
        while let Some(change) = topics.next_if(|change| change.at_ms <= now_ms) {
            reference.set_topic(&change.topic, change.partitions);
        }
        while let Some(change) = configs.next_if(|change| change.at_ms <= now_ms) {
            reference
                .set_group_configs_now(&change.group, &[(&change.name, &change.value)])
                .map_err(|error| format!("group config {}: {error}", change.name))?;
        }
        reference
            .advance_to(now_ms)
            .map_err(|stalled| stalled.to_string())?;
        let at = |index: usize| {
            move |error: String| {
                format!(
                    "exchange {} (at {} ms): {error}",
                    index + 1,
                    exchanges[index].at_ms
                )
            }
        };
        // In the order the answers came, unless the broker's answers show another: a request
        // in flight with `first` whose answer the reference gives only when handled before it.
        let (state, side_by_side) = answered(&reference, &exchanges[first]).map_err(at(first))?;
        let mut handled = (first, state, side_by_side);
        if handled.2.is_some() {
            for index in concurrent_with(exchanges, &replayed, first) {
                let (state, side_by_side) =
                    answered(&reference, &exchanges[index]).map_err(at(index))?;
                if side_by_side.is_none() {
                    handled = (index, state, None);
                    reordered += 1;
                    break;
                }
            }
        }
        let (index, state, side_by_side) = handled;
        reference = state;
        replayed[index] = true;
        let Some(side_by_side) = side_by_side else {
            continue;
        };
        differing += 1;
        for difference in side_by_side.differences() {
            *fields.entry(difference.field()).or_default() += 1;
        }
        if differing <= SHOWN_MAX {
            let passed = &exchanges[index];
            let _ = writeln!(
                text,
                "exchange {} (api {} at {} ms): the broker's answer (target) differs from the reference's:\n{}",
                index + 1,
                passed.api_key,
                passed.at_ms,
                side_by_side.render()
            );
        }
    }
    if reordered > 0 {
        let _ = writeln!(
            text,
            "{reordered} of the requests were in flight together with an earlier answered one and handled before it, as the broker's answers show"
        );
    }
    if differing == 0 {
        let _ = writeln!(
            text,
            "{} exchanges, every answer equal to the reference's",
            trace.exchanges.len()
        );
    } else {
        let by_field: Vec<String> = fields
            .iter()
            .map(|(field, count)| format!("{field} {count}"))
            .collect();
        let _ = writeln!(
            text,
            "{differing} of {} exchanges answered otherwise than the reference (the first {} shown); differing fields: {}",
            trace.exchanges.len(),
            differing.min(SHOWN_MAX),
            by_field.join(", ")
        );
    }
    Ok(Answered { text, differing })
}
