//! Faults the proxy applies on purpose, for testing how clients and brokers cope with an
//! unreliable network or a broker without some api.
//!
//! On StreamsGroupHeartbeat (api key 88) exchanges the proxy forwards to the broker, each fault
//! is applied to a chosen fraction of them:
//!
//! - **drop** (`--drop FRACTION`): a lost response. The broker receives and processes the
//!   request, its answer is discarded, and the proxy closes the client's connection right away,
//!   so the client sees a network failure promptly instead of waiting out its request timeout.
//!   Answers due before it on the connection are delivered first; those after it are lost with
//!   the connection.
//! - **duplicate** (`--duplicate FRACTION`): a retransmission. The request reaches the broker
//!   twice, back to back on the same connection with the same correlation id; the client gets
//!   the first answer and the second is discarded.
//! - **delay** (`--delay FRACTION:DURATION`): the answer is held for DURATION before it is sent.
//!   Answers keep their order on the connection, so the ones after it wait too, as they would
//!   behind a slow link.
//!
//! Faults combine: a duplicated heartbeat may also be dropped or delayed; a dropped one is not
//! also held. Which exchanges are faulted is seeded (`--fault-seed N`): connection `i` (counted
//! from 0 as the proxy accepts them) draws from SplitMix64 seeded with `sub_seed(N, i)`, and each
//! heartbeat forwarded on it draws three numbers, for drop, duplicate and delay in that order,
//! whether or not that fault is on, so turning one fault on does not move another's pattern.
//! A heartbeat is faulted with a kind when its draw, uniform in [0, 1), is below that kind's
//! fraction: 0 never, 1 always.
//!
//! **stale-epoch** (`--stale-epoch FRACTION`): an answer-altering fault, a broker that tells a
//! member an epoch older than the one it holds. Of the successful heartbeat answers (error code
//! 0) carrying a member epoch above 0 to a member whose request carried an epoch above 0, the
//! chosen fraction is re-encoded with the member epoch one below the lower of the two (the
//! epoch the member held, when the broker kept it), so the member is told an epoch lower than
//! the one it was told before: what "a member's epoch never decreases" (spec 4.6-5) forbids.
//! The re-encoded answer has the size of the broker's (an int32 changed), and it is what the
//! client gets and the live oracle judges. Its draws are a stream of their own, so turning it
//! on moves no other fault: connection `i` draws from SplitMix64 seeded with
//! `sub_seed(sub_seed(N, i), STALE_EPOCH_STREAM)`, one number per answer that could be altered.
//!
//! **refuse** (`--refuse-api KEY`, any api key but ApiVersions): the proxy is a broker without
//! that api. ApiVersions no longer advertises KEY, and a request of KEY gets no answer: the
//! proxy answers the requests before it, forwards nothing after it and closes the connection,
//! as Kafka's network layer closes a connection whose request names an api the broker does not
//! enable (it fails to parse the header with InvalidRequestException, before any handler).
//!
//! Every fault applied is logged on stderr with the connection, the correlation id and its kind.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

use kafka_protocol::messages::{ApiKey, ApiVersionsRequest, ResponseHeader};
use kafka_protocol::protocol::{Decodable, HeaderVersion, Request};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse};
use streamspec_protocol::rng::{sub_seed, SplitMix64};
use streamspec_protocol::WireMessage;

use super::observe::judge::decode_body;
use super::{draft, Pending};

/// The api key whose exchanges `--drop`, `--duplicate` and `--delay` fault.
pub const FAULTED_KEY: i16 = draft::HEARTBEAT_KEY;
/// The seed of `--fault-seed` when none is given.
pub const DEFAULT_FAULT_SEED: u64 = 0x5eed;
/// The longest `--delay`: the proxy closes a connection idle this long anyway.
pub const DELAY_MAX: Duration = super::IDLE_MAX;
/// The index, under a connection's seed, of the stream `--stale-epoch` draws from.
pub const STALE_EPOCH_STREAM: u64 = 1;
/// The version cap that removes an api from ApiVersions: every api's min version is above it.
pub(super) const NO_VERSION: i16 = -1;

/// The faults `streamspec proxy` applies (none by default).
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct FaultConfig {
    /// Of the StreamsGroupHeartbeat exchanges, the fraction (0 to 1) whose answer is lost: the
    /// broker processes the request, the client's connection is closed without its answer.
    #[arg(long = "drop", value_name = "FRACTION", value_parser = parse_fraction, default_value_t = 0.0)]
    pub drop: f64,
    /// Of the StreamsGroupHeartbeat exchanges, the fraction (0 to 1) sent to the broker twice;
    /// the client gets the first answer, the second is discarded.
    #[arg(long, value_name = "FRACTION", value_parser = parse_fraction, default_value_t = 0.0)]
    pub duplicate: f64,
    /// Of the StreamsGroupHeartbeat exchanges, the fraction whose answer is held this long, e.g.
    /// 0.1:300ms (answers keep their order on the connection).
    #[arg(long, value_name = "FRACTION:DURATION", value_parser = parse_delay)]
    pub delay: Option<Delay>,
    /// Of the successful StreamsGroupHeartbeat answers to a member holding an epoch, the
    /// fraction (0 to 1) whose member epoch is lowered to one below the member's: a broker
    /// telling a member a stale epoch, which the live oracle reports.
    #[arg(long = "stale-epoch", value_name = "FRACTION", value_parser = parse_fraction, default_value_t = 0.0)]
    pub stale_epoch: f64,
    /// The seed of which exchanges are faulted; each connection draws its own stream from it.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_FAULT_SEED)]
    pub fault_seed: u64,
    /// Makes the broker one without this api key: ApiVersions stops advertising it and a
    /// request of it closes the connection unanswered, as Kafka does; repeatable.
    #[arg(long = "refuse-api", value_name = "KEY", value_parser = parse_refused_api)]
    pub refused_apis: Vec<i16>,
}

impl Default for FaultConfig {
    fn default() -> Self {
        FaultConfig {
            drop: 0.0,
            duplicate: 0.0,
            delay: None,
            stale_epoch: 0.0,
            fault_seed: DEFAULT_FAULT_SEED,
            refused_apis: Vec::new(),
        }
    }
}

/// `--delay`: the fraction of exchanges held, and for how long.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Delay {
    pub fraction: f64,
    pub duration: Duration,
}

impl FaultConfig {
    /// The refused api keys, each once.
    pub fn refused(&self) -> BTreeSet<i16> {
        self.refused_apis.iter().copied().collect()
    }

    fn faults_heartbeats(&self) -> bool {
        self.drop > 0.0 || self.duplicate > 0.0 || self.delay.is_some_and(|d| d.fraction > 0.0)
    }

    /// What the proxy's start-up line says of its faults.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.faults_heartbeats() {
            let delay = self.delay.map_or("0".to_owned(), |delay| {
                format!("{}:{}ms", delay.fraction, delay.duration.as_millis())
            });
            parts.push(format!(
                "faults on api key {FAULTED_KEY}: drop {}, duplicate {}, delay {delay}, seed {}",
                self.drop, self.duplicate, self.fault_seed
            ));
        }
        if self.stale_epoch > 0.0 {
            parts.push(format!(
                "stale epochs in {} of successful heartbeat answers, seed {}",
                self.stale_epoch, self.fault_seed
            ));
        }
        let refused = self.refused();
        if !refused.is_empty() {
            let keys: Vec<String> = refused.iter().map(i16::to_string).collect();
            parts.push(format!("refused api keys: {}", keys.join(", ")));
        }
        if parts.is_empty() {
            "no faults".to_owned()
        } else {
            parts.join("; ")
        }
    }
}

/// A fraction of exchanges, 0 to 1 inclusive.
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(fraction) if (0.0..=1.0).contains(&fraction) => Ok(fraction),
        _ => Err(format!(
            "not a fraction: {text:?} (use a number from 0 to 1, e.g. 0.1)"
        )),
    }
}

/// `FRACTION:DURATION`, e.g. `0.1:300ms`.
pub fn parse_delay(text: &str) -> Result<Delay, String> {
    let (fraction, duration) = text
        .split_once(':')
        .ok_or_else(|| format!("not a delay: {text:?} (use FRACTION:DURATION, e.g. 0.1:300ms)"))?;
    let fraction = parse_fraction(fraction)?;
    let duration = crate::parse_duration(duration.trim())?;
    if duration > DELAY_MAX {
        return Err(format!(
            "delay {text:?} is longer than {} s, after which the proxy closes an idle connection",
            DELAY_MAX.as_secs()
        ));
    }
    Ok(Delay { fraction, duration })
}

/// An api key Kafka defines, StreamsGroupHeartbeat and StreamsGroupDescribe included.
pub(crate) fn parse_api_key(text: &str) -> Result<i16, String> {
    let key: i16 = text
        .trim()
        .parse()
        .map_err(|_| format!("not an api key: {text:?} (use a number, e.g. 89)"))?;
    let streams_keys = [draft::HEARTBEAT_KEY, draft::HEARTBEAT_KEY + 1];
    if ApiKey::try_from(key).is_err() && !streams_keys.contains(&key) {
        return Err(format!("unknown api key: {key}"));
    }
    Ok(key)
}

/// An api key `--refuse-api` takes: one Kafka defines (StreamsGroupHeartbeat and
/// StreamsGroupDescribe included), and not ApiVersions, from which clients learn every other.
pub fn parse_refused_api(text: &str) -> Result<i16, String> {
    let key = parse_api_key(text)?;
    if key == ApiVersionsRequest::KEY {
        return Err(format!(
            "api key {key} (ApiVersions) cannot be refused: clients learn every other api from it"
        ));
    }
    Ok(key)
}

/// The faults drawn for one exchange.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Faults {
    pub(super) drop: bool,
    pub(super) duplicate: bool,
    pub(super) delay: Option<Duration>,
}

/// One client connection, as fault log lines name it.
#[derive(Debug, Clone, Copy)]
pub(super) struct ConnectionId {
    pub(super) index: u64,
    pub(super) peer: SocketAddr,
}

impl ConnectionId {
    pub(super) fn log(&self, correlation_id: i32, fault: &str) {
        eprintln!(
            "streamspec proxy: connection {} from {}: correlation id {correlation_id}: {fault}",
            self.index, self.peer
        );
    }
}

/// One connection's seeded stream of fault draws.
#[derive(Debug)]
pub(super) struct FaultDraws<'a> {
    config: &'a FaultConfig,
    rng: SplitMix64,
}

impl<'a> FaultDraws<'a> {
    pub(super) fn new(config: &'a FaultConfig, connection: ConnectionId) -> Self {
        FaultDraws {
            config,
            rng: SplitMix64::new(sub_seed(config.fault_seed, connection.index)),
        }
    }

    /// Draws the faults of `pending` when it is a heartbeat forwarded to the broker.
    pub(super) fn draw_for(&mut self, pending: &mut Pending, forwarded: bool) {
        if pending.api_key != FAULTED_KEY || !forwarded || !self.config.faults_heartbeats() {
            return;
        }
        let drop = chance(&mut self.rng) < self.config.drop;
        let duplicate = chance(&mut self.rng) < self.config.duplicate;
        let delay_draw = chance(&mut self.rng);
        let delay = self
            .config
            .delay
            .filter(|delay| delay_draw < delay.fraction)
            .map(|delay| delay.duration);
        pending.faults = Faults {
            drop,
            duplicate,
            delay: delay.filter(|_| !drop),
        };
    }
}

/// A heartbeat answer altered by `--stale-epoch`: the frame sent instead (without size
/// prefix), the member epoch the broker answered and the one the member is told.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct StaleAnswer {
    pub(super) frame: Vec<u8>,
    pub(super) answered: i32,
    pub(super) told: i32,
}

/// One connection's seeded stream of `--stale-epoch` draws.
#[derive(Debug)]
pub(super) struct StaleEpochDraws {
    fraction: f64,
    rng: SplitMix64,
}

impl StaleEpochDraws {
    pub(super) fn new(config: &FaultConfig, connection: ConnectionId) -> Self {
        let seed = sub_seed(
            sub_seed(config.fault_seed, connection.index),
            STALE_EPOCH_STREAM,
        );
        StaleEpochDraws {
            fraction: config.stale_epoch,
            rng: SplitMix64::new(seed),
        }
    }

    /// The heartbeat answer `response` (frames without size prefix, at `version`) with a stale
    /// member epoch, when it can be altered and its draw falls below the fraction; `None` to
    /// forward it as the broker gave it.
    pub(super) fn alter(
        &mut self,
        version: i16,
        request: &[u8],
        response: &[u8],
    ) -> Option<StaleAnswer> {
        if self.fraction <= 0.0 {
            return None;
        }
        let held = decode_body::<StreamsGroupHeartbeatRequest>(request, version, false)
            .ok()?
            .member_epoch;
        let mut answer: StreamsGroupHeartbeatResponse =
            decode_body(response, version, true).ok()?;
        if answer.error_code != 0 || answer.member_epoch <= 0 || held <= 0 {
            return None;
        }
        if chance(&mut self.rng) >= self.fraction {
            return None;
        }
        let answered = answer.member_epoch;
        let told = answered.min(held) - 1;
        answer.member_epoch = told;
        let mut body = response;
        ResponseHeader::decode(
            &mut body,
            StreamsGroupHeartbeatResponse::header_version(version),
        )
        .ok()?;
        let header = &response[..response.len() - body.len()];
        let frame = [header, &answer.encode_to_vec(version).ok()?].concat();
        // Only an int32 changed: any other difference would alter more than the epoch.
        (frame.len() == response.len()).then_some(StaleAnswer {
            frame,
            answered,
            told,
        })
    }
}

/// Uniform in [0, 1): the draw's top 53 bits.
fn chance(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::BytesMut;
    use kafka_protocol::messages::RequestHeader;
    use kafka_protocol::protocol::{Encodable, StrBytes};

    /// A heartbeat exchange at v0 (request header v2, response header v1), frames without size
    /// prefix: a member holding `held` answered `error_code` and `answered`.
    fn exchange(held: i32, error_code: i16, answered: i32) -> (Vec<u8>, Vec<u8>) {
        let mut request = BytesMut::new();
        RequestHeader::default()
            .with_request_api_key(FAULTED_KEY)
            .with_correlation_id(9)
            .with_client_id(Some(StrBytes::from_static_str("t")))
            .encode(&mut request, 2)
            .unwrap();
        let body = StreamsGroupHeartbeatRequest::default()
            .with_group_id("g")
            .with_member_id("m")
            .with_member_epoch(held);
        request.extend_from_slice(&body.encode_to_vec(0).unwrap());
        (request.to_vec(), answer(error_code, answered))
    }

    fn answer(error_code: i16, epoch: i32) -> Vec<u8> {
        let mut response = BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(9)
            .encode(&mut response, 1)
            .unwrap();
        let body = StreamsGroupHeartbeatResponse::default()
            .with_error_code(error_code)
            .with_member_id("m")
            .with_member_epoch(epoch)
            .with_heartbeat_interval_ms(5000);
        response.extend_from_slice(&body.encode_to_vec(0).unwrap());
        response.to_vec()
    }

    fn stale_draws(fraction: f64, seed: u64, index: u64) -> StaleEpochDraws {
        let config = FaultConfig {
            stale_epoch: fraction,
            fault_seed: seed,
            ..FaultConfig::default()
        };
        let connection = ConnectionId {
            index,
            peer: "127.0.0.1:1".parse().unwrap(),
        };
        StaleEpochDraws::new(&config, connection)
    }

    #[test]
    fn a_stale_epoch_is_one_below_the_members_in_an_answer_of_the_same_size() {
        let mut draws = stale_draws(1.0, 7, 0);
        let (request, response) = exchange(4, 0, 5);
        assert_eq!(
            draws.alter(0, &request, &response),
            Some(StaleAnswer {
                frame: answer(0, 3),
                answered: 5,
                told: 3,
            })
        );
        let (request, response) = exchange(4, 0, 4);
        assert_eq!(
            draws.alter(0, &request, &response).map(|stale| stale.told),
            Some(3)
        );
        // Not altered: a join (no epoch held), an error answer, an answer without an epoch, a
        // response that does not decode.
        for (held, error_code, answered) in [(0, 0, 1), (4, 22, 4), (4, 0, 0), (-1, 0, -1)] {
            let (request, response) = exchange(held, error_code, answered);
            assert_eq!(draws.alter(0, &request, &response), None);
        }
        let (request, response) = exchange(4, 0, 4);
        assert_eq!(draws.alter(0, &request, &response[..8]), None);
        assert_eq!(stale_draws(0.0, 7, 0).alter(0, &request, &response), None);
    }

    #[test]
    fn the_fault_seed_pins_which_answers_get_a_stale_epoch_on_each_connection() {
        // SplitMix64 from sub_seed(sub_seed(7, connection), 1), each draw below 0.5 (checked
        // against an independent SplitMix64).
        let expected: [(u64, &[usize]); 2] = [
            (0, &[3, 4, 5, 6, 8, 9, 10, 12, 13, 15, 16, 17, 18]),
            (1, &[1, 2, 5, 6, 7, 8, 9, 10, 11, 18]),
        ];
        let (request, response) = exchange(4, 0, 4);
        for (connection, altered) in expected {
            let mut draws = stale_draws(0.5, 7, connection);
            let found: Vec<usize> = (1..=20)
                .filter(|_| draws.alter(0, &request, &response).is_some())
                .collect();
            assert_eq!(found, altered, "connection {connection}");
        }
    }

    #[test]
    fn fractions_outside_zero_to_one_are_refused() {
        assert_eq!(parse_fraction("0"), Ok(0.0));
        assert_eq!(parse_fraction("1.0"), Ok(1.0));
        assert_eq!(parse_fraction(" 0.25 "), Ok(0.25));
        for bad in ["1.5", "-0.1", "NaN", "inf", "", "a third"] {
            assert_eq!(
                parse_fraction(bad),
                Err(format!(
                    "not a fraction: {bad:?} (use a number from 0 to 1, e.g. 0.1)"
                ))
            );
        }
    }

    #[test]
    fn delays_need_a_fraction_and_a_duration() {
        assert_eq!(
            parse_delay("0.1:300ms"),
            Ok(Delay {
                fraction: 0.1,
                duration: Duration::from_millis(300)
            })
        );
        assert_eq!(
            parse_delay("0.1"),
            Err("not a delay: \"0.1\" (use FRACTION:DURATION, e.g. 0.1:300ms)".to_owned())
        );
        assert_eq!(
            parse_delay("0.1:3 weeks"),
            Err("not a duration: \"3 weeks\" (use e.g. 60s, 2m, 500ms)".to_owned())
        );
        assert_eq!(
            parse_delay("2:1s"),
            Err("not a fraction: \"2\" (use a number from 0 to 1, e.g. 0.1)".to_owned())
        );
        assert_eq!(
            parse_delay("1:11m"),
            Err(
                "delay \"1:11m\" is longer than 600 s, after which the proxy closes an idle connection"
                    .to_owned()
            )
        );
        // A minute count whose seconds overflow is an error, not a panic.
        assert!(parse_delay(&format!("1:{}m", u64::MAX)).is_err());
    }

    #[test]
    fn refused_apis_are_known_keys_other_than_api_versions() {
        assert_eq!(parse_refused_api("89"), Ok(89));
        assert_eq!(parse_refused_api("88"), Ok(88));
        assert_eq!(parse_refused_api("3"), Ok(3));
        assert_eq!(
            parse_refused_api("999"),
            Err("unknown api key: 999".to_owned())
        );
        assert_eq!(
            parse_refused_api("-1"),
            Err("unknown api key: -1".to_owned())
        );
        assert_eq!(
            parse_refused_api("heartbeat"),
            Err("not an api key: \"heartbeat\" (use a number, e.g. 89)".to_owned())
        );
        assert_eq!(
            parse_refused_api("18"),
            Err(
                "api key 18 (ApiVersions) cannot be refused: clients learn every other api from it"
                    .to_owned()
            )
        );
    }
}
