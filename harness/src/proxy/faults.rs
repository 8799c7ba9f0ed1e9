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

use kafka_protocol::messages::{ApiKey, ApiVersionsRequest};
use kafka_protocol::protocol::Request;
use streamspec_protocol::rng::{sub_seed, SplitMix64};

use super::{draft, Pending};

/// The api key whose exchanges `--drop`, `--duplicate` and `--delay` fault.
pub const FAULTED_KEY: i16 = draft::HEARTBEAT_KEY;
/// The seed of `--fault-seed` when none is given.
pub const DEFAULT_FAULT_SEED: u64 = 0x5eed;
/// The longest `--delay`: the proxy closes a connection idle this long anyway.
pub const DELAY_MAX: Duration = super::IDLE_MAX;
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

/// An api key `--refuse-api` takes: one Kafka defines (StreamsGroupHeartbeat and
/// StreamsGroupDescribe included), and not ApiVersions, from which clients learn every other.
pub fn parse_refused_api(text: &str) -> Result<i16, String> {
    let key: i16 = text
        .trim()
        .parse()
        .map_err(|_| format!("not an api key: {text:?} (use a number, e.g. 89)"))?;
    let streams_keys = [draft::HEARTBEAT_KEY, draft::HEARTBEAT_KEY + 1];
    if ApiKey::try_from(key).is_err() && !streams_keys.contains(&key) {
        return Err(format!("unknown api key: {key}"));
    }
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
        let drop = self.chance() < self.config.drop;
        let duplicate = self.chance() < self.config.duplicate;
        let delay_draw = self.chance();
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

    /// Uniform in [0, 1): the draw's top 53 bits.
    fn chance(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
