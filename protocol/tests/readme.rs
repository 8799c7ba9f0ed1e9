//! The README's examples of the borrowed decoder, run as written there (with the bytes they
//! read made here), so that the page cannot drift from the API.

use streamspec_protocol::kafka::streams_group_heartbeat_request::{Subtopology, Topology};
use streamspec_protocol::kafka::{StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatRequestView};
use streamspec_protocol::{DecodeError, MessageView, ValueVisitor, WireMessage};

/// The strings of a message and their bytes.
#[derive(Default)]
struct Strings {
    count: usize,
    bytes: usize,
}

impl ValueVisitor for Strings {
    fn integer(&mut self, _: i64) {}
    fn string(&mut self, value: &str) {
        self.count += 1;
        self.bytes += value.len();
    }
    fn null(&mut self) {}
    fn array(&mut self, _: usize) {}
    fn tagged_field(&mut self, _: u32, _: &[u8]) {}
}

fn strings<'a, M: MessageView<'a>>(bytes: &'a [u8], version: i16) -> Result<Strings, DecodeError> {
    let mut strings = Strings::default();
    M::decode(bytes, version)?.visit_values(&mut strings);
    Ok(strings)
}

/// A join of group `app-1` with one subtopology reading two topics.
fn join_bytes() -> Vec<u8> {
    StreamsGroupHeartbeatRequest::default()
        .with_group_id("app-1")
        .with_member_id("m-1")
        .with_topology(Some(Topology::default().with_subtopologies(vec![
            Subtopology::default()
                .with_subtopology_id("0")
                .with_source_topics(vec!["orders".to_owned(), "payments".to_owned()]),
        ])))
        .encode_to_vec(1)
        .unwrap()
}

#[test]
fn the_view_example_reads_what_it_says() -> Result<(), DecodeError> {
    let bytes = join_bytes();
    let view = StreamsGroupHeartbeatRequestView::decode(&bytes, 1)?;
    assert_eq!(view.group_id, "app-1");
    let lines: Vec<String> = view
        .topology
        .iter()
        .flat_map(|topology| topology.subtopologies.iter())
        .map(|subtopology| {
            format!(
                "{}: {} source topics",
                subtopology.subtopology_id,
                subtopology.source_topics.len()
            )
        })
        .collect();
    assert_eq!(lines, ["0: 2 source topics"]);
    assert_eq!(
        view.to_owned(),
        StreamsGroupHeartbeatRequest::decode_exact(&bytes, 1)?
    );
    Ok(())
}

#[test]
fn the_visitor_example_counts_the_strings() -> Result<(), DecodeError> {
    let bytes = join_bytes();
    let found = strings::<StreamsGroupHeartbeatRequestView>(&bytes, 1)?;
    // app-1, m-1, 0, orders, payments.
    assert_eq!((found.count, found.bytes), (5, 5 + 3 + 1 + 6 + 8));
    Ok(())
}
