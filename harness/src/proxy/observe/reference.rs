//! A live trace answered again by the reference coordinator (`streamspec replay LIVE-TRACE
//! --differential`): its requests are sent to the reference in the order and at the times the
//! proxy saw them, the topics' partition counts and the group's configs set as the trace
//! recorded them, and each answer
//! compared with the broker's under the equivalence of `fuzz --differential`
//! ([`crate::differential::compare`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::ops::Range;

use kafka_protocol::messages::RequestHeader;
use kafka_protocol::protocol::{Decodable, HeaderVersion};
use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
    StreamsGroupHeartbeatResponse,
};
use streamspec_protocol::WireMessage;

use super::judge::{decode_body, Passed, DESCRIBE_KEY, HEARTBEAT_KEY};
use super::{GroupConfigSeen, LiveTrace, TopicSeen};
use crate::backend::StreamsApi;
use crate::differential::compare::{self, Comparable, SideBySide};
use crate::differential::{explaining, states_answering_between, REAL_TIME_MARGIN};
use crate::embedded::EmbeddedTarget;

/// The heartbeat interval of the trace's first successful heartbeat answer, the broker's unless
/// a group config set another.
fn answered_heartbeat_interval(trace: &LiveTrace) -> Option<i32> {
    trace
        .exchanges
        .iter()
        .filter(|passed| passed.api_key == HEARTBEAT_KEY)
        .filter_map(|passed| {
            decode_body::<StreamsGroupHeartbeatResponse>(&passed.response, passed.version, true)
                .ok()
        })
        .find(|answer| answer.error_code == 0 && answer.heartbeat_interval_ms > 0)
        .map(|answer| answer.heartbeat_interval_ms)
}

/// Where a setting the reference answers with came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SettingSource {
    /// The broker's configs, which the proxy read as it started and the trace recorded.
    Recorded,
    /// The heartbeat interval of the broker's answers.
    Answered,
    /// The test broker's (`scripts/kafka/start.sh`): neither the trace nor the answers tell.
    TestBroker,
}

impl SettingSource {
    fn says(self) -> &'static str {
        match self {
            SettingSource::Recorded => "the broker's, recorded in the trace",
            SettingSource::Answered => "the broker's, from its answers",
            SettingSource::TestBroker => "the test broker's, scripts/kafka/start.sh",
        }
    }
}

/// The settings of a broker that decide when answers change (the heartbeat interval is also in
/// them): each with its broker config and the test broker's value.
fn timing_settings() -> [(&'static str, &'static str, i64); 4] {
    let test = crate::embedded::test_config();
    [
        (
            "heartbeat interval",
            "group.streams.heartbeat.interval.ms",
            i64::from(test.heartbeat_interval_ms),
        ),
        (
            "session timeout",
            "group.streams.session.timeout.ms",
            test.session_timeout_ms as i64,
        ),
        (
            "initial rebalance delay",
            "group.streams.initial.rebalance.delay.ms",
            test.initial_rebalance_delay_ms as i64,
        ),
        (
            "assignment interval",
            "group.streams.assignment.interval.ms",
            test.assignment_interval_ms as i64,
        ),
    ]
}

/// The broker configs the reference answers `trace` with: those the trace recorded, else the
/// heartbeat interval `answered`; with where each timing setting came from, in
/// [`timing_settings`]' order.
fn reference_configs(
    trace: &LiveTrace,
    answered: Option<i32>,
) -> (BTreeMap<String, String>, Vec<(String, SettingSource)>) {
    let mut configs = trace.broker_configs.clone();
    let mut sources = Vec::new();
    for (name, config, test_value) in timing_settings() {
        let (value, source) = match (configs.get(config), answered) {
            (Some(value), _) => (value.clone(), SettingSource::Recorded),
            (None, Some(interval)) if config == "group.streams.heartbeat.interval.ms" => {
                configs.insert(config.to_owned(), interval.to_string());
                (interval.to_string(), SettingSource::Answered)
            }
            (None, _) => (test_value.to_string(), SettingSource::TestBroker),
        };
        sources.push((format!("{name} {value} ms"), source));
    }
    (configs, sources)
}

/// The line naming the settings the reference answered with and where each came from.
fn assumed_settings(sources: &[(String, SettingSource)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (index, (setting, source)) in sources.iter().enumerate() {
        run.push(setting);
        if sources
            .get(index + 1)
            .is_none_or(|(_, next)| next != source)
        {
            let listed = match run.split_last() {
                Some((last, [])) => (*last).to_owned(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            parts.push(format!("{listed} ({})", source.says()));
            run.clear();
        }
    }
    format!(
        "the reference answered as a broker with {}, and the group configs the trace recorded: a broker started otherwise answers otherwise where those matter (Kafka's defaults are 45000 ms sessions and a 3000 ms initial rebalance delay)\n",
        parts.join(", ")
    )
}

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
/// it: `None` when equal. Each of `states` answers, most likely first: the first that answers as
/// the broker did, else the nearest, is the reference from then on.
fn compared<Req, Resp>(
    states: Vec<Replaying>,
    api: StreamsApi,
    passed: &Passed,
) -> Result<(Replaying, Option<SideBySide>), String>
where
    Req: WireMessage + HeaderVersion,
    Resp: WireMessage + HeaderVersion + Comparable,
{
    let body = body_of::<Req>(&passed.request, passed.version)
        .ok_or_else(|| format!("a request header of api {} does not decode", passed.api_key))?;
    let broker: Resp = decode_body(&passed.response, passed.version, true)?;
    let mut nearest: Option<(Replaying, SideBySide)> = None;
    for mut state in states {
        let answer = state
            .reference
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
    states: Vec<Replaying>,
    passed: &Passed,
) -> Result<(Replaying, Option<SideBySide>), String> {
    match passed.api_key {
        HEARTBEAT_KEY => compared::<StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse>(
            states,
            StreamsApi::Heartbeat,
            passed,
        ),
        DESCRIBE_KEY => compared::<StreamsGroupDescribeRequest, StreamsGroupDescribeResponse>(
            states,
            StreamsApi::Describe,
            passed,
        ),
        other => Err(format!("api key {other} is not a Streams group api")),
    }
}

/// Exchanges in flight together past which the reference answers in the order the answers came.
const IN_FLIGHT_MAX: usize = 256;

/// Answers the reference may give per exchange in flight together while it looks for the order
/// the broker handled them in.
const TRIES_PER_EXCHANGE: usize = 16;

/// How long after the proxy saw an internal topic the broker created for the group (one the
/// coordinator asked for) the broker's coordinator may still not have it. The proxy sees such a
/// topic only in a Metadata answer, which the broker's metadata cache gives at once, while the
/// coordinator learns of it later: Kafka 4.4's metadata publisher sets that cache, then creates
/// the new partitions' logs, and only then tells the coordinator, whose events wait in a queue
/// (a CI run showed more than 130 ms). No bound is given; this one is far above any lag
/// seen. Every other change (topics and configs a client set, whose answers the proxy saw) is
/// taken within the real-time margin, so a divergence it makes is still found.
const INTERNAL_TOPIC_LAG_MAX_MS: u64 = 5_000;

/// A recorded change of the cluster, as the trace holds it.
enum Change<'t> {
    Topic(&'t TopicSeen),
    Config(&'t GroupConfigSeen),
}

/// The reference between exchanges, how many of the trace's recorded topic and group config
/// changes it has been given, and how near one of its deadlines an exchange is answered on more
/// than one state ([`states_answering_between`]): the broker ran on real time. `withheld`
/// counts the exchanges answered without a change the proxy had seen by their answer.
#[derive(Clone)]
struct Replaying {
    reference: EmbeddedTarget,
    topics: usize,
    configs: usize,
    margin_ms: u64,
    withheld: usize,
}

/// The recorded change after the first `topics` topic and `configs` group config changes, the
/// earlier of the next topic and the next group config change, and when the proxy saw it.
fn recorded_change(trace: &LiveTrace, topics: usize, configs: usize) -> Option<(u64, Change<'_>)> {
    let topic = trace.topics.get(topics);
    let config = trace.group_configs.get(configs);
    match (topic, config) {
        (Some(topic), Some(config)) if config.at_ms < topic.at_ms => {
            Some((config.at_ms, Change::Config(config)))
        }
        (Some(topic), _) => Some((topic.at_ms, Change::Topic(topic))),
        (None, config) => config.map(|config| (config.at_ms, Change::Config(config))),
    }
}

impl Replaying {
    /// The next recorded change not yet given to the reference ([`recorded_change`]).
    fn next_change<'t>(&self, trace: &'t LiveTrace) -> Option<(u64, Change<'t>)> {
        recorded_change(trace, self.topics, self.configs)
    }

    /// Gives the reference [`Replaying::next_change`].
    fn apply_next_change(&mut self, trace: &LiveTrace) -> Result<(), String> {
        match self.next_change(trace) {
            Some((_, Change::Topic(topic))) => {
                self.reference.set_topic(&topic.topic, topic.partitions);
                self.topics += 1;
            }
            Some((_, Change::Config(config))) => {
                self.reference
                    .set_group_configs_now(&config.group, &[(&config.name, &config.value)])
                    .map_err(|error| format!("group config {}: {error}", config.name))?;
                self.configs += 1;
            }
            None => {}
        }
        Ok(())
    }

    /// Whether the broker's coordinator had the next recorded change, seen at `at_ms`, when it
    /// handled a request that went on at `sent_ms`: when the proxy saw it before then, less the
    /// margin, and for an internal topic the coordinator asked for, less
    /// [`INTERNAL_TOPIC_LAG_MAX_MS`] too.
    fn had_next_change(&self, change: &Change, at_ms: u64, sent_ms: u64) -> bool {
        let lag_ms = match change {
            Change::Topic(topic)
                if topic.partitions.is_some()
                    && self.reference.is_pending_internal_topic(&topic.topic) =>
            {
                INTERNAL_TOPIC_LAG_MAX_MS
            }
            _ => 0,
        };
        at_ms + self.margin_ms + lag_ms <= sent_ms
    }

    /// [`answered`] by this state, on the broker's clock somewhere between the request's going
    /// on and `handled_by_ms`, the changes carried to the next. The changes the broker's
    /// coordinator had ([`Replaying::had_next_change`]) are applied; the ones after them the
    /// proxy saw by `handled_by_ms` it may not have had yet: the reference answers with each
    /// prefix of those, all of them first. The coordinator takes changes in order, so one it may
    /// lack holds back those after it.
    fn answer(
        &self,
        trace: &LiveTrace,
        index: usize,
        handled_by_ms: u64,
    ) -> Result<(Replaying, Option<SideBySide>), String> {
        let passed = &trace.exchanges[index];
        let in_context =
            |error: String| format!("exchange {} (at {} ms): {error}", index + 1, passed.at_ms);
        let mut known = self.clone();
        while known
            .next_change(trace)
            .is_some_and(|(at_ms, change)| known.had_next_change(&change, at_ms, sent_ms(passed)))
        {
            known.apply_next_change(trace).map_err(in_context)?;
        }
        let mut prefixes = vec![known.clone()];
        while known
            .next_change(trace)
            .is_some_and(|(at_ms, _)| at_ms <= handled_by_ms)
        {
            known.apply_next_change(trace).map_err(in_context)?;
            prefixes.push(known.clone());
        }
        let all = prefixes.len() - 1;
        let mut states = Vec::new();
        for (applied, prefix) in prefixes.iter().enumerate().rev() {
            let (forks, _) = states_answering_between(
                &prefix.reference,
                (sent_ms(passed), handled_by_ms),
                Some(self.margin_ms),
            )
            .map_err(|error| in_context(error.to_string()))?;
            let withheld = prefix.withheld + usize::from(applied < all);
            states.extend(forks.into_iter().map(|reference| Replaying {
                reference,
                withheld,
                ..*prefix
            }));
        }
        answered(states, passed).map_err(in_context)
    }
}

/// When the request went on to the broker; a trace that did not record it is taken as sending
/// each request when its answer came.
fn sent_ms(passed: &Passed) -> u64 {
    passed.sent_ms.unwrap_or(passed.at_ms)
}

/// The trace cut into runs of exchanges in flight together, in the order their answers came: a
/// run ends where every later request went on after every earlier answer came back, so the
/// broker handled the runs in that order, and the requests of one run in any order their times
/// allow (requests of different connections reach its handlers in either order, and answers come
/// back through different connections).
fn in_flight_together(exchanges: &[Passed]) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut start = 0;
    let mut sent_after = u64::MAX;
    let mut earliest_sent_after = vec![u64::MAX; exchanges.len()];
    for (index, passed) in exchanges.iter().enumerate().rev() {
        earliest_sent_after[index] = sent_after;
        sent_after = sent_after.min(sent_ms(passed));
    }
    for (index, passed) in exchanges.iter().enumerate() {
        if passed.at_ms < earliest_sent_after[index] {
            runs.push(start..index + 1);
            start = index + 1;
        }
    }
    runs
}

/// An order in which the reference gives every answer of `run` as the broker did, from `from`,
/// and the state after it; `None` when there is none within the bounds. The order the answers
/// came is tried first, then, depth first, a request in flight with the earliest unanswered one
/// handled before it: one whose request went on before that answer came back.
fn handled_order(
    trace: &LiveTrace,
    run: &Range<usize>,
    from: &Replaying,
) -> Result<Option<(Vec<usize>, Replaying)>, String> {
    if run.len() > IN_FLIGHT_MAX {
        return Ok(None);
    }
    let exchanges = &trace.exchanges;
    let mut tries = run.len() * TRIES_PER_EXCHANGE;
    let mut handled = vec![false; run.len()];
    let mut order: Vec<usize> = Vec::with_capacity(run.len());
    // A state before each handled request, the requests it may handle next, in turn, and the
    // time by which the next was handled.
    let mut stack: Vec<(Replaying, Vec<usize>, u64)> = Vec::new();
    let next_of = |handled: &[bool]| -> Option<(Vec<usize>, u64)> {
        let first = run.clone().find(|&index| !handled[index - run.start])?;
        // Whichever request is handled next, it is handled by the time `first` was answered.
        let answered_ms = exchanges[first].at_ms;
        let mut candidates: Vec<usize> = (first + 1..run.end)
            .filter(|&index| {
                !handled[index - run.start] && sent_ms(&exchanges[index]) <= answered_ms
            })
            .collect();
        // Popped from the end: `first` is tried first, then the others in the order they came.
        candidates.reverse();
        candidates.push(first);
        Some((candidates, answered_ms))
    };
    let (candidates, handled_by_ms) = next_of(&handled).expect("a run is never empty");
    stack.push((from.clone(), candidates, handled_by_ms));
    while let Some((state, candidates, handled_by_ms)) = stack.last_mut() {
        let Some(index) = candidates.pop() else {
            stack.pop();
            if let Some(undone) = order.pop() {
                handled[undone - run.start] = false;
            }
            continue;
        };
        if tries == 0 {
            return Ok(None);
        }
        tries -= 1;
        let (next, side_by_side) = state.answer(trace, index, *handled_by_ms)?;
        if side_by_side.is_some() {
            continue;
        }
        handled[index - run.start] = true;
        order.push(index);
        match next_of(&handled) {
            Some((candidates, handled_by_ms)) => stack.push((next, candidates, handled_by_ms)),
            None => return Ok(Some((order, next))),
        }
    }
    Ok(None)
}

/// How many of `order` were handled while one answered earlier was still unhandled.
fn handled_early(order: &[usize]) -> usize {
    let mut unhandled: BTreeSet<usize> = order.iter().copied().collect();
    order
        .iter()
        .filter(|index| {
            let early = unhandled.first() != Some(index);
            unhandled.remove(index);
            early
        })
        .count()
}

/// Recorded changes listed after differences, at most: enough for the ones around a group's
/// first heartbeats.
const TIMELINE_MAX: usize = 20;

/// When the shown exchanges' requests went on and their answers came, and when the proxy saw
/// each recorded change: what a difference is read against when timing is in question.
fn write_timeline(text: &mut String, trace: &LiveTrace, shown: &[usize]) {
    let _ = writeln!(text, "the shown exchanges' times:");
    for &index in shown {
        let passed = &trace.exchanges[index];
        let _ = writeln!(
            text,
            "  exchange {}: request went on at {} ms, answer came at {} ms",
            index + 1,
            sent_ms(passed),
            passed.at_ms
        );
    }
    let changes = trace.topics.len() + trace.group_configs.len();
    let _ = writeln!(
        text,
        "the recorded changes, when the proxy saw them{}:",
        if changes > TIMELINE_MAX {
            format!(" (the first {TIMELINE_MAX} of {changes})")
        } else {
            String::new()
        }
    );
    let (mut topics, mut configs) = (0, 0);
    while let Some((at_ms, change)) = recorded_change(trace, topics, configs) {
        if topics + configs == TIMELINE_MAX {
            break;
        }
        let _ = match change {
            Change::Topic(topic) => {
                topics += 1;
                match topic.partitions {
                    Some(count) => writeln!(
                        text,
                        "  {at_ms} ms: topic {} with {count} partitions",
                        topic.topic
                    ),
                    None => writeln!(text, "  {at_ms} ms: topic {} gone", topic.topic),
                }
            }
            Change::Config(config) => {
                configs += 1;
                writeln!(
                    text,
                    "  {at_ms} ms: group config {}={}",
                    config.name, config.value
                )
            }
        };
    }
}

/// Sends the trace's requests to a fresh reference (the test broker profile's settings), each
/// at its time with the topics as they then were, and compares every answer with the broker's.
/// Requests in flight together are taken in the order the broker's answers show it handled them
/// when there is one; else in the order the answers came, and the differences shown.
/// A trace missing its group's earliest exchanges cannot be answered again: an error.
pub fn answer_again(trace: &LiveTrace) -> Result<Answered, String> {
    if trace.dropped > 0 {
        return Err(format!(
            "the trace lacks the {} earliest exchanges of group {}: the reference cannot be brought to the state they made",
            trace.dropped, trace.group
        ));
    }
    // The order of handling is read from these times: one that cannot be is no proxy's.
    if let Some((index, passed)) = trace
        .exchanges
        .iter()
        .enumerate()
        .find(|(_, passed)| sent_ms(passed) > passed.at_ms)
    {
        return Err(format!(
            "exchange {}: its request went on at {} ms, after its answer came at {} ms: not a trace `streamspec proxy` wrote",
            index + 1,
            sent_ms(passed),
            passed.at_ms
        ));
    }
    // The broker armed each timer somewhere in the time its answer took: a deadline of the
    // reference may be off by the longest such time, besides the broker's timers firing late.
    let longest_answer_ms = trace
        .exchanges
        .iter()
        .map(|passed| passed.at_ms.saturating_sub(sent_ms(passed)))
        .max()
        .unwrap_or(0);
    // The broker's configs as the proxy recorded them; else every successful heartbeat answer
    // carries the broker's interval; the other settings are the test broker's, and said so.
    let (configs, sources) = reference_configs(trace, answered_heartbeat_interval(trace));
    let reference = EmbeddedTarget::with_broker_configs(
        configs
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str())),
    );
    let mut replaying = Replaying {
        reference: reference.deferring_internal_topics(),
        topics: 0,
        configs: 0,
        margin_ms: REAL_TIME_MARGIN.as_millis() as u64 + longest_answer_ms,
        withheld: 0,
    };
    let mut text = format!(
        "answering again with the reference the {} exchanges of group {} seen in front of {} ({} topic and {} group config changes recorded)\n",
        trace.exchanges.len(),
        trace.group,
        trace.upstream,
        trace.topics.len(),
        trace.group_configs.len()
    );
    let opening = text.len();
    let mut differing = 0;
    let mut reordered = 0;
    let mut fields: BTreeMap<String, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    let exchanges = &trace.exchanges;
    // Our recorded divergences of answers (Kafka 4.4.0's own, among them): an answer one explains
    // is Kafka's known behaviour, and the two states part there, as in a differential run.
    let recorded = crate::runner::divergences();
    let mut known = None;
    'exchanges: for run in in_flight_together(exchanges) {
        if run.len() > 1 {
            if let Some((order, after)) = handled_order(trace, &run, &replaying)? {
                reordered += handled_early(&order);
                replaying = after;
                continue;
            }
        }
        for index in run {
            let passed = &exchanges[index];
            let (next, side_by_side) = replaying.answer(trace, index, passed.at_ms)?;
            replaying = next;
            let Some(side_by_side) = side_by_side else {
                continue;
            };
            let differences = side_by_side.differences();
            let rules = if passed.api_key == HEARTBEAT_KEY {
                compare::rules_of::<StreamsGroupHeartbeatResponse>(&differences)
            } else {
                compare::rules_of::<StreamsGroupDescribeResponse>(&differences)
            };
            let conditions = replaying.reference.conditions(&trace.group);
            if let Some(divergence) = explaining(
                &recorded,
                &trace.upstream,
                &differences,
                &rules,
                &conditions,
            ) {
                let _ = writeln!(
                    text,
                    "exchange {} (api {} at {} ms): the broker's answer differs from the reference's as the divergence recorded in {} for {} (rules {}) says: {}; the two parted there: {} after it not compared",
                    index + 1,
                    passed.api_key,
                    passed.at_ms,
                    divergence.source,
                    divergence.field.as_deref().unwrap_or_default(),
                    divergence.rules.join(", "),
                    divergence.reason,
                    crate::report::plural(exchanges.len() - index - 1, "exchange")
                );
                known = Some(index);
                break 'exchanges;
            }
            differing += 1;
            for difference in differences {
                *fields.entry(difference.field()).or_default() += 1;
            }
            if differing <= SHOWN_MAX {
                shown.push(index);
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
    }
    if reordered > 0 {
        let _ = writeln!(
            text,
            "{reordered} of the requests were in flight together with an earlier answered one and handled before it, as the broker's answers show"
        );
    }
    if replaying.withheld > 0 {
        let _ = writeln!(
            text,
            "{} of the exchanges were handled before the broker's coordinator had a change the proxy saw by their answer (one seen while they were in flight, or an internal topic the broker created, which its Metadata answers show before its coordinator learns of it), as the broker's answers show",
            replaying.withheld
        );
    }
    if differing > 0 {
        write_timeline(&mut text, trace, &shown);
        // Differences may come from the broker's settings rather than its coordinator.
        text.insert_str(opening, &assumed_settings(&sources));
    }
    if let (0, Some(index)) = (differing, known) {
        let _ = writeln!(
            text,
            "{} of {} exchanges compared, every answer equal to the reference's but the recorded divergence above",
            index + 1,
            trace.exchanges.len()
        );
    } else if differing == 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_is_named_with_where_it_came_from() {
        let trace = LiveTrace {
            kind: super::super::LIVE_TRACE_KIND.to_owned(),
            upstream: "b:1".to_owned(),
            group: "g".to_owned(),
            property: String::new(),
            violation: String::new(),
            dropped: 0,
            exchanges: Vec::new(),
            topics: Vec::new(),
            group_configs: Vec::new(),
            broker_configs: [
                ("group.streams.session.timeout.ms", "45000"),
                ("group.streams.initial.rebalance.delay.ms", "3000"),
            ]
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
        };
        let (configs, sources) = reference_configs(&trace, Some(5000));
        assert_eq!(
            configs
                .get("group.streams.heartbeat.interval.ms")
                .map(String::as_str),
            Some("5000")
        );
        assert_eq!(
            assumed_settings(&sources),
            "the reference answered as a broker with heartbeat interval 5000 ms (the broker's, from its answers), session timeout 45000 ms and initial rebalance delay 3000 ms (the broker's, recorded in the trace), assignment interval 0 ms (the test broker's, scripts/kafka/start.sh), and the group configs the trace recorded: a broker started otherwise answers otherwise where those matter (Kafka's defaults are 45000 ms sessions and a 3000 ms initial rebalance delay)\n"
        );
    }
}
