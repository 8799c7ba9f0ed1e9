//! Sans-IO reference coordinator for the Kafka Streams rebalance protocol.
//!
//! Not built yet: this crate holds no behaviour until the reference coordinator lands. It exists
//! so that the workspace has its final shape and the dependency on the wire crate is fixed.
