// Generated from `protocol/schemas/kafka/StreamsGroupDescribeRequest.json` by `streamspec-codegen` (`protocol/codegen`); do not edit.
//! `StreamsGroupDescribeRequest` (api key 89, versions 0-1), kafka dialect.

use serde::{Deserialize, Serialize};

use crate::codec::{
    arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink,
    TaggedFields,
};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::view::{ArrayView, Cursor, MessageView, RawTaggedFields, ValueVisitor, ViewItem};

/// The `StreamsGroupDescribeRequest` message; every field of every version.
///
/// Served by: broker.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct StreamsGroupDescribeRequest {
    /// Which streams groups to return.
    ///
    /// Versions 0+, entity type `groupId`.
    #[serde(rename = "groupIds")]
    pub group_ids: Vec<String>,
    /// True to have the operations the caller may perform on each group returned.
    ///
    /// Versions 0+.
    #[serde(rename = "includeAuthorizedOperations")]
    pub include_authorized_operations: bool,
    /// True to have each group's full topology description (from the description plugin) returned.
    ///
    /// Versions 1+.
    #[serde(rename = "includeTopologyDescription")]
    pub include_topology_description: bool,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for StreamsGroupDescribeRequest {
    #[inline]
    fn default() -> Self {
        StreamsGroupDescribeRequest {
            group_ids: Vec::new(),
            include_authorized_operations: false,
            include_topology_description: false,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl StreamsGroupDescribeRequest {
    /// Sets `group_ids`.
    #[inline]
    pub fn with_group_ids(mut self, value: Vec<String>) -> Self {
        self.group_ids = value;
        self
    }
    /// Sets `include_authorized_operations`.
    #[inline]
    pub fn with_include_authorized_operations(mut self, value: bool) -> Self {
        self.include_authorized_operations = value;
        self
    }
    /// Sets `include_topology_description`.
    #[inline]
    pub fn with_include_topology_description(mut self, value: bool) -> Self {
        self.include_topology_description = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let group_ids = decoder.field("group_ids", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let include_authorized_operations =
            decoder.field("include_authorized_operations", |decoder| decoder.bool())?;
        let include_topology_description = if version >= 1 {
            decoder.field("include_topology_description", |decoder| decoder.bool())?
        } else {
            false
        };
        let unknown_tagged_fields = decoder.tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            group_ids,
            include_authorized_operations,
            include_topology_description,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("group_ids", |encoder| {
            encoder.array(&self.group_ids, |encoder, item| encoder.string(item))
        })?;
        encoder.bool(self.include_authorized_operations);
        if version >= 1 {
            encoder.bool(self.include_topology_description);
        } else {
            encoder.absent_field(
                "include_topology_description",
                !self.include_topology_description,
                version,
            )?;
        }
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        if version < 1 {
            self.include_topology_description = false;
        }
    }
}

/// [`StreamsGroupDescribeRequest`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct StreamsGroupDescribeRequestView<'a> {
    /// See [`StreamsGroupDescribeRequest::group_ids`].
    pub group_ids: ArrayView<'a, &'a str>,
    /// See [`StreamsGroupDescribeRequest::include_authorized_operations`].
    pub include_authorized_operations: bool,
    /// See [`StreamsGroupDescribeRequest::include_topology_description`].
    pub include_topology_description: bool,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for StreamsGroupDescribeRequestView<'_> {
    fn default() -> Self {
        StreamsGroupDescribeRequestView {
            group_ids: ArrayView::default(),
            include_authorized_operations: false,
            include_topology_description: false,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> StreamsGroupDescribeRequestView<'a> {
    /// Decodes exactly one message filling `bytes`, refusing what [`crate::WireMessage::decode_exact`] refuses for [`StreamsGroupDescribeRequest`], with the same error, and allocating nothing.
    #[inline(always)]
    pub fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let versions = <StreamsGroupDescribeRequest as crate::WireMessage>::VERSIONS;
        if version < versions.min || version > versions.max {
            return Err(DecodeError::new(
                0,
                DecodeErrorKind::UnsupportedVersion {
                    message: <StreamsGroupDescribeRequest as crate::WireMessage>::NAME,
                    version,
                },
            ));
        }
        Self::read(&mut Decoder::exact(bytes), version)
    }

    #[inline(always)]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let group_ids = decoder.field("group_ids", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let include_authorized_operations =
            decoder.field("include_authorized_operations", |decoder| decoder.bool())?;
        let include_topology_description = if version >= 1 {
            decoder.field("include_topology_description", |decoder| decoder.bool())?
        } else {
            false
        };
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            group_ids,
            include_authorized_operations,
            include_topology_description,
            unknown_tagged_fields,
        })
    }

    /// The owned [`StreamsGroupDescribeRequest`] with the same values.
    pub fn to_owned(&self) -> StreamsGroupDescribeRequest {
        StreamsGroupDescribeRequest {
            group_ids: self.group_ids.iter().map(String::from).collect(),
            include_authorized_operations: self.include_authorized_operations,
            include_topology_description: self.include_topology_description,
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.group_ids.visit_items(visitor);
        visitor.integer(i64::from(self.include_authorized_operations));
        visitor.integer(i64::from(self.include_topology_description));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.array(self.group_ids.len());
        for item in self.group_ids.iter() {
            visitor.string(item);
        }
        visitor.integer(i64::from(self.include_authorized_operations));
        visitor.integer(i64::from(self.include_topology_description));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for StreamsGroupDescribeRequestView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let group_ids = cursor.array::<&'a str>(version)?;
        let include_authorized_operations = cursor.bool()?;
        let include_topology_description = if version >= 1 { cursor.bool()? } else { false };
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            group_ids,
            include_authorized_operations,
            include_topology_description,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip(1)?;
        if version >= 1 {
            cursor.skip(1)?;
        }
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        visitor.integer(i64::from(cursor.bool()?));
        if version >= 1 {
            visitor.integer(i64::from(cursor.bool()?));
        } else {
            let absent: bool = false;
            visitor.integer(i64::from(absent));
        }
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

impl<'a> MessageView<'a> for StreamsGroupDescribeRequestView<'a> {
    type Owned = StreamsGroupDescribeRequest;
    #[inline(always)]
    fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        StreamsGroupDescribeRequestView::decode(bytes, version)
    }
    fn to_message(&self) -> StreamsGroupDescribeRequest {
        self.to_owned()
    }
    fn visit_values<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit(visitor)
    }
    fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit_fields(visitor)
    }
}

impl crate::WireMessage for StreamsGroupDescribeRequest {
    const NAME: &'static str = "StreamsGroupDescribeRequest";
    const API_KEY: i16 = 89;
    const VERSIONS: kafka_protocol::protocol::VersionRange =
        kafka_protocol::protocol::VersionRange { min: 0, max: 1 };
    const KIND: crate::MessageKind = crate::MessageKind::StreamsGroupDescribeRequest;
    fn read_body<R: Recorder>(decoder: &mut Decoder<'_, R>, version: i16) -> DecodeResult<Self> {
        Self::read(decoder, version)
    }
    fn write_body<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        self.write(encoder, version)
    }
    fn restrict_to_version(&mut self, version: i16) {
        self.restrict_to_version(version)
    }
}

crate::impl_kafka_protocol_traits!(StreamsGroupDescribeRequest, header_version: 2);

impl kafka_protocol::protocol::Request for StreamsGroupDescribeRequest {
    const KEY: i16 = 89;
    type Response = super::streams_group_describe_response::StreamsGroupDescribeResponse;
}
