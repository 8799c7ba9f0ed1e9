// Generated from `protocol/schemas/kafka/StreamsGroupDescribeResponse.json` by `streamspec-codegen` (`protocol/codegen`); do not edit.
//! `StreamsGroupDescribeResponse` (api key 89, versions 0-1), kafka dialect.

use serde::{Deserialize, Serialize};

use crate::codec::{
    arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink,
    TaggedFields,
};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::view::{ArrayView, Cursor, MessageView, RawTaggedFields, ValueVisitor, ViewItem};

/// The `StreamsGroupDescribeResponse` message; every field of every version.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct StreamsGroupDescribeResponse {
    /// Time in ms the request was held back by a quota; 0 when no quota applied.
    ///
    /// Versions 0+.
    #[serde(rename = "throttleTimeMs")]
    pub throttle_time_ms: i32,
    /// One entry per requested group.
    ///
    /// Versions 0+.
    #[serde(rename = "groups")]
    pub groups: Vec<DescribedGroup>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for StreamsGroupDescribeResponse {
    #[inline]
    fn default() -> Self {
        StreamsGroupDescribeResponse {
            throttle_time_ms: 0,
            groups: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl StreamsGroupDescribeResponse {
    /// Sets `throttle_time_ms`.
    #[inline]
    pub fn with_throttle_time_ms(mut self, value: i32) -> Self {
        self.throttle_time_ms = value;
        self
    }
    /// Sets `groups`.
    #[inline]
    pub fn with_groups(mut self, value: Vec<DescribedGroup>) -> Self {
        self.groups = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let throttle_time_ms = decoder.field("throttle_time_ms", |decoder| decoder.i32())?;
        let groups = decoder.field("groups", |decoder| {
            decoder.array(20, |decoder| DescribedGroup::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            throttle_time_ms,
            groups,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.i32(self.throttle_time_ms);
        encoder.field("groups", |encoder| {
            encoder.array(&self.groups, |encoder, item| item.write(encoder, version))
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.groups {
            item.restrict_to_version(version);
        }
    }
}

/// One entry per requested group.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct DescribedGroup {
    /// Error describing this group; 0 on success.
    ///
    /// Versions 0+.
    #[serde(rename = "errorCode")]
    pub error_code: i16,
    /// Human-readable error text; null on success.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "errorMessage")]
    pub error_message: Option<String>,
    /// Id of the group.
    ///
    /// Versions 0+, entity type `groupId`.
    #[serde(rename = "groupId")]
    pub group_id: String,
    /// State of the group as text; empty if unknown.
    ///
    /// Versions 0+.
    #[serde(rename = "groupState")]
    pub group_state: String,
    /// Current group epoch.
    ///
    /// Versions 0+.
    #[serde(rename = "groupEpoch")]
    pub group_epoch: i32,
    /// Epoch of the current target assignment.
    ///
    /// Versions 0+.
    #[serde(rename = "assignmentEpoch")]
    pub assignment_epoch: i32,
    /// Topology the group is currently initialized with; may be null when describing failed.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "topology")]
    pub topology: Option<Topology>,
    /// Members of the group.
    ///
    /// Versions 0+.
    #[serde(rename = "members")]
    pub members: Vec<Member>,
    /// Bit set of operations the caller may perform on the group.
    ///
    /// Versions 0+.
    #[serde(rename = "authorizedOperations")]
    pub authorized_operations: i32,
    /// Full topology description; present exactly when TopologyDescriptionStatus is 3 (AVAILABLE).
    ///
    /// Versions 1+, nullable.
    #[serde(rename = "topologyDescription")]
    pub topology_description: Option<TopologyDescription>,
    /// Why TopologyDescription is or is not present: 0 not requested, 1 not stored, 2 fetch error, 3 available.
    ///
    /// Versions 1+.
    #[serde(rename = "topologyDescriptionStatus")]
    pub topology_description_status: i8,
    /// Task assignor the coordinator will use next (may differ from the one behind the current assignment); null on error.
    ///
    /// Versions 1+, nullable, ignorable.
    #[serde(rename = "assignorName")]
    pub assignor_name: Option<String>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for DescribedGroup {
    #[inline]
    fn default() -> Self {
        DescribedGroup {
            error_code: 0,
            error_message: None,
            group_id: String::new(),
            group_state: String::new(),
            group_epoch: 0,
            assignment_epoch: 0,
            topology: None,
            members: Vec::new(),
            authorized_operations: -2147483648,
            topology_description: None,
            topology_description_status: 0,
            assignor_name: None,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl DescribedGroup {
    /// Sets `error_code`.
    #[inline]
    pub fn with_error_code(mut self, value: i16) -> Self {
        self.error_code = value;
        self
    }
    /// Sets `error_message`.
    #[inline]
    pub fn with_error_message(mut self, value: Option<String>) -> Self {
        self.error_message = value;
        self
    }
    /// Sets `group_id`.
    #[inline]
    pub fn with_group_id(mut self, value: impl Into<String>) -> Self {
        self.group_id = value.into();
        self
    }
    /// Sets `group_state`.
    #[inline]
    pub fn with_group_state(mut self, value: impl Into<String>) -> Self {
        self.group_state = value.into();
        self
    }
    /// Sets `group_epoch`.
    #[inline]
    pub fn with_group_epoch(mut self, value: i32) -> Self {
        self.group_epoch = value;
        self
    }
    /// Sets `assignment_epoch`.
    #[inline]
    pub fn with_assignment_epoch(mut self, value: i32) -> Self {
        self.assignment_epoch = value;
        self
    }
    /// Sets `topology`.
    #[inline]
    pub fn with_topology(mut self, value: Option<Topology>) -> Self {
        self.topology = value;
        self
    }
    /// Sets `members`.
    #[inline]
    pub fn with_members(mut self, value: Vec<Member>) -> Self {
        self.members = value;
        self
    }
    /// Sets `authorized_operations`.
    #[inline]
    pub fn with_authorized_operations(mut self, value: i32) -> Self {
        self.authorized_operations = value;
        self
    }
    /// Sets `topology_description`.
    #[inline]
    pub fn with_topology_description(mut self, value: Option<TopologyDescription>) -> Self {
        self.topology_description = value;
        self
    }
    /// Sets `topology_description_status`.
    #[inline]
    pub fn with_topology_description_status(mut self, value: i8) -> Self {
        self.topology_description_status = value;
        self
    }
    /// Sets `assignor_name`.
    #[inline]
    pub fn with_assignor_name(mut self, value: Option<String>) -> Self {
        self.assignor_name = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let error_code = decoder.field("error_code", |decoder| decoder.i16())?;
        let error_message = decoder.field("error_message", |decoder| decoder.nullable_string())?;
        let group_id = decoder.field("group_id", |decoder| decoder.string())?;
        let group_state = decoder.field("group_state", |decoder| decoder.string())?;
        let group_epoch = decoder.field("group_epoch", |decoder| decoder.i32())?;
        let assignment_epoch = decoder.field("assignment_epoch", |decoder| decoder.i32())?;
        let topology = decoder.field("topology", |decoder| {
            decoder.nullable_struct(|decoder| Topology::read(decoder, version))
        })?;
        let members = decoder.field("members", |decoder| {
            decoder.array(28, |decoder| Member::read(decoder, version))
        })?;
        let authorized_operations =
            decoder.field("authorized_operations", |decoder| decoder.i32())?;
        let topology_description = if version >= 1 {
            decoder.field("topology_description", |decoder| {
                decoder.nullable_struct(|decoder| TopologyDescription::read(decoder, version))
            })?
        } else {
            None
        };
        let topology_description_status = if version >= 1 {
            decoder.field("topology_description_status", |decoder| decoder.i8())?
        } else {
            0
        };
        let assignor_name = if version >= 1 {
            decoder.field("assignor_name", |decoder| decoder.nullable_string())?
        } else {
            None
        };
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            error_code,
            error_message,
            group_id,
            group_state,
            group_epoch,
            assignment_epoch,
            topology,
            members,
            authorized_operations,
            topology_description,
            topology_description_status,
            assignor_name,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.i16(self.error_code);
        encoder.field("error_message", |encoder| {
            encoder.nullable_string(self.error_message.as_deref())
        })?;
        encoder.field("group_id", |encoder| encoder.string(&self.group_id))?;
        encoder.field("group_state", |encoder| encoder.string(&self.group_state))?;
        encoder.i32(self.group_epoch);
        encoder.i32(self.assignment_epoch);
        encoder.field("topology", |encoder| {
            encoder.nullable_struct(self.topology.as_ref(), |encoder, value| {
                value.write(encoder, version)
            })
        })?;
        encoder.field("members", |encoder| {
            encoder.array(&self.members, |encoder, item| item.write(encoder, version))
        })?;
        encoder.i32(self.authorized_operations);
        if version >= 1 {
            encoder.field("topology_description", |encoder| {
                encoder.nullable_struct(self.topology_description.as_ref(), |encoder, value| {
                    value.write(encoder, version)
                })
            })?;
        } else {
            encoder.absent_field(
                "topology_description",
                self.topology_description.is_none(),
                version,
            )?;
        }
        if version >= 1 {
            encoder.i8(self.topology_description_status);
        } else {
            encoder.absent_field(
                "topology_description_status",
                self.topology_description_status == 0,
                version,
            )?;
        }
        // Ignorable: a value the version cannot carry is dropped.
        if version >= 1 {
            encoder.field("assignor_name", |encoder| {
                encoder.nullable_string(self.assignor_name.as_deref())
            })?;
        }
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        if let Some(value) = &mut self.topology {
            value.restrict_to_version(version);
        }
        for item in &mut self.members {
            item.restrict_to_version(version);
        }
        if version < 1 {
            self.topology_description = None;
        } else {
            if let Some(value) = &mut self.topology_description {
                value.restrict_to_version(version);
            }
        }
        if version < 1 {
            self.topology_description_status = 0;
        }
        if version < 1 {
            self.assignor_name = None;
        }
    }
}

/// Topology the group is currently initialized with; may be null when describing failed.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Topology {
    /// Epoch of that topology.
    ///
    /// Versions 0+.
    #[serde(rename = "epoch")]
    pub epoch: i32,
    /// Configured subtopologies with partition counts set and patterns resolved; null if uninitialized or input topics are missing or mispartitioned.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "subtopologies")]
    pub subtopologies: Option<Vec<Subtopology>>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Topology {
    #[inline]
    fn default() -> Self {
        Topology {
            epoch: 0,
            subtopologies: None,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Topology {
    /// Sets `epoch`.
    #[inline]
    pub fn with_epoch(mut self, value: i32) -> Self {
        self.epoch = value;
        self
    }
    /// Sets `subtopologies`.
    #[inline]
    pub fn with_subtopologies(mut self, value: Option<Vec<Subtopology>>) -> Self {
        self.subtopologies = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let epoch = decoder.field("epoch", |decoder| decoder.i32())?;
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.nullable_array(6, |decoder| Subtopology::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            epoch,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.i32(self.epoch);
        encoder.field("subtopologies", |encoder| {
            encoder.nullable_array(self.subtopologies.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in self.subtopologies.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
    }
}

/// Configured subtopologies with partition counts set and patterns resolved; null if uninitialized or input topics are missing or mispartitioned.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Subtopology {
    /// Unique id of the subtopology.
    ///
    /// Versions 0+.
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    /// Topics this subtopology consumes.
    ///
    /// Versions 0+, entity type `topicName`.
    #[serde(rename = "sourceTopics")]
    pub source_topics: Vec<String>,
    /// Internal topics this subtopology writes records to for repartitioning.
    ///
    /// Versions 0+, entity type `topicName`.
    #[serde(rename = "repartitionSinkTopics")]
    pub repartition_sink_topics: Vec<String>,
    /// Changelog topics backing this subtopology's state stores.
    ///
    /// Versions 0+.
    #[serde(rename = "stateChangelogTopics")]
    pub state_changelog_topics: Vec<TopicInfo>,
    /// Internal repartition topics this subtopology consumes.
    ///
    /// Versions 0+.
    #[serde(rename = "repartitionSourceTopics")]
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Subtopology {
    #[inline]
    fn default() -> Self {
        Subtopology {
            subtopology_id: String::new(),
            source_topics: Vec::new(),
            repartition_sink_topics: Vec::new(),
            state_changelog_topics: Vec::new(),
            repartition_source_topics: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Subtopology {
    /// Sets `subtopology_id`.
    #[inline]
    pub fn with_subtopology_id(mut self, value: impl Into<String>) -> Self {
        self.subtopology_id = value.into();
        self
    }
    /// Sets `source_topics`.
    #[inline]
    pub fn with_source_topics(mut self, value: Vec<String>) -> Self {
        self.source_topics = value;
        self
    }
    /// Sets `repartition_sink_topics`.
    #[inline]
    pub fn with_repartition_sink_topics(mut self, value: Vec<String>) -> Self {
        self.repartition_sink_topics = value;
        self
    }
    /// Sets `state_changelog_topics`.
    #[inline]
    pub fn with_state_changelog_topics(mut self, value: Vec<TopicInfo>) -> Self {
        self.state_changelog_topics = value;
        self
    }
    /// Sets `repartition_source_topics`.
    #[inline]
    pub fn with_repartition_source_topics(mut self, value: Vec<TopicInfo>) -> Self {
        self.repartition_source_topics = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.string())?;
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let repartition_sink_topics = decoder.field("repartition_sink_topics", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let state_changelog_topics = decoder.field("state_changelog_topics", |decoder| {
            decoder.array(9, |decoder| TopicInfo::read(decoder, version))
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.array(9, |decoder| TopicInfo::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopology_id,
            source_topics,
            repartition_sink_topics,
            state_changelog_topics,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("subtopology_id", |encoder| {
            encoder.string(&self.subtopology_id)
        })?;
        encoder.field("source_topics", |encoder| {
            encoder.array(&self.source_topics, |encoder, item| encoder.string(item))
        })?;
        encoder.field("repartition_sink_topics", |encoder| {
            encoder.array(&self.repartition_sink_topics, |encoder, item| {
                encoder.string(item)
            })
        })?;
        encoder.field("state_changelog_topics", |encoder| {
            encoder.array(&self.state_changelog_topics, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("repartition_source_topics", |encoder| {
            encoder.array(&self.repartition_source_topics, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.state_changelog_topics {
            item.restrict_to_version(version);
        }
        for item in &mut self.repartition_source_topics {
            item.restrict_to_version(version);
        }
    }
}

/// Members of the group.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Member {
    /// Id of the member.
    ///
    /// Versions 0+.
    #[serde(rename = "memberId")]
    pub member_id: String,
    /// Epoch the member holds.
    ///
    /// Versions 0+.
    #[serde(rename = "memberEpoch")]
    pub member_epoch: i32,
    /// Static membership instance id, if any.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "instanceId")]
    pub instance_id: Option<String>,
    /// Rack of the member, if any.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "rackId")]
    pub rack_id: Option<String>,
    /// Client id the member connected with.
    ///
    /// Versions 0+.
    #[serde(rename = "clientId")]
    pub client_id: String,
    /// Host the member connected from.
    ///
    /// Versions 0+.
    #[serde(rename = "clientHost")]
    pub client_host: String,
    /// Topology epoch the member last sent.
    ///
    /// Versions 0+.
    #[serde(rename = "topologyEpoch")]
    pub topology_epoch: i32,
    /// Id of the Streams process the member runs in.
    ///
    /// Versions 0+.
    #[serde(rename = "processId")]
    pub process_id: String,
    /// Interactive-query endpoint of the member; null if it has none.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "userEndpoint")]
    pub user_endpoint: Option<Endpoint>,
    /// Tags used for rack-aware standby placement.
    ///
    /// Versions 0+.
    #[serde(rename = "clientTags")]
    pub client_tags: Vec<KeyValue>,
    /// Changelog offsets the member reported per task.
    ///
    /// Versions 0+.
    #[serde(rename = "taskOffsets")]
    pub task_offsets: Vec<TaskOffset>,
    /// Changelog end offsets the member reported per task.
    ///
    /// Versions 0+.
    #[serde(rename = "taskEndOffsets")]
    pub task_end_offsets: Vec<TaskOffset>,
    /// Tasks the member owns now.
    ///
    /// Versions 0+.
    #[serde(rename = "assignment")]
    pub assignment: Assignment,
    /// Tasks the member is meant to own.
    ///
    /// Versions 0+.
    #[serde(rename = "targetAssignment")]
    pub target_assignment: Assignment,
    /// True for a member still using the classic protocol.
    ///
    /// Versions 0+.
    #[serde(rename = "isClassic")]
    pub is_classic: bool,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Member {
    #[inline]
    fn default() -> Self {
        Member {
            member_id: String::new(),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            client_id: String::new(),
            client_host: String::new(),
            topology_epoch: 0,
            process_id: String::new(),
            user_endpoint: None,
            client_tags: Vec::new(),
            task_offsets: Vec::new(),
            task_end_offsets: Vec::new(),
            assignment: Assignment::default(),
            target_assignment: Assignment::default(),
            is_classic: false,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Member {
    /// Sets `member_id`.
    #[inline]
    pub fn with_member_id(mut self, value: impl Into<String>) -> Self {
        self.member_id = value.into();
        self
    }
    /// Sets `member_epoch`.
    #[inline]
    pub fn with_member_epoch(mut self, value: i32) -> Self {
        self.member_epoch = value;
        self
    }
    /// Sets `instance_id`.
    #[inline]
    pub fn with_instance_id(mut self, value: Option<String>) -> Self {
        self.instance_id = value;
        self
    }
    /// Sets `rack_id`.
    #[inline]
    pub fn with_rack_id(mut self, value: Option<String>) -> Self {
        self.rack_id = value;
        self
    }
    /// Sets `client_id`.
    #[inline]
    pub fn with_client_id(mut self, value: impl Into<String>) -> Self {
        self.client_id = value.into();
        self
    }
    /// Sets `client_host`.
    #[inline]
    pub fn with_client_host(mut self, value: impl Into<String>) -> Self {
        self.client_host = value.into();
        self
    }
    /// Sets `topology_epoch`.
    #[inline]
    pub fn with_topology_epoch(mut self, value: i32) -> Self {
        self.topology_epoch = value;
        self
    }
    /// Sets `process_id`.
    #[inline]
    pub fn with_process_id(mut self, value: impl Into<String>) -> Self {
        self.process_id = value.into();
        self
    }
    /// Sets `user_endpoint`.
    #[inline]
    pub fn with_user_endpoint(mut self, value: Option<Endpoint>) -> Self {
        self.user_endpoint = value;
        self
    }
    /// Sets `client_tags`.
    #[inline]
    pub fn with_client_tags(mut self, value: Vec<KeyValue>) -> Self {
        self.client_tags = value;
        self
    }
    /// Sets `task_offsets`.
    #[inline]
    pub fn with_task_offsets(mut self, value: Vec<TaskOffset>) -> Self {
        self.task_offsets = value;
        self
    }
    /// Sets `task_end_offsets`.
    #[inline]
    pub fn with_task_end_offsets(mut self, value: Vec<TaskOffset>) -> Self {
        self.task_end_offsets = value;
        self
    }
    /// Sets `assignment`.
    #[inline]
    pub fn with_assignment(mut self, value: Assignment) -> Self {
        self.assignment = value;
        self
    }
    /// Sets `target_assignment`.
    #[inline]
    pub fn with_target_assignment(mut self, value: Assignment) -> Self {
        self.target_assignment = value;
        self
    }
    /// Sets `is_classic`.
    #[inline]
    pub fn with_is_classic(mut self, value: bool) -> Self {
        self.is_classic = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let member_id = decoder.field("member_id", |decoder| decoder.string())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let instance_id = decoder.field("instance_id", |decoder| decoder.nullable_string())?;
        let rack_id = decoder.field("rack_id", |decoder| decoder.nullable_string())?;
        let client_id = decoder.field("client_id", |decoder| decoder.string())?;
        let client_host = decoder.field("client_host", |decoder| decoder.string())?;
        let topology_epoch = decoder.field("topology_epoch", |decoder| decoder.i32())?;
        let process_id = decoder.field("process_id", |decoder| decoder.string())?;
        let user_endpoint = decoder.field("user_endpoint", |decoder| {
            decoder.nullable_struct(|decoder| Endpoint::read(decoder, version))
        })?;
        let client_tags = decoder.field("client_tags", |decoder| {
            decoder.array(3, |decoder| KeyValue::read(decoder, version))
        })?;
        let task_offsets = decoder.field("task_offsets", |decoder| {
            decoder.array(14, |decoder| TaskOffset::read(decoder, version))
        })?;
        let task_end_offsets = decoder.field("task_end_offsets", |decoder| {
            decoder.array(14, |decoder| TaskOffset::read(decoder, version))
        })?;
        let assignment =
            decoder.field("assignment", |decoder| Assignment::read(decoder, version))?;
        let target_assignment = decoder.field("target_assignment", |decoder| {
            Assignment::read(decoder, version)
        })?;
        let is_classic = decoder.field("is_classic", |decoder| decoder.bool())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            client_id,
            client_host,
            topology_epoch,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            assignment,
            target_assignment,
            is_classic,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("member_id", |encoder| encoder.string(&self.member_id))?;
        encoder.i32(self.member_epoch);
        encoder.field("instance_id", |encoder| {
            encoder.nullable_string(self.instance_id.as_deref())
        })?;
        encoder.field("rack_id", |encoder| {
            encoder.nullable_string(self.rack_id.as_deref())
        })?;
        encoder.field("client_id", |encoder| encoder.string(&self.client_id))?;
        encoder.field("client_host", |encoder| encoder.string(&self.client_host))?;
        encoder.i32(self.topology_epoch);
        encoder.field("process_id", |encoder| encoder.string(&self.process_id))?;
        encoder.field("user_endpoint", |encoder| {
            encoder.nullable_struct(self.user_endpoint.as_ref(), |encoder, value| {
                value.write(encoder, version)
            })
        })?;
        encoder.field("client_tags", |encoder| {
            encoder.array(&self.client_tags, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("task_offsets", |encoder| {
            encoder.array(&self.task_offsets, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("task_end_offsets", |encoder| {
            encoder.array(&self.task_end_offsets, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("assignment", |encoder| {
            self.assignment.write(encoder, version)
        })?;
        encoder.field("target_assignment", |encoder| {
            self.target_assignment.write(encoder, version)
        })?;
        encoder.bool(self.is_classic);
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        if let Some(value) = &mut self.user_endpoint {
            value.restrict_to_version(version);
        }
        for item in &mut self.client_tags {
            item.restrict_to_version(version);
        }
        for item in &mut self.task_offsets {
            item.restrict_to_version(version);
        }
        for item in &mut self.task_end_offsets {
            item.restrict_to_version(version);
        }
        self.assignment.restrict_to_version(version);
        self.target_assignment.restrict_to_version(version);
    }
}

/// The `Endpoint` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Endpoint {
    /// Host name or address.
    ///
    /// Versions 0+.
    #[serde(rename = "host")]
    pub host: String,
    /// Port number.
    ///
    /// Versions 0+.
    #[serde(rename = "port")]
    pub port: u16,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Endpoint {
    #[inline]
    fn default() -> Self {
        Endpoint {
            host: String::new(),
            port: 0,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Endpoint {
    /// Sets `host`.
    #[inline]
    pub fn with_host(mut self, value: impl Into<String>) -> Self {
        self.host = value.into();
        self
    }
    /// Sets `port`.
    #[inline]
    pub fn with_port(mut self, value: u16) -> Self {
        self.port = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let host = decoder.field("host", |decoder| decoder.string())?;
        let port = decoder.field("port", |decoder| decoder.u16())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            host,
            port,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("host", |encoder| encoder.string(&self.host))?;
        encoder.u16(self.port);
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `TaskOffset` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TaskOffset {
    /// Subtopology of the task.
    ///
    /// Versions 0+.
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    /// Partition of the task.
    ///
    /// Versions 0+.
    #[serde(rename = "partition")]
    pub partition: i32,
    /// Offset value.
    ///
    /// Versions 0+.
    #[serde(rename = "offset")]
    pub offset: i64,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TaskOffset {
    #[inline]
    fn default() -> Self {
        TaskOffset {
            subtopology_id: String::new(),
            partition: 0,
            offset: 0,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TaskOffset {
    /// Sets `subtopology_id`.
    #[inline]
    pub fn with_subtopology_id(mut self, value: impl Into<String>) -> Self {
        self.subtopology_id = value.into();
        self
    }
    /// Sets `partition`.
    #[inline]
    pub fn with_partition(mut self, value: i32) -> Self {
        self.partition = value;
        self
    }
    /// Sets `offset`.
    #[inline]
    pub fn with_offset(mut self, value: i64) -> Self {
        self.offset = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.string())?;
        let partition = decoder.field("partition", |decoder| decoder.i32())?;
        let offset = decoder.field("offset", |decoder| decoder.i64())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopology_id,
            partition,
            offset,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("subtopology_id", |encoder| {
            encoder.string(&self.subtopology_id)
        })?;
        encoder.i32(self.partition);
        encoder.i64(self.offset);
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `Assignment` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Assignment {
    /// Active tasks.
    ///
    /// Versions 0+.
    #[serde(rename = "activeTasks")]
    pub active_tasks: Vec<TaskIds>,
    /// Standby tasks.
    ///
    /// Versions 0+.
    #[serde(rename = "standbyTasks")]
    pub standby_tasks: Vec<TaskIds>,
    /// Warm-up tasks.
    ///
    /// Versions 0+.
    #[serde(rename = "warmupTasks")]
    pub warmup_tasks: Vec<TaskIds>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Assignment {
    #[inline]
    fn default() -> Self {
        Assignment {
            active_tasks: Vec::new(),
            standby_tasks: Vec::new(),
            warmup_tasks: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Assignment {
    /// Sets `active_tasks`.
    #[inline]
    pub fn with_active_tasks(mut self, value: Vec<TaskIds>) -> Self {
        self.active_tasks = value;
        self
    }
    /// Sets `standby_tasks`.
    #[inline]
    pub fn with_standby_tasks(mut self, value: Vec<TaskIds>) -> Self {
        self.standby_tasks = value;
        self
    }
    /// Sets `warmup_tasks`.
    #[inline]
    pub fn with_warmup_tasks(mut self, value: Vec<TaskIds>) -> Self {
        self.warmup_tasks = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let active_tasks = decoder.field("active_tasks", |decoder| {
            decoder.array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let standby_tasks = decoder.field("standby_tasks", |decoder| {
            decoder.array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let warmup_tasks = decoder.field("warmup_tasks", |decoder| {
            decoder.array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            active_tasks,
            standby_tasks,
            warmup_tasks,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("active_tasks", |encoder| {
            encoder.array(&self.active_tasks, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("standby_tasks", |encoder| {
            encoder.array(&self.standby_tasks, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("warmup_tasks", |encoder| {
            encoder.array(&self.warmup_tasks, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.active_tasks {
            item.restrict_to_version(version);
        }
        for item in &mut self.standby_tasks {
            item.restrict_to_version(version);
        }
        for item in &mut self.warmup_tasks {
            item.restrict_to_version(version);
        }
    }
}

/// The `TaskIds` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TaskIds {
    /// Subtopology the tasks belong to.
    ///
    /// Versions 0+.
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    /// Task partitions, i.e. the input partition numbers each task handles.
    ///
    /// Versions 0+.
    #[serde(rename = "partitions")]
    pub partitions: Vec<i32>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TaskIds {
    #[inline]
    fn default() -> Self {
        TaskIds {
            subtopology_id: String::new(),
            partitions: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TaskIds {
    /// Sets `subtopology_id`.
    #[inline]
    pub fn with_subtopology_id(mut self, value: impl Into<String>) -> Self {
        self.subtopology_id = value.into();
        self
    }
    /// Sets `partitions`.
    #[inline]
    pub fn with_partitions(mut self, value: Vec<i32>) -> Self {
        self.partitions = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.string())?;
        let partitions = decoder.field("partitions", |decoder| {
            decoder.fixed_array(i32::from_be_bytes)
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopology_id,
            partitions,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("subtopology_id", |encoder| {
            encoder.string(&self.subtopology_id)
        })?;
        encoder.field("partitions", |encoder| {
            encoder.array(&self.partitions, |encoder, item| {
                encoder.i32(*item);
                Ok(())
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `KeyValue` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct KeyValue {
    /// Entry key.
    ///
    /// Versions 0+.
    #[serde(rename = "key")]
    pub key: String,
    /// Entry value.
    ///
    /// Versions 0+.
    #[serde(rename = "value")]
    pub value: String,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for KeyValue {
    #[inline]
    fn default() -> Self {
        KeyValue {
            key: String::new(),
            value: String::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl KeyValue {
    /// Sets `key`.
    #[inline]
    pub fn with_key(mut self, value: impl Into<String>) -> Self {
        self.key = value.into();
        self
    }
    /// Sets `value`.
    #[inline]
    pub fn with_value(mut self, value: impl Into<String>) -> Self {
        self.value = value.into();
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let key = decoder.field("key", |decoder| decoder.string())?;
        let value = decoder.field("value", |decoder| decoder.string())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            key,
            value,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("key", |encoder| encoder.string(&self.key))?;
        encoder.field("value", |encoder| encoder.string(&self.value))?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `TopicInfo` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopicInfo {
    /// Topic name.
    ///
    /// Versions 0+, entity type `topicName`.
    #[serde(rename = "name")]
    pub name: String,
    /// Partition count; 0 when not fixed, and always 0 for changelog topics.
    ///
    /// Versions 0+.
    #[serde(rename = "partitions")]
    pub partitions: i32,
    /// Replication factor; 0 means the broker default.
    ///
    /// Versions 0+.
    #[serde(rename = "replicationFactor")]
    pub replication_factor: i16,
    /// Topic configuration entries.
    ///
    /// Versions 0+.
    #[serde(rename = "topicConfigs")]
    pub topic_configs: Vec<KeyValue>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TopicInfo {
    #[inline]
    fn default() -> Self {
        TopicInfo {
            name: String::new(),
            partitions: 0,
            replication_factor: 0,
            topic_configs: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopicInfo {
    /// Sets `name`.
    #[inline]
    pub fn with_name(mut self, value: impl Into<String>) -> Self {
        self.name = value.into();
        self
    }
    /// Sets `partitions`.
    #[inline]
    pub fn with_partitions(mut self, value: i32) -> Self {
        self.partitions = value;
        self
    }
    /// Sets `replication_factor`.
    #[inline]
    pub fn with_replication_factor(mut self, value: i16) -> Self {
        self.replication_factor = value;
        self
    }
    /// Sets `topic_configs`.
    #[inline]
    pub fn with_topic_configs(mut self, value: Vec<KeyValue>) -> Self {
        self.topic_configs = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.string())?;
        let partitions = decoder.field("partitions", |decoder| decoder.i32())?;
        let replication_factor = decoder.field("replication_factor", |decoder| decoder.i16())?;
        let topic_configs = decoder.field("topic_configs", |decoder| {
            decoder.array(3, |decoder| KeyValue::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            name,
            partitions,
            replication_factor,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("name", |encoder| encoder.string(&self.name))?;
        encoder.i32(self.partitions);
        encoder.i16(self.replication_factor);
        encoder.field("topic_configs", |encoder| {
            encoder.array(&self.topic_configs, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.topic_configs {
            item.restrict_to_version(version);
        }
    }
}

/// The `TopologyDescription` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopologyDescription {
    /// The parts the topology is split into.
    ///
    /// Versions 1+.
    #[serde(rename = "subtopologies")]
    pub subtopologies: Vec<TopologyDescriptionSubtopology>,
    /// Stores replicated in full to every client, with how each is fed.
    ///
    /// Versions 1+.
    #[serde(rename = "globalStores")]
    pub global_stores: Vec<TopologyDescriptionGlobalStore>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TopologyDescription {
    #[inline]
    fn default() -> Self {
        TopologyDescription {
            subtopologies: Vec::new(),
            global_stores: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopologyDescription {
    /// Sets `subtopologies`.
    #[inline]
    pub fn with_subtopologies(mut self, value: Vec<TopologyDescriptionSubtopology>) -> Self {
        self.subtopologies = value;
        self
    }
    /// Sets `global_stores`.
    #[inline]
    pub fn with_global_stores(mut self, value: Vec<TopologyDescriptionGlobalStore>) -> Self {
        self.global_stores = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.array(1, |decoder| {
                TopologyDescriptionSubtopology::read(decoder, version)
            })
        })?;
        let global_stores = decoder.field("global_stores", |decoder| {
            decoder.array(1, |decoder| {
                TopologyDescriptionGlobalStore::read(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopologies,
            global_stores,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("subtopologies", |encoder| {
            encoder.array(&self.subtopologies, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("global_stores", |encoder| {
            encoder.array(&self.global_stores, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.subtopologies {
            item.restrict_to_version(version);
        }
        for item in &mut self.global_stores {
            item.restrict_to_version(version);
        }
    }
}

/// The `TopologyDescriptionSubtopology` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopologyDescriptionSubtopology {
    /// Subtopology id; no two subtopologies of a topology share one.
    ///
    /// Versions 1+.
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    /// Every node inside this subtopology.
    ///
    /// Versions 1+.
    #[serde(rename = "nodes")]
    pub nodes: Vec<TopologyDescriptionNode>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TopologyDescriptionSubtopology {
    #[inline]
    fn default() -> Self {
        TopologyDescriptionSubtopology {
            subtopology_id: String::new(),
            nodes: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopologyDescriptionSubtopology {
    /// Sets `subtopology_id`.
    #[inline]
    pub fn with_subtopology_id(mut self, value: impl Into<String>) -> Self {
        self.subtopology_id = value.into();
        self
    }
    /// Sets `nodes`.
    #[inline]
    pub fn with_nodes(mut self, value: Vec<TopologyDescriptionNode>) -> Self {
        self.nodes = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.string())?;
        let nodes = decoder.field("nodes", |decoder| {
            decoder.array(1, |decoder| TopologyDescriptionNode::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopology_id,
            nodes,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("subtopology_id", |encoder| {
            encoder.string(&self.subtopology_id)
        })?;
        encoder.field("nodes", |encoder| {
            encoder.array(&self.nodes, |encoder, item| item.write(encoder, version))
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in &mut self.nodes {
            item.restrict_to_version(version);
        }
    }
}

/// The `TopologyDescriptionNode` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopologyDescriptionNode {
    /// Node name, for example KSTREAM-SOURCE-0000000000.
    ///
    /// Versions 1+.
    #[serde(rename = "name")]
    pub name: String,
    /// Kind of node: 1 source, 2 processor, 3 sink.
    ///
    /// Versions 1+.
    #[serde(rename = "nodeType")]
    pub node_type: i8,
    /// Topics a source node consumes; empty when chosen at run time.
    ///
    /// Versions 1+, entity type `topicName`.
    #[serde(rename = "sourceTopics")]
    pub source_topics: Vec<String>,
    /// Topic a sink node produces to; null when chosen at run time.
    ///
    /// Versions 1+, nullable, entity type `topicName`.
    #[serde(rename = "sinkTopic")]
    pub sink_topic: Option<String>,
    /// State stores a processor node uses.
    ///
    /// Versions 1+.
    #[serde(rename = "stores")]
    pub stores: Vec<String>,
    /// Names of the nodes downstream of this one; predecessors follow from these.
    ///
    /// Versions 1+.
    #[serde(rename = "successors")]
    pub successors: Vec<String>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TopologyDescriptionNode {
    #[inline]
    fn default() -> Self {
        TopologyDescriptionNode {
            name: String::new(),
            node_type: 0,
            source_topics: Vec::new(),
            sink_topic: None,
            stores: Vec::new(),
            successors: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopologyDescriptionNode {
    /// Sets `name`.
    #[inline]
    pub fn with_name(mut self, value: impl Into<String>) -> Self {
        self.name = value.into();
        self
    }
    /// Sets `node_type`.
    #[inline]
    pub fn with_node_type(mut self, value: i8) -> Self {
        self.node_type = value;
        self
    }
    /// Sets `source_topics`.
    #[inline]
    pub fn with_source_topics(mut self, value: Vec<String>) -> Self {
        self.source_topics = value;
        self
    }
    /// Sets `sink_topic`.
    #[inline]
    pub fn with_sink_topic(mut self, value: Option<String>) -> Self {
        self.sink_topic = value;
        self
    }
    /// Sets `stores`.
    #[inline]
    pub fn with_stores(mut self, value: Vec<String>) -> Self {
        self.stores = value;
        self
    }
    /// Sets `successors`.
    #[inline]
    pub fn with_successors(mut self, value: Vec<String>) -> Self {
        self.successors = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.string())?;
        let node_type = decoder.field("node_type", |decoder| decoder.i8())?;
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let sink_topic = decoder.field("sink_topic", |decoder| decoder.nullable_string())?;
        let stores = decoder.field("stores", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let successors = decoder.field("successors", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            name,
            node_type,
            source_topics,
            sink_topic,
            stores,
            successors,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("name", |encoder| encoder.string(&self.name))?;
        encoder.i8(self.node_type);
        encoder.field("source_topics", |encoder| {
            encoder.array(&self.source_topics, |encoder, item| encoder.string(item))
        })?;
        encoder.field("sink_topic", |encoder| {
            encoder.nullable_string(self.sink_topic.as_deref())
        })?;
        encoder.field("stores", |encoder| {
            encoder.array(&self.stores, |encoder, item| encoder.string(item))
        })?;
        encoder.field("successors", |encoder| {
            encoder.array(&self.successors, |encoder, item| encoder.string(item))
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `TopologyDescriptionGlobalStore` struct of `StreamsGroupDescribeResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopologyDescriptionGlobalStore {
    /// Node that reads the global store's input topic.
    ///
    /// Versions 1+.
    #[serde(rename = "source")]
    pub source: TopologyDescriptionNode,
    /// Node that writes the incoming records into the global store.
    ///
    /// Versions 1+.
    #[serde(rename = "processor")]
    pub processor: TopologyDescriptionNode,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for TopologyDescriptionGlobalStore {
    #[inline]
    fn default() -> Self {
        TopologyDescriptionGlobalStore {
            source: TopologyDescriptionNode::default(),
            processor: TopologyDescriptionNode::default(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopologyDescriptionGlobalStore {
    /// Sets `source`.
    #[inline]
    pub fn with_source(mut self, value: TopologyDescriptionNode) -> Self {
        self.source = value;
        self
    }
    /// Sets `processor`.
    #[inline]
    pub fn with_processor(mut self, value: TopologyDescriptionNode) -> Self {
        self.processor = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let source = decoder.field("source", |decoder| {
            TopologyDescriptionNode::read(decoder, version)
        })?;
        let processor = decoder.field("processor", |decoder| {
            TopologyDescriptionNode::read(decoder, version)
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            source,
            processor,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("source", |encoder| self.source.write(encoder, version))?;
        encoder.field("processor", |encoder| {
            self.processor.write(encoder, version)
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        self.source.restrict_to_version(version);
        self.processor.restrict_to_version(version);
    }
}

/// [`StreamsGroupDescribeResponse`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct StreamsGroupDescribeResponseView<'a> {
    /// See [`StreamsGroupDescribeResponse::throttle_time_ms`].
    pub throttle_time_ms: i32,
    /// See [`StreamsGroupDescribeResponse::groups`].
    pub groups: ArrayView<'a, DescribedGroupView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for StreamsGroupDescribeResponseView<'_> {
    fn default() -> Self {
        StreamsGroupDescribeResponseView {
            throttle_time_ms: 0,
            groups: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> StreamsGroupDescribeResponseView<'a> {
    /// Decodes exactly one message filling `bytes`, refusing what [`crate::WireMessage::decode_exact`] refuses for [`StreamsGroupDescribeResponse`], with the same error, and allocating nothing.
    #[inline(always)]
    pub fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let versions = <StreamsGroupDescribeResponse as crate::WireMessage>::VERSIONS;
        if version < versions.min || version > versions.max {
            return Err(DecodeError::new(
                0,
                DecodeErrorKind::UnsupportedVersion {
                    message: <StreamsGroupDescribeResponse as crate::WireMessage>::NAME,
                    version,
                },
            ));
        }
        Self::read(&mut Decoder::exact(bytes), version)
    }

    #[inline(always)]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let throttle_time_ms = decoder.field("throttle_time_ms", |decoder| decoder.i32())?;
        let groups = decoder.field("groups", |decoder| {
            decoder.array_view(version, 20, |decoder| {
                DescribedGroupView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            throttle_time_ms,
            groups,
            unknown_tagged_fields,
        })
    }

    /// The owned [`StreamsGroupDescribeResponse`] with the same values.
    pub fn to_owned(&self) -> StreamsGroupDescribeResponse {
        StreamsGroupDescribeResponse {
            throttle_time_ms: self.throttle_time_ms,
            groups: self
                .groups
                .iter()
                .map(|item| DescribedGroupView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.throttle_time_ms));
        self.groups.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.throttle_time_ms));
        visitor.array(self.groups.len());
        for item in self.groups.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for StreamsGroupDescribeResponseView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let throttle_time_ms = cursor.i32()?;
        let groups = cursor.array::<DescribedGroupView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            throttle_time_ms,
            groups,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip(4)?;
        cursor.skip_array::<DescribedGroupView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.integer(i64::from(cursor.i32()?));
        cursor.visit_array::<DescribedGroupView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

impl<'a> MessageView<'a> for StreamsGroupDescribeResponseView<'a> {
    type Owned = StreamsGroupDescribeResponse;
    #[inline(always)]
    fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        StreamsGroupDescribeResponseView::decode(bytes, version)
    }
    fn to_message(&self) -> StreamsGroupDescribeResponse {
        self.to_owned()
    }
    fn visit_values<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit(visitor)
    }
    fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit_fields(visitor)
    }
}

/// [`DescribedGroup`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct DescribedGroupView<'a> {
    /// See [`DescribedGroup::error_code`].
    pub error_code: i16,
    /// See [`DescribedGroup::error_message`].
    pub error_message: Option<&'a str>,
    /// See [`DescribedGroup::group_id`].
    pub group_id: &'a str,
    /// See [`DescribedGroup::group_state`].
    pub group_state: &'a str,
    /// See [`DescribedGroup::group_epoch`].
    pub group_epoch: i32,
    /// See [`DescribedGroup::assignment_epoch`].
    pub assignment_epoch: i32,
    /// See [`DescribedGroup::topology`].
    pub topology: Option<TopologyView<'a>>,
    /// See [`DescribedGroup::members`].
    pub members: ArrayView<'a, MemberView<'a>>,
    /// See [`DescribedGroup::authorized_operations`].
    pub authorized_operations: i32,
    /// See [`DescribedGroup::topology_description`].
    pub topology_description: Option<TopologyDescriptionView<'a>>,
    /// See [`DescribedGroup::topology_description_status`].
    pub topology_description_status: i8,
    /// See [`DescribedGroup::assignor_name`].
    pub assignor_name: Option<&'a str>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for DescribedGroupView<'_> {
    fn default() -> Self {
        DescribedGroupView {
            error_code: 0,
            error_message: None,
            group_id: "",
            group_state: "",
            group_epoch: 0,
            assignment_epoch: 0,
            topology: None,
            members: ArrayView::default(),
            authorized_operations: -2147483648,
            topology_description: None,
            topology_description_status: 0,
            assignor_name: None,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> DescribedGroupView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let error_code = decoder.field("error_code", |decoder| decoder.i16())?;
        let error_message = decoder.field("error_message", |decoder| decoder.nullable_str())?;
        let group_id = decoder.field("group_id", |decoder| decoder.str())?;
        let group_state = decoder.field("group_state", |decoder| decoder.str())?;
        let group_epoch = decoder.field("group_epoch", |decoder| decoder.i32())?;
        let assignment_epoch = decoder.field("assignment_epoch", |decoder| decoder.i32())?;
        let topology = decoder.field("topology", |decoder| {
            decoder.nullable_struct(|decoder| TopologyView::read(decoder, version))
        })?;
        let members = decoder.field("members", |decoder| {
            decoder.array_view(version, 28, |decoder| MemberView::check(decoder, version))
        })?;
        let authorized_operations =
            decoder.field("authorized_operations", |decoder| decoder.i32())?;
        let topology_description = if version >= 1 {
            decoder.field("topology_description", |decoder| {
                decoder.nullable_struct(|decoder| TopologyDescriptionView::read(decoder, version))
            })?
        } else {
            None
        };
        let topology_description_status = if version >= 1 {
            decoder.field("topology_description_status", |decoder| decoder.i8())?
        } else {
            0
        };
        let assignor_name = if version >= 1 {
            decoder.field("assignor_name", |decoder| decoder.nullable_str())?
        } else {
            None
        };
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            error_code,
            error_message,
            group_id,
            group_state,
            group_epoch,
            assignment_epoch,
            topology,
            members,
            authorized_operations,
            topology_description,
            topology_description_status,
            assignor_name,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("error_code", |decoder| decoder.i16().map(drop))?;
        decoder.field("error_message", |decoder| decoder.check_nullable_str())?;
        decoder.field("group_id", |decoder| decoder.check_str())?;
        decoder.field("group_state", |decoder| decoder.check_str())?;
        decoder.field("group_epoch", |decoder| decoder.i32().map(drop))?;
        decoder.field("assignment_epoch", |decoder| decoder.i32().map(drop))?;
        decoder.field("topology", |decoder| {
            decoder
                .nullable_struct(|decoder| TopologyView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("members", |decoder| {
            decoder
                .array_view::<()>(version, 28, |decoder| MemberView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("authorized_operations", |decoder| decoder.i32().map(drop))?;
        if version >= 1 {
            decoder.field("topology_description", |decoder| {
                decoder
                    .nullable_struct(|decoder| TopologyDescriptionView::check(decoder, version))
                    .map(drop)
            })?;
        }
        if version >= 1 {
            decoder.field("topology_description_status", |decoder| {
                decoder.i8().map(drop)
            })?;
        }
        if version >= 1 {
            decoder.field("assignor_name", |decoder| decoder.check_nullable_str())?;
        }
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`DescribedGroup`] with the same values.
    pub fn to_owned(&self) -> DescribedGroup {
        DescribedGroup {
            error_code: self.error_code,
            error_message: self.error_message.map(String::from),
            group_id: String::from(self.group_id),
            group_state: String::from(self.group_state),
            group_epoch: self.group_epoch,
            assignment_epoch: self.assignment_epoch,
            topology: self.topology.as_ref().map(TopologyView::to_owned),
            members: self
                .members
                .iter()
                .map(|item| MemberView::to_owned(&item))
                .collect(),
            authorized_operations: self.authorized_operations,
            topology_description: self
                .topology_description
                .as_ref()
                .map(TopologyDescriptionView::to_owned),
            topology_description_status: self.topology_description_status,
            assignor_name: self.assignor_name.map(String::from),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.error_code));
        match self.error_message {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.group_id);
        visitor.string(self.group_state);
        visitor.integer(i64::from(self.group_epoch));
        visitor.integer(i64::from(self.assignment_epoch));
        match &self.topology {
            Some(value) => {
                value.visit(visitor);
            }
            None => visitor.null(),
        }
        self.members.visit_items(visitor);
        visitor.integer(i64::from(self.authorized_operations));
        match &self.topology_description {
            Some(value) => {
                value.visit(visitor);
            }
            None => visitor.null(),
        }
        visitor.integer(i64::from(self.topology_description_status));
        match self.assignor_name {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.error_code));
        match self.error_message {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.group_id);
        visitor.string(self.group_state);
        visitor.integer(i64::from(self.group_epoch));
        visitor.integer(i64::from(self.assignment_epoch));
        match &self.topology {
            Some(value) => {
                value.visit_fields(visitor);
            }
            None => visitor.null(),
        }
        visitor.array(self.members.len());
        for item in self.members.iter() {
            item.visit_fields(visitor);
        }
        visitor.integer(i64::from(self.authorized_operations));
        match &self.topology_description {
            Some(value) => {
                value.visit_fields(visitor);
            }
            None => visitor.null(),
        }
        visitor.integer(i64::from(self.topology_description_status));
        match self.assignor_name {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for DescribedGroupView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let error_code = cursor.i16()?;
        let error_message = cursor.nullable_string()?;
        let group_id = cursor.string()?;
        let group_state = cursor.string()?;
        let group_epoch = cursor.i32()?;
        let assignment_epoch = cursor.i32()?;
        let topology = match cursor.present()? {
            true => TopologyView::parse(cursor, version).map(Some),
            false => Some(None),
        }?;
        let members = cursor.array::<MemberView<'a>>(version)?;
        let authorized_operations = cursor.i32()?;
        let topology_description = if version >= 1 {
            match cursor.present()? {
                true => TopologyDescriptionView::parse(cursor, version).map(Some),
                false => Some(None),
            }?
        } else {
            None
        };
        let topology_description_status = if version >= 1 { cursor.i8()? } else { 0 };
        let assignor_name = if version >= 1 {
            cursor.nullable_string()?
        } else {
            None
        };
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            error_code,
            error_message,
            group_id,
            group_state,
            group_epoch,
            assignment_epoch,
            topology,
            members,
            authorized_operations,
            topology_description,
            topology_description_status,
            assignor_name,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip(2)?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip(4)?;
        if cursor.present()? {
            TopologyView::skip(cursor, version)?;
        }
        cursor.skip_array::<MemberView<'a>>(version)?;
        cursor.skip(4)?;
        if version >= 1 && cursor.present()? {
            TopologyDescriptionView::skip(cursor, version)?;
        }
        if version >= 1 {
            cursor.skip(1)?;
        }
        if version >= 1 {
            cursor.skip_string()?;
        }
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.integer(i64::from(cursor.i16()?));
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        visitor.string(cursor.string()?);
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        visitor.integer(i64::from(cursor.i32()?));
        if cursor.present()? {
            TopologyView::visit_bytes(cursor, version, visitor)?;
        } else {
            visitor.null();
        }
        cursor.visit_array::<MemberView<'a>, V>(version, visitor)?;
        visitor.integer(i64::from(cursor.i32()?));
        if version >= 1 {
            if cursor.present()? {
                TopologyDescriptionView::visit_bytes(cursor, version, visitor)?;
            } else {
                visitor.null();
            }
        } else {
            let absent: Option<TopologyDescriptionView<'a>> = None;
            match &absent {
                Some(value) => {
                    value.visit(visitor);
                }
                None => visitor.null(),
            }
        }
        if version >= 1 {
            visitor.integer(i64::from(cursor.i8()?));
        } else {
            let absent: i8 = 0;
            visitor.integer(i64::from(absent));
        }
        if version >= 1 {
            match cursor.nullable_string()? {
                Some(value) => visitor.string(value),
                None => visitor.null(),
            }
        } else {
            let absent: Option<&'a str> = None;
            match absent {
                Some(value) => {
                    visitor.string(value);
                }
                None => visitor.null(),
            }
        }
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Topology`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyView<'a> {
    /// See [`Topology::epoch`].
    pub epoch: i32,
    /// See [`Topology::subtopologies`].
    pub subtopologies: Option<ArrayView<'a, SubtopologyView<'a>>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyView<'_> {
    fn default() -> Self {
        TopologyView {
            epoch: 0,
            subtopologies: None,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let epoch = decoder.field("epoch", |decoder| decoder.i32())?;
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.nullable_array_view(version, 6, |decoder| {
                SubtopologyView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            epoch,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("epoch", |decoder| decoder.i32().map(drop))?;
        decoder.field("subtopologies", |decoder| {
            decoder
                .nullable_array_view::<()>(version, 6, |decoder| {
                    SubtopologyView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Topology`] with the same values.
    pub fn to_owned(&self) -> Topology {
        Topology {
            epoch: self.epoch,
            subtopologies: self.subtopologies.map(|items| {
                items
                    .iter()
                    .map(|item| SubtopologyView::to_owned(&item))
                    .collect()
            }),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.epoch));
        match self.subtopologies {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.epoch));
        match self.subtopologies {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let epoch = cursor.i32()?;
        let subtopologies = cursor.nullable_array::<SubtopologyView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            epoch,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip(4)?;
        cursor.skip_array::<SubtopologyView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.integer(i64::from(cursor.i32()?));
        cursor.visit_array::<SubtopologyView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Subtopology`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct SubtopologyView<'a> {
    /// See [`Subtopology::subtopology_id`].
    pub subtopology_id: &'a str,
    /// See [`Subtopology::source_topics`].
    pub source_topics: ArrayView<'a, &'a str>,
    /// See [`Subtopology::repartition_sink_topics`].
    pub repartition_sink_topics: ArrayView<'a, &'a str>,
    /// See [`Subtopology::state_changelog_topics`].
    pub state_changelog_topics: ArrayView<'a, TopicInfoView<'a>>,
    /// See [`Subtopology::repartition_source_topics`].
    pub repartition_source_topics: ArrayView<'a, TopicInfoView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for SubtopologyView<'_> {
    fn default() -> Self {
        SubtopologyView {
            subtopology_id: "",
            source_topics: ArrayView::default(),
            repartition_sink_topics: ArrayView::default(),
            state_changelog_topics: ArrayView::default(),
            repartition_source_topics: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> SubtopologyView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.str())?;
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let repartition_sink_topics = decoder.field("repartition_sink_topics", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let state_changelog_topics = decoder.field("state_changelog_topics", |decoder| {
            decoder.array_view(version, 9, |decoder| TopicInfoView::check(decoder, version))
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.array_view(version, 9, |decoder| TopicInfoView::check(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopology_id,
            source_topics,
            repartition_sink_topics,
            state_changelog_topics,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("subtopology_id", |decoder| decoder.check_str())?;
        decoder.field("source_topics", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("repartition_sink_topics", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("state_changelog_topics", |decoder| {
            decoder
                .array_view::<()>(version, 9, |decoder| TopicInfoView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("repartition_source_topics", |decoder| {
            decoder
                .array_view::<()>(version, 9, |decoder| TopicInfoView::check(decoder, version))
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Subtopology`] with the same values.
    pub fn to_owned(&self) -> Subtopology {
        Subtopology {
            subtopology_id: String::from(self.subtopology_id),
            source_topics: self.source_topics.iter().map(String::from).collect(),
            repartition_sink_topics: self
                .repartition_sink_topics
                .iter()
                .map(String::from)
                .collect(),
            state_changelog_topics: self
                .state_changelog_topics
                .iter()
                .map(|item| TopicInfoView::to_owned(&item))
                .collect(),
            repartition_source_topics: self
                .repartition_source_topics
                .iter()
                .map(|item| TopicInfoView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        self.source_topics.visit_items(visitor);
        self.repartition_sink_topics.visit_items(visitor);
        self.state_changelog_topics.visit_items(visitor);
        self.repartition_source_topics.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        visitor.array(self.source_topics.len());
        for item in self.source_topics.iter() {
            visitor.string(item);
        }
        visitor.array(self.repartition_sink_topics.len());
        for item in self.repartition_sink_topics.iter() {
            visitor.string(item);
        }
        visitor.array(self.state_changelog_topics.len());
        for item in self.state_changelog_topics.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.repartition_source_topics.len());
        for item in self.repartition_source_topics.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for SubtopologyView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let subtopology_id = cursor.string()?;
        let source_topics = cursor.array::<&'a str>(version)?;
        let repartition_sink_topics = cursor.array::<&'a str>(version)?;
        let state_changelog_topics = cursor.array::<TopicInfoView<'a>>(version)?;
        let repartition_source_topics = cursor.array::<TopicInfoView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopology_id,
            source_topics,
            repartition_sink_topics,
            state_changelog_topics,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<TopicInfoView<'a>>(version)?;
        cursor.skip_array::<TopicInfoView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        cursor.visit_array::<TopicInfoView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TopicInfoView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Member`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct MemberView<'a> {
    /// See [`Member::member_id`].
    pub member_id: &'a str,
    /// See [`Member::member_epoch`].
    pub member_epoch: i32,
    /// See [`Member::instance_id`].
    pub instance_id: Option<&'a str>,
    /// See [`Member::rack_id`].
    pub rack_id: Option<&'a str>,
    /// See [`Member::client_id`].
    pub client_id: &'a str,
    /// See [`Member::client_host`].
    pub client_host: &'a str,
    /// See [`Member::topology_epoch`].
    pub topology_epoch: i32,
    /// See [`Member::process_id`].
    pub process_id: &'a str,
    /// See [`Member::user_endpoint`].
    pub user_endpoint: Option<EndpointView<'a>>,
    /// See [`Member::client_tags`].
    pub client_tags: ArrayView<'a, KeyValueView<'a>>,
    /// See [`Member::task_offsets`].
    pub task_offsets: ArrayView<'a, TaskOffsetView<'a>>,
    /// See [`Member::task_end_offsets`].
    pub task_end_offsets: ArrayView<'a, TaskOffsetView<'a>>,
    /// See [`Member::assignment`].
    pub assignment: AssignmentView<'a>,
    /// See [`Member::target_assignment`].
    pub target_assignment: AssignmentView<'a>,
    /// See [`Member::is_classic`].
    pub is_classic: bool,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for MemberView<'_> {
    fn default() -> Self {
        MemberView {
            member_id: "",
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            client_id: "",
            client_host: "",
            topology_epoch: 0,
            process_id: "",
            user_endpoint: None,
            client_tags: ArrayView::default(),
            task_offsets: ArrayView::default(),
            task_end_offsets: ArrayView::default(),
            assignment: AssignmentView::default(),
            target_assignment: AssignmentView::default(),
            is_classic: false,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> MemberView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let member_id = decoder.field("member_id", |decoder| decoder.str())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let instance_id = decoder.field("instance_id", |decoder| decoder.nullable_str())?;
        let rack_id = decoder.field("rack_id", |decoder| decoder.nullable_str())?;
        let client_id = decoder.field("client_id", |decoder| decoder.str())?;
        let client_host = decoder.field("client_host", |decoder| decoder.str())?;
        let topology_epoch = decoder.field("topology_epoch", |decoder| decoder.i32())?;
        let process_id = decoder.field("process_id", |decoder| decoder.str())?;
        let user_endpoint = decoder.field("user_endpoint", |decoder| {
            decoder.nullable_struct(|decoder| EndpointView::read(decoder, version))
        })?;
        let client_tags = decoder.field("client_tags", |decoder| {
            decoder.array_view(version, 3, |decoder| KeyValueView::check(decoder, version))
        })?;
        let task_offsets = decoder.field("task_offsets", |decoder| {
            decoder.array_view(version, 14, |decoder| {
                TaskOffsetView::check(decoder, version)
            })
        })?;
        let task_end_offsets = decoder.field("task_end_offsets", |decoder| {
            decoder.array_view(version, 14, |decoder| {
                TaskOffsetView::check(decoder, version)
            })
        })?;
        let assignment = decoder.field("assignment", |decoder| {
            AssignmentView::read(decoder, version)
        })?;
        let target_assignment = decoder.field("target_assignment", |decoder| {
            AssignmentView::read(decoder, version)
        })?;
        let is_classic = decoder.field("is_classic", |decoder| decoder.bool())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            client_id,
            client_host,
            topology_epoch,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            assignment,
            target_assignment,
            is_classic,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("member_id", |decoder| decoder.check_str())?;
        decoder.field("member_epoch", |decoder| decoder.i32().map(drop))?;
        decoder.field("instance_id", |decoder| decoder.check_nullable_str())?;
        decoder.field("rack_id", |decoder| decoder.check_nullable_str())?;
        decoder.field("client_id", |decoder| decoder.check_str())?;
        decoder.field("client_host", |decoder| decoder.check_str())?;
        decoder.field("topology_epoch", |decoder| decoder.i32().map(drop))?;
        decoder.field("process_id", |decoder| decoder.check_str())?;
        decoder.field("user_endpoint", |decoder| {
            decoder
                .nullable_struct(|decoder| EndpointView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("client_tags", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| KeyValueView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("task_offsets", |decoder| {
            decoder
                .array_view::<()>(version, 14, |decoder| {
                    TaskOffsetView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.field("task_end_offsets", |decoder| {
            decoder
                .array_view::<()>(version, 14, |decoder| {
                    TaskOffsetView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.field("assignment", |decoder| {
            AssignmentView::check(decoder, version)
        })?;
        decoder.field("target_assignment", |decoder| {
            AssignmentView::check(decoder, version)
        })?;
        decoder.field("is_classic", |decoder| decoder.bool().map(drop))?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Member`] with the same values.
    pub fn to_owned(&self) -> Member {
        Member {
            member_id: String::from(self.member_id),
            member_epoch: self.member_epoch,
            instance_id: self.instance_id.map(String::from),
            rack_id: self.rack_id.map(String::from),
            client_id: String::from(self.client_id),
            client_host: String::from(self.client_host),
            topology_epoch: self.topology_epoch,
            process_id: String::from(self.process_id),
            user_endpoint: self.user_endpoint.as_ref().map(EndpointView::to_owned),
            client_tags: self
                .client_tags
                .iter()
                .map(|item| KeyValueView::to_owned(&item))
                .collect(),
            task_offsets: self
                .task_offsets
                .iter()
                .map(|item| TaskOffsetView::to_owned(&item))
                .collect(),
            task_end_offsets: self
                .task_end_offsets
                .iter()
                .map(|item| TaskOffsetView::to_owned(&item))
                .collect(),
            assignment: AssignmentView::to_owned(&self.assignment),
            target_assignment: AssignmentView::to_owned(&self.target_assignment),
            is_classic: self.is_classic,
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.member_id);
        visitor.integer(i64::from(self.member_epoch));
        match self.instance_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        match self.rack_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.client_id);
        visitor.string(self.client_host);
        visitor.integer(i64::from(self.topology_epoch));
        visitor.string(self.process_id);
        match &self.user_endpoint {
            Some(value) => {
                value.visit(visitor);
            }
            None => visitor.null(),
        }
        self.client_tags.visit_items(visitor);
        self.task_offsets.visit_items(visitor);
        self.task_end_offsets.visit_items(visitor);
        self.assignment.visit(visitor);
        self.target_assignment.visit(visitor);
        visitor.integer(i64::from(self.is_classic));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.member_id);
        visitor.integer(i64::from(self.member_epoch));
        match self.instance_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        match self.rack_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.client_id);
        visitor.string(self.client_host);
        visitor.integer(i64::from(self.topology_epoch));
        visitor.string(self.process_id);
        match &self.user_endpoint {
            Some(value) => {
                value.visit_fields(visitor);
            }
            None => visitor.null(),
        }
        visitor.array(self.client_tags.len());
        for item in self.client_tags.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.task_offsets.len());
        for item in self.task_offsets.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.task_end_offsets.len());
        for item in self.task_end_offsets.iter() {
            item.visit_fields(visitor);
        }
        self.assignment.visit_fields(visitor);
        self.target_assignment.visit_fields(visitor);
        visitor.integer(i64::from(self.is_classic));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for MemberView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let member_id = cursor.string()?;
        let member_epoch = cursor.i32()?;
        let instance_id = cursor.nullable_string()?;
        let rack_id = cursor.nullable_string()?;
        let client_id = cursor.string()?;
        let client_host = cursor.string()?;
        let topology_epoch = cursor.i32()?;
        let process_id = cursor.string()?;
        let user_endpoint = match cursor.present()? {
            true => EndpointView::parse(cursor, version).map(Some),
            false => Some(None),
        }?;
        let client_tags = cursor.array::<KeyValueView<'a>>(version)?;
        let task_offsets = cursor.array::<TaskOffsetView<'a>>(version)?;
        let task_end_offsets = cursor.array::<TaskOffsetView<'a>>(version)?;
        let assignment = AssignmentView::parse(cursor, version)?;
        let target_assignment = AssignmentView::parse(cursor, version)?;
        let is_classic = cursor.bool()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            client_id,
            client_host,
            topology_epoch,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            assignment,
            target_assignment,
            is_classic,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip_string()?;
        if cursor.present()? {
            EndpointView::skip(cursor, version)?;
        }
        cursor.skip_array::<KeyValueView<'a>>(version)?;
        cursor.skip_array::<TaskOffsetView<'a>>(version)?;
        cursor.skip_array::<TaskOffsetView<'a>>(version)?;
        AssignmentView::skip(cursor, version)?;
        AssignmentView::skip(cursor, version)?;
        cursor.skip(1)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        visitor.string(cursor.string()?);
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        visitor.string(cursor.string()?);
        if cursor.present()? {
            EndpointView::visit_bytes(cursor, version, visitor)?;
        } else {
            visitor.null();
        }
        cursor.visit_array::<KeyValueView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskOffsetView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskOffsetView<'a>, V>(version, visitor)?;
        AssignmentView::visit_bytes(cursor, version, visitor)?;
        AssignmentView::visit_bytes(cursor, version, visitor)?;
        visitor.integer(i64::from(cursor.bool()?));
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Endpoint`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct EndpointView<'a> {
    /// See [`Endpoint::host`].
    pub host: &'a str,
    /// See [`Endpoint::port`].
    pub port: u16,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for EndpointView<'_> {
    fn default() -> Self {
        EndpointView {
            host: "",
            port: 0,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> EndpointView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<Self> {
        let host = decoder.field("host", |decoder| decoder.str())?;
        let port = decoder.field("port", |decoder| decoder.u16())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            host,
            port,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<()> {
        decoder.field("host", |decoder| decoder.check_str())?;
        decoder.field("port", |decoder| decoder.u16().map(drop))?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Endpoint`] with the same values.
    pub fn to_owned(&self) -> Endpoint {
        Endpoint {
            host: String::from(self.host),
            port: self.port,
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.host);
        visitor.integer(i64::from(self.port));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.host);
        visitor.integer(i64::from(self.port));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for EndpointView<'a> {
    fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
        let host = cursor.string()?;
        let port = cursor.u16()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            host,
            port,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(2)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.u16()?));
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TaskOffset`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TaskOffsetView<'a> {
    /// See [`TaskOffset::subtopology_id`].
    pub subtopology_id: &'a str,
    /// See [`TaskOffset::partition`].
    pub partition: i32,
    /// See [`TaskOffset::offset`].
    pub offset: i64,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TaskOffsetView<'_> {
    fn default() -> Self {
        TaskOffsetView {
            subtopology_id: "",
            partition: 0,
            offset: 0,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TaskOffsetView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.str())?;
        let partition = decoder.field("partition", |decoder| decoder.i32())?;
        let offset = decoder.field("offset", |decoder| decoder.i64())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopology_id,
            partition,
            offset,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<()> {
        decoder.field("subtopology_id", |decoder| decoder.check_str())?;
        decoder.field("partition", |decoder| decoder.i32().map(drop))?;
        decoder.field("offset", |decoder| decoder.i64().map(drop))?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TaskOffset`] with the same values.
    pub fn to_owned(&self) -> TaskOffset {
        TaskOffset {
            subtopology_id: String::from(self.subtopology_id),
            partition: self.partition,
            offset: self.offset,
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        visitor.integer(i64::from(self.partition));
        visitor.integer(self.offset);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        visitor.integer(i64::from(self.partition));
        visitor.integer(self.offset);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TaskOffsetView<'a> {
    fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
        let subtopology_id = cursor.string()?;
        let partition = cursor.i32()?;
        let offset = cursor.i64()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopology_id,
            partition,
            offset,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip(8)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        visitor.integer(cursor.i64()?);
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Assignment`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct AssignmentView<'a> {
    /// See [`Assignment::active_tasks`].
    pub active_tasks: ArrayView<'a, TaskIdsView<'a>>,
    /// See [`Assignment::standby_tasks`].
    pub standby_tasks: ArrayView<'a, TaskIdsView<'a>>,
    /// See [`Assignment::warmup_tasks`].
    pub warmup_tasks: ArrayView<'a, TaskIdsView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for AssignmentView<'_> {
    fn default() -> Self {
        AssignmentView {
            active_tasks: ArrayView::default(),
            standby_tasks: ArrayView::default(),
            warmup_tasks: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> AssignmentView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let active_tasks = decoder.field("active_tasks", |decoder| {
            decoder.array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let standby_tasks = decoder.field("standby_tasks", |decoder| {
            decoder.array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let warmup_tasks = decoder.field("warmup_tasks", |decoder| {
            decoder.array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            active_tasks,
            standby_tasks,
            warmup_tasks,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("active_tasks", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| TaskIdsView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("standby_tasks", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| TaskIdsView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("warmup_tasks", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| TaskIdsView::check(decoder, version))
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Assignment`] with the same values.
    pub fn to_owned(&self) -> Assignment {
        Assignment {
            active_tasks: self
                .active_tasks
                .iter()
                .map(|item| TaskIdsView::to_owned(&item))
                .collect(),
            standby_tasks: self
                .standby_tasks
                .iter()
                .map(|item| TaskIdsView::to_owned(&item))
                .collect(),
            warmup_tasks: self
                .warmup_tasks
                .iter()
                .map(|item| TaskIdsView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.active_tasks.visit_items(visitor);
        self.standby_tasks.visit_items(visitor);
        self.warmup_tasks.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.array(self.active_tasks.len());
        for item in self.active_tasks.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.standby_tasks.len());
        for item in self.standby_tasks.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.warmup_tasks.len());
        for item in self.warmup_tasks.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for AssignmentView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let active_tasks = cursor.array::<TaskIdsView<'a>>(version)?;
        let standby_tasks = cursor.array::<TaskIdsView<'a>>(version)?;
        let warmup_tasks = cursor.array::<TaskIdsView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            active_tasks,
            standby_tasks,
            warmup_tasks,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TaskIds`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TaskIdsView<'a> {
    /// See [`TaskIds::subtopology_id`].
    pub subtopology_id: &'a str,
    /// See [`TaskIds::partitions`].
    pub partitions: ArrayView<'a, i32>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TaskIdsView<'_> {
    fn default() -> Self {
        TaskIdsView {
            subtopology_id: "",
            partitions: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TaskIdsView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.str())?;
        let partitions = decoder.field("partitions", |decoder| {
            decoder.fixed_array_view::<i32, 4>(version)
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopology_id,
            partitions,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("subtopology_id", |decoder| decoder.check_str())?;
        decoder.field("partitions", |decoder| {
            decoder.fixed_array_view::<(), 4>(version).map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TaskIds`] with the same values.
    pub fn to_owned(&self) -> TaskIds {
        TaskIds {
            subtopology_id: String::from(self.subtopology_id),
            partitions: self.partitions.iter().collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        self.partitions.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        visitor.array(self.partitions.len());
        for item in self.partitions.iter() {
            visitor.integer(i64::from(item));
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TaskIdsView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let subtopology_id = cursor.string()?;
        let partitions = cursor.array::<i32>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopology_id,
            partitions,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_array::<i32>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        cursor.visit_array::<i32, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`KeyValue`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct KeyValueView<'a> {
    /// See [`KeyValue::key`].
    pub key: &'a str,
    /// See [`KeyValue::value`].
    pub value: &'a str,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for KeyValueView<'_> {
    fn default() -> Self {
        KeyValueView {
            key: "",
            value: "",
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> KeyValueView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<Self> {
        let key = decoder.field("key", |decoder| decoder.str())?;
        let value = decoder.field("value", |decoder| decoder.str())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            key,
            value,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<()> {
        decoder.field("key", |decoder| decoder.check_str())?;
        decoder.field("value", |decoder| decoder.check_str())?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`KeyValue`] with the same values.
    pub fn to_owned(&self) -> KeyValue {
        KeyValue {
            key: String::from(self.key),
            value: String::from(self.value),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.key);
        visitor.string(self.value);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.key);
        visitor.string(self.value);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for KeyValueView<'a> {
    fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
        let key = cursor.string()?;
        let value = cursor.string()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            key,
            value,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.string(cursor.string()?);
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopicInfo`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopicInfoView<'a> {
    /// See [`TopicInfo::name`].
    pub name: &'a str,
    /// See [`TopicInfo::partitions`].
    pub partitions: i32,
    /// See [`TopicInfo::replication_factor`].
    pub replication_factor: i16,
    /// See [`TopicInfo::topic_configs`].
    pub topic_configs: ArrayView<'a, KeyValueView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopicInfoView<'_> {
    fn default() -> Self {
        TopicInfoView {
            name: "",
            partitions: 0,
            replication_factor: 0,
            topic_configs: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopicInfoView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.str())?;
        let partitions = decoder.field("partitions", |decoder| decoder.i32())?;
        let replication_factor = decoder.field("replication_factor", |decoder| decoder.i16())?;
        let topic_configs = decoder.field("topic_configs", |decoder| {
            decoder.array_view(version, 3, |decoder| KeyValueView::check(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            name,
            partitions,
            replication_factor,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("name", |decoder| decoder.check_str())?;
        decoder.field("partitions", |decoder| decoder.i32().map(drop))?;
        decoder.field("replication_factor", |decoder| decoder.i16().map(drop))?;
        decoder.field("topic_configs", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| KeyValueView::check(decoder, version))
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopicInfo`] with the same values.
    pub fn to_owned(&self) -> TopicInfo {
        TopicInfo {
            name: String::from(self.name),
            partitions: self.partitions,
            replication_factor: self.replication_factor,
            topic_configs: self
                .topic_configs
                .iter()
                .map(|item| KeyValueView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.name);
        visitor.integer(i64::from(self.partitions));
        visitor.integer(i64::from(self.replication_factor));
        self.topic_configs.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.name);
        visitor.integer(i64::from(self.partitions));
        visitor.integer(i64::from(self.replication_factor));
        visitor.array(self.topic_configs.len());
        for item in self.topic_configs.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopicInfoView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let name = cursor.string()?;
        let partitions = cursor.i32()?;
        let replication_factor = cursor.i16()?;
        let topic_configs = cursor.array::<KeyValueView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            name,
            partitions,
            replication_factor,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip(2)?;
        cursor.skip_array::<KeyValueView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        visitor.integer(i64::from(cursor.i16()?));
        cursor.visit_array::<KeyValueView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopologyDescription`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyDescriptionView<'a> {
    /// See [`TopologyDescription::subtopologies`].
    pub subtopologies: ArrayView<'a, TopologyDescriptionSubtopologyView<'a>>,
    /// See [`TopologyDescription::global_stores`].
    pub global_stores: ArrayView<'a, TopologyDescriptionGlobalStoreView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyDescriptionView<'_> {
    fn default() -> Self {
        TopologyDescriptionView {
            subtopologies: ArrayView::default(),
            global_stores: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyDescriptionView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.array_view(version, 1, |decoder| {
                TopologyDescriptionSubtopologyView::check(decoder, version)
            })
        })?;
        let global_stores = decoder.field("global_stores", |decoder| {
            decoder.array_view(version, 1, |decoder| {
                TopologyDescriptionGlobalStoreView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopologies,
            global_stores,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("subtopologies", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| {
                    TopologyDescriptionSubtopologyView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.field("global_stores", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| {
                    TopologyDescriptionGlobalStoreView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopologyDescription`] with the same values.
    pub fn to_owned(&self) -> TopologyDescription {
        TopologyDescription {
            subtopologies: self
                .subtopologies
                .iter()
                .map(|item| TopologyDescriptionSubtopologyView::to_owned(&item))
                .collect(),
            global_stores: self
                .global_stores
                .iter()
                .map(|item| TopologyDescriptionGlobalStoreView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.subtopologies.visit_items(visitor);
        self.global_stores.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.array(self.subtopologies.len());
        for item in self.subtopologies.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.global_stores.len());
        for item in self.global_stores.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyDescriptionView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let subtopologies = cursor.array::<TopologyDescriptionSubtopologyView<'a>>(version)?;
        let global_stores = cursor.array::<TopologyDescriptionGlobalStoreView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopologies,
            global_stores,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_array::<TopologyDescriptionSubtopologyView<'a>>(version)?;
        cursor.skip_array::<TopologyDescriptionGlobalStoreView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        cursor.visit_array::<TopologyDescriptionSubtopologyView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TopologyDescriptionGlobalStoreView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopologyDescriptionSubtopology`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyDescriptionSubtopologyView<'a> {
    /// See [`TopologyDescriptionSubtopology::subtopology_id`].
    pub subtopology_id: &'a str,
    /// See [`TopologyDescriptionSubtopology::nodes`].
    pub nodes: ArrayView<'a, TopologyDescriptionNodeView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyDescriptionSubtopologyView<'_> {
    fn default() -> Self {
        TopologyDescriptionSubtopologyView {
            subtopology_id: "",
            nodes: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyDescriptionSubtopologyView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let subtopology_id = decoder.field("subtopology_id", |decoder| decoder.str())?;
        let nodes = decoder.field("nodes", |decoder| {
            decoder.array_view(version, 1, |decoder| {
                TopologyDescriptionNodeView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopology_id,
            nodes,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("subtopology_id", |decoder| decoder.check_str())?;
        decoder.field("nodes", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| {
                    TopologyDescriptionNodeView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopologyDescriptionSubtopology`] with the same values.
    pub fn to_owned(&self) -> TopologyDescriptionSubtopology {
        TopologyDescriptionSubtopology {
            subtopology_id: String::from(self.subtopology_id),
            nodes: self
                .nodes
                .iter()
                .map(|item| TopologyDescriptionNodeView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        self.nodes.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        visitor.array(self.nodes.len());
        for item in self.nodes.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyDescriptionSubtopologyView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let subtopology_id = cursor.string()?;
        let nodes = cursor.array::<TopologyDescriptionNodeView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopology_id,
            nodes,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_array::<TopologyDescriptionNodeView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        cursor.visit_array::<TopologyDescriptionNodeView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopologyDescriptionNode`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyDescriptionNodeView<'a> {
    /// See [`TopologyDescriptionNode::name`].
    pub name: &'a str,
    /// See [`TopologyDescriptionNode::node_type`].
    pub node_type: i8,
    /// See [`TopologyDescriptionNode::source_topics`].
    pub source_topics: ArrayView<'a, &'a str>,
    /// See [`TopologyDescriptionNode::sink_topic`].
    pub sink_topic: Option<&'a str>,
    /// See [`TopologyDescriptionNode::stores`].
    pub stores: ArrayView<'a, &'a str>,
    /// See [`TopologyDescriptionNode::successors`].
    pub successors: ArrayView<'a, &'a str>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyDescriptionNodeView<'_> {
    fn default() -> Self {
        TopologyDescriptionNodeView {
            name: "",
            node_type: 0,
            source_topics: ArrayView::default(),
            sink_topic: None,
            stores: ArrayView::default(),
            successors: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyDescriptionNodeView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.str())?;
        let node_type = decoder.field("node_type", |decoder| decoder.i8())?;
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let sink_topic = decoder.field("sink_topic", |decoder| decoder.nullable_str())?;
        let stores = decoder.field("stores", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let successors = decoder.field("successors", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            name,
            node_type,
            source_topics,
            sink_topic,
            stores,
            successors,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("name", |decoder| decoder.check_str())?;
        decoder.field("node_type", |decoder| decoder.i8().map(drop))?;
        decoder.field("source_topics", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("sink_topic", |decoder| decoder.check_nullable_str())?;
        decoder.field("stores", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("successors", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopologyDescriptionNode`] with the same values.
    pub fn to_owned(&self) -> TopologyDescriptionNode {
        TopologyDescriptionNode {
            name: String::from(self.name),
            node_type: self.node_type,
            source_topics: self.source_topics.iter().map(String::from).collect(),
            sink_topic: self.sink_topic.map(String::from),
            stores: self.stores.iter().map(String::from).collect(),
            successors: self.successors.iter().map(String::from).collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.name);
        visitor.integer(i64::from(self.node_type));
        self.source_topics.visit_items(visitor);
        match self.sink_topic {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        self.stores.visit_items(visitor);
        self.successors.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.name);
        visitor.integer(i64::from(self.node_type));
        visitor.array(self.source_topics.len());
        for item in self.source_topics.iter() {
            visitor.string(item);
        }
        match self.sink_topic {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.array(self.stores.len());
        for item in self.stores.iter() {
            visitor.string(item);
        }
        visitor.array(self.successors.len());
        for item in self.successors.iter() {
            visitor.string(item);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyDescriptionNodeView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let name = cursor.string()?;
        let node_type = cursor.i8()?;
        let source_topics = cursor.array::<&'a str>(version)?;
        let sink_topic = cursor.nullable_string()?;
        let stores = cursor.array::<&'a str>(version)?;
        let successors = cursor.array::<&'a str>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            name,
            node_type,
            source_topics,
            sink_topic,
            stores,
            successors,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(1)?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_string()?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i8()?));
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopologyDescriptionGlobalStore`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyDescriptionGlobalStoreView<'a> {
    /// See [`TopologyDescriptionGlobalStore::source`].
    pub source: TopologyDescriptionNodeView<'a>,
    /// See [`TopologyDescriptionGlobalStore::processor`].
    pub processor: TopologyDescriptionNodeView<'a>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyDescriptionGlobalStoreView<'_> {
    fn default() -> Self {
        TopologyDescriptionGlobalStoreView {
            source: TopologyDescriptionNodeView::default(),
            processor: TopologyDescriptionNodeView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyDescriptionGlobalStoreView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let source = decoder.field("source", |decoder| {
            TopologyDescriptionNodeView::read(decoder, version)
        })?;
        let processor = decoder.field("processor", |decoder| {
            TopologyDescriptionNodeView::read(decoder, version)
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            source,
            processor,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("source", |decoder| {
            TopologyDescriptionNodeView::check(decoder, version)
        })?;
        decoder.field("processor", |decoder| {
            TopologyDescriptionNodeView::check(decoder, version)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopologyDescriptionGlobalStore`] with the same values.
    pub fn to_owned(&self) -> TopologyDescriptionGlobalStore {
        TopologyDescriptionGlobalStore {
            source: TopologyDescriptionNodeView::to_owned(&self.source),
            processor: TopologyDescriptionNodeView::to_owned(&self.processor),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.source.visit(visitor);
        self.processor.visit(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.source.visit_fields(visitor);
        self.processor.visit_fields(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyDescriptionGlobalStoreView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let source = TopologyDescriptionNodeView::parse(cursor, version)?;
        let processor = TopologyDescriptionNodeView::parse(cursor, version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            source,
            processor,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        TopologyDescriptionNodeView::skip(cursor, version)?;
        TopologyDescriptionNodeView::skip(cursor, version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        TopologyDescriptionNodeView::visit_bytes(cursor, version, visitor)?;
        TopologyDescriptionNodeView::visit_bytes(cursor, version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

impl crate::WireMessage for StreamsGroupDescribeResponse {
    const NAME: &'static str = "StreamsGroupDescribeResponse";
    const API_KEY: i16 = 89;
    const VERSIONS: kafka_protocol::protocol::VersionRange =
        kafka_protocol::protocol::VersionRange { min: 0, max: 1 };
    const KIND: crate::MessageKind = crate::MessageKind::StreamsGroupDescribeResponse;
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

crate::impl_kafka_protocol_traits!(StreamsGroupDescribeResponse, header_version: 1);
