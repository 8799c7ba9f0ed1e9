//! The circuit breaker that stops a run from starting scenarios once the target has stopped
//! answering.

use std::sync::Mutex;
use std::time::Duration;

use crate::backend::BackendError;
use crate::transport::{Loss, TransportError};

/// Scenarios in a row without an answer the harness can use after which no further one starts.
const LOST_SCENARIOS_LIMIT: usize = 3;

/// Below this `--timeout-ms`, a target lost to timeouts may only be slower than the bound: one
/// wait can hold a heartbeat round trip behind a topic's creation reaching the coordinator, a
/// coordinator loading its partition, or a stock Kafka's 3 s initial rebalance delay.
pub const SHORT_TIMEOUT: Duration = Duration::from_millis(5_000);

/// For a wait of `timeout` that ran out: when it is short for a broker, that it may be too
/// short, and what to run instead.
pub fn short_timeout_hint(timeout: Duration) -> Option<String> {
    (timeout < SHORT_TIMEOUT).then(|| {
        format!(
            "hint: --timeout-ms {} may be too short for this target: a wait can hold a heartbeat round trip behind Kafka's own (a topic's creation, a coordinator loading, an initial rebalance delay of 3 s); run again with --timeout-ms {} or more (the default is 15000)",
            timeout.as_millis(),
            SHORT_TIMEOUT.as_millis()
        )
    })
}

/// `error` as text, followed by [`short_timeout_hint`] when it is a wait of `timeout` that ran
/// out.
pub fn with_short_timeout_hint(error: &BackendError, timeout: Duration) -> String {
    match (error, short_timeout_hint(timeout)) {
        (BackendError::Transport(TransportError::Timeout { .. }), Some(hint)) => {
            format!("{error}; {hint}")
        }
        _ => error.to_string(),
    }
}

/// A circuit breaker over a run: a target that answered the preflight and then stopped answering
/// (or answers only what cannot be read) would otherwise cost every remaining scenario a full
/// `--timeout-ms`, or fill the report with the same error.
#[derive(Debug, Default)]
pub struct Breaker {
    state: Mutex<BreakerState>,
}

#[derive(Debug, Default)]
struct BreakerState {
    /// Scenarios in a row that ended without a usable answer, and the last such error.
    lost_in_a_row: usize,
    last_loss: String,
    /// Whether one of those got an answer that could not be read.
    unreadable_in_a_row: bool,
    /// Whether the last of those waited out the bound.
    timed_out_last: bool,
    /// Whether it has tripped, how many scenarios it kept from starting since, and how many of
    /// those already running then (`--jobs`) got no usable answer either.
    open: bool,
    not_run: usize,
    lost_while_open: usize,
}

impl Breaker {
    /// Whether a scenario may start; counts the ones that may not.
    pub(super) fn admit(&self) -> bool {
        let mut state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        state.not_run += usize::from(state.open);
        !state.open
    }

    /// Feeds the breaker with how a scenario ended: the loss and its error when the target gave
    /// no usable answer, `None` when it answered (rightly or not).
    pub(super) fn record(&self, loss: Option<(Loss, &str)>) {
        let mut state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        match loss {
            // The row that tripped it stays as it was, so that its line tells what tripped it.
            Some(_) if state.open => state.lost_while_open += 1,
            Some((loss, error)) => {
                if state.lost_in_a_row == 0 {
                    state.unreadable_in_a_row = false;
                }
                state.lost_in_a_row += 1;
                state.last_loss = error.to_owned();
                state.unreadable_in_a_row |= loss == Loss::Unreadable;
                state.timed_out_last = loss == Loss::Timeout;
                state.open |= state.lost_in_a_row >= LOST_SCENARIOS_LIMIT;
            }
            None if !state.open => state.lost_in_a_row = 0,
            None => {}
        }
    }

    /// Once tripped: one line saying why and how many scenarios did not run, and, when the row
    /// ended in a wait of `timeout` that is short for a broker, that it may be too short.
    pub fn tripped(&self, target: &str, timeout: Duration) -> Option<String> {
        let state = self
            .state
            .lock()
            .expect("the breaker lock is never poisoned");
        let (what, got) = if state.unreadable_in_a_row {
            (
                "answers what cannot be read",
                "no answer that could be read",
            )
        } else {
            ("stopped answering", "no answer")
        };
        let running_then = match state.lost_while_open {
            0 => String::new(),
            lost => format!(", {lost} more already running got none"),
        };
        let hint = match short_timeout_hint(timeout) {
            Some(hint) if state.timed_out_last => format!("; {hint}"),
            _ => String::new(),
        };
        state.open.then(|| {
            format!(
                "{target} {what}: {} scenarios in a row got {got} (last: {}){running_then}; {} not run{hint}",
                state.lost_in_a_row,
                state.last_loss,
                crate::report::plural(state.not_run, "scenario")
            )
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A `--timeout-ms` for which no hint is given.
    const LONG: Duration = SHORT_TIMEOUT;

    #[test]
    fn a_target_lost_to_a_short_timeout_hints_at_raising_it() {
        let timeout = Some((
            Loss::Timeout,
            "h:1 did not answer CreateTopics within 200 ms",
        ));
        let breaker = Breaker::default();
        for _ in 0..LOST_SCENARIOS_LIMIT {
            breaker.record(timeout);
        }
        assert_eq!(
            breaker.tripped("h:1", Duration::from_millis(200)).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 did not answer CreateTopics within 200 ms); 0 scenarios not run; hint: --timeout-ms 200 may be too short for this target: a wait can hold a heartbeat round trip behind Kafka's own (a topic's creation, a coordinator loading, an initial rebalance delay of 3 s); run again with --timeout-ms 5000 or more (the default is 15000)")
        );
        // Not with a bound long enough, nor when the row ended on a closed connection.
        assert_eq!(
            breaker.tripped("h:1", LONG).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 did not answer CreateTopics within 200 ms); 0 scenarios not run")
        );
        let breaker = Breaker::default();
        breaker.record(timeout);
        breaker.record(timeout);
        breaker.record(Some((
            Loss::Silence,
            "h:1 closed the connection while Metadata was due",
        )));
        assert_eq!(
            breaker.tripped("h:1", Duration::from_millis(200)).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 closed the connection while Metadata was due); 0 scenarios not run")
        );
    }

    #[test]
    fn the_breaker_trips_after_scenarios_in_a_row_without_an_answer() {
        let silence = Some((
            Loss::Silence,
            "h:1 did not answer FindCoordinator within 500 ms",
        ));
        let target = "h:1";
        let breaker = Breaker::default();
        for _ in 1..LOST_SCENARIOS_LIMIT {
            assert!(breaker.admit());
            breaker.record(silence);
        }
        // An answer, even a failing one, starts the count again.
        breaker.record(None);
        for _ in 1..LOST_SCENARIOS_LIMIT {
            breaker.record(silence);
        }
        assert_eq!(breaker.tripped(target, LONG), None);
        assert!(breaker.admit());
        breaker.record(silence);
        assert!(!breaker.admit());
        assert!(!breaker.admit());
        assert_eq!(
            breaker.tripped(target, LONG).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 did not answer FindCoordinator within 500 ms); 2 scenarios not run")
        );
    }

    #[test]
    fn scenarios_already_running_when_the_breaker_trips_are_told_apart_from_the_row() {
        let silence = Some((Loss::Silence, "h:1 did not answer Metadata within 500 ms"));
        let breaker = Breaker::default();
        for _ in 0..LOST_SCENARIOS_LIMIT + 4 {
            breaker.record(silence);
        }
        // An answer that comes late does not reopen it.
        breaker.record(None);
        assert!(!breaker.admit());
        assert_eq!(
            breaker.tripped("h:1", LONG).as_deref(),
            Some("h:1 stopped answering: 3 scenarios in a row got no answer (last: h:1 did not answer Metadata within 500 ms), 4 more already running got none; 1 scenario not run")
        );
    }

    #[test]
    fn answers_that_cannot_be_read_trip_the_breaker_as_silence_does() {
        let silence = Some((
            Loss::Silence,
            "h:1 did not answer FindCoordinator within 500 ms",
        ));
        let unreadable = Some((
            Loss::Unreadable,
            "h:1: response to Metadata: malformed body",
        ));
        let target = "h:1";
        let breaker = Breaker::default();
        breaker.record(silence);
        breaker.record(silence);
        breaker.record(unreadable);
        assert_eq!(
            breaker.tripped(target, LONG).as_deref(),
            Some("h:1 answers what cannot be read: 3 scenarios in a row got no answer that could be read (last: h:1: response to Metadata: malformed body); 0 scenarios not run")
        );
        // An unreadable answer in an earlier row is forgotten with that row.
        let breaker = Breaker::default();
        breaker.record(unreadable);
        breaker.record(None);
        for _ in 0..LOST_SCENARIOS_LIMIT {
            breaker.record(silence);
        }
        assert!(breaker
            .tripped(target, LONG)
            .is_some_and(|line| line.starts_with("h:1 stopped answering: ")));
    }
}
