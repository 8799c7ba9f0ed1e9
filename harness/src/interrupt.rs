//! A run's interruption (Ctrl-C): raised once, seen by every scenario and campaign run, which then
//! stop what they do and clean up.

use std::sync::Arc;

use tokio::sync::watch;

/// Whether the run was asked to stop; clones share it.
#[derive(Debug, Clone)]
pub struct Interrupt(Arc<watch::Sender<bool>>);

impl Default for Interrupt {
    fn default() -> Self {
        Interrupt(Arc::new(watch::Sender::new(false)))
    }
}

impl Interrupt {
    /// Raises it; returns whether it had been raised before.
    pub fn raise(&self) -> bool {
        self.0.send_replace(true)
    }

    pub fn is_raised(&self) -> bool {
        *self.0.borrow()
    }

    /// Completes once it is raised.
    pub async fn raised(&self) {
        let mut receiver = self.0.subscribe();
        // The sender lives in `self`, so the channel cannot close while this waits.
        let _ = receiver.wait_for(|raised| *raised).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raising_wakes_every_waiter_once_and_stays_raised() {
        let interrupt = Interrupt::default();
        assert!(!interrupt.is_raised());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let waiter = interrupt.clone();
            let waiting = tokio::spawn(async move { waiter.raised().await });
            tokio::task::yield_now().await;
            assert!(!interrupt.raise());
            tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
                .await
                .expect("the waiter wakes")
                .unwrap();
            assert!(interrupt.raise(), "raised before");
            // A waiter that comes later returns at once.
            tokio::time::timeout(std::time::Duration::from_secs(5), interrupt.raised())
                .await
                .expect("already raised");
        });
    }
}
