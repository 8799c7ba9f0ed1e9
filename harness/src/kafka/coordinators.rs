//! Group coordinators on a cluster: each group's is the leader of its partition of
//! `__consumer_offsets`, so groups met in one scenario may have different ones, and requests
//! about a group go to its own. On a single broker every group has the one coordinator, and
//! what is sent is what the scenario wrote.

use streamspec_protocol::kafka::{
    StreamsGroupDescribeRequest, StreamsGroupDescribeResponse, StreamsGroupHeartbeatRequest,
};
use streamspec_protocol::WireMessage;

use crate::transport::{Connection, TransportError, TransportResult};

use super::{find_coordinator, KafkaTarget};

/// Names tried for a probe group beside the scenario group's coordinator. With P partitions of
/// `__consumer_offsets` spread evenly over N nodes, each name has about a 1/N chance.
const PROBE_NAMES_MAX: u32 = 64;

impl KafkaTarget {
    /// The node id of the coordinator of `group_id`, asked once per group. A group the broker
    /// names no coordinator for (as the empty id) is the scenario group's coordinator's to
    /// answer for, as any broker would.
    async fn node_of(&mut self, group_id: &str) -> TransportResult<i32> {
        if let Some(&node) = self.group_nodes.get(group_id) {
            return Ok(node);
        }
        let node = match find_coordinator(&mut self.bootstrap, group_id, self.timeout).await {
            Ok((address, node)) => {
                if !self.coordinators.contains_key(&node) {
                    let connection = Connection::connect(&address, self.timeout).await?;
                    self.coordinators.insert(node, connection);
                }
                node
            }
            Err(TransportError::Broker { .. }) => self.coordinator_node,
            Err(error) => return Err(error),
        };
        self.group_nodes.insert(group_id.to_owned(), node);
        Ok(node)
    }

    /// The connection to the coordinator of `group_id`, or to the scenario group's for `None`.
    pub(crate) async fn coordinator(
        &mut self,
        group_id: Option<&str>,
    ) -> TransportResult<&mut Connection> {
        let node = match group_id {
            Some(group_id) => self.node_of(group_id).await?,
            None => self.coordinator_node,
        };
        Ok(self
            .coordinators
            .get_mut(&node)
            .expect("a connection is opened for every coordinator node recorded"))
    }

    /// A heartbeat goes to its group's coordinator; a body that does not decode (as a fuzzed
    /// one) to the scenario group's.
    pub(super) async fn heartbeat_to_coordinator(
        &mut self,
        version: i16,
        body: &[u8],
        what: &str,
    ) -> TransportResult<Vec<u8>> {
        let group_id = StreamsGroupHeartbeatRequest::decode_exact(body, version)
            .ok()
            .map(|request| request.group_id);
        self.coordinator(group_id.as_deref())
            .await?
            .call_streams(StreamsGroupHeartbeatRequest::API_KEY, version, body, what)
            .await
    }

    /// A describe of groups that one coordinator holds goes to it as written. One of groups on
    /// several coordinators goes to each of them, and the answer is each group's entry from its
    /// own coordinator (the others answer NOT_COORDINATOR for it), as Kafka's admin client
    /// gathers it.
    pub(super) async fn describe_across_coordinators(
        &mut self,
        version: i16,
        body: &[u8],
        what: &str,
    ) -> TransportResult<Vec<u8>> {
        let key = StreamsGroupDescribeRequest::API_KEY;
        let group_ids = StreamsGroupDescribeRequest::decode_exact(body, version)
            .map(|request| request.group_ids)
            .unwrap_or_default();
        let mut nodes = Vec::new();
        for group_id in &group_ids {
            let node = self.node_of(group_id).await?;
            if !nodes.contains(&node) {
                nodes.push(node);
            }
        }
        if nodes.len() <= 1 {
            let group_id = group_ids.first().map(String::as_str);
            let coordinator = self.coordinator(group_id).await?;
            return coordinator.call_streams(key, version, body, what).await;
        }
        let mut gathered: Option<StreamsGroupDescribeResponse> = None;
        for node in nodes {
            let connection = self
                .coordinators
                .get_mut(&node)
                .expect("a connection is opened for every coordinator node recorded");
            let address = connection.address().to_owned();
            let answer = connection.call_streams(key, version, body, what).await?;
            let mut answer =
                StreamsGroupDescribeResponse::decode_exact(&answer, version).map_err(|error| {
                    TransportError::Malformed {
                        address,
                        what: what.to_owned(),
                        reason: error.to_string(),
                    }
                })?;
            answer
                .groups
                .retain(|group| self.group_nodes.get(&group.group_id) == Some(&node));
            match &mut gathered {
                None => gathered = Some(answer),
                Some(gathered) => {
                    gathered.throttle_time_ms =
                        gathered.throttle_time_ms.max(answer.throttle_time_ms);
                    gathered.groups.extend(answer.groups);
                }
            }
        }
        let gathered = gathered.expect("at least two coordinators were asked");
        Ok(gathered
            .encode_to_vec(version)
            .expect("a describe answer decoded at a version encodes at it"))
    }

    /// `probe_group`, or the first of `probe_group-at-1`, `-at-2`, ... whose coordinator is the
    /// scenario group's; `probe_group` if none of [`PROBE_NAMES_MAX`] is.
    pub(crate) async fn probe_group_beside(
        &mut self,
        probe_group: &str,
    ) -> TransportResult<String> {
        for attempt in 0..PROBE_NAMES_MAX {
            let name = match attempt {
                0 => probe_group.to_owned(),
                _ => format!("{probe_group}-at-{attempt}"),
            };
            if self.node_of(&name).await? == self.coordinator_node {
                return Ok(name);
            }
        }
        Ok(probe_group.to_owned())
    }
}
