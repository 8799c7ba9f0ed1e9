// Generated from `protocol/schemas/kip-draft/StreamsGroupHeartbeatRequest.json` by `streamspec-codegen` (`protocol/codegen`); do not edit.
//! `StreamsGroupHeartbeatRequest` (api key 88, versions 0), kip_draft dialect.

use serde::{Deserialize, Serialize};

use crate::codec::{
    arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink,
    TaggedFields,
};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::view::{ArrayView, Cursor, MessageView, RawTaggedFields, ValueVisitor, ViewItem};

/// The `StreamsGroupHeartbeatRequest` message; every field of every version.
///
/// Served by: broker.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct StreamsGroupHeartbeatRequest {
    /// Id of the streams group the member belongs to.
    ///
    /// Versions 0+, entity type `groupId`.
    #[serde(rename = "groupId")]
    pub group_id: String,
    /// Member id handed out by the coordinator, kept for the member's whole life; empty when joining for the first time.
    ///
    /// Versions 0+.
    #[serde(rename = "memberId")]
    pub member_id: String,
    /// Epoch the member currently holds: 0 joins, -1 leaves, -2 is a static member leaving and planning to come back.
    ///
    /// Versions 0+.
    #[serde(rename = "memberEpoch")]
    pub member_epoch: i32,
    /// Static membership instance id; null when there is none or it is unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "instanceId")]
    pub instance_id: Option<String>,
    /// Rack of the member; null when there is none or it is unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "rackId")]
    pub rack_id: Option<String>,
    /// Longest time in ms the coordinator waits for the member to give up revoked tasks; -1 when unchanged.
    ///
    /// Versions 0+.
    #[serde(rename = "rebalanceTimeoutMs")]
    pub rebalance_timeout_ms: i32,
    /// Non-empty description of the application's topology, sent only on join (epoch 0) to set or check the group's topology; null otherwise.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "topology")]
    pub topology: Option<Topology>,
    /// Active tasks the member owns now; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "activeTasks")]
    pub active_tasks: Option<Vec<TaskIds>>,
    /// Standby tasks the member owns now; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "standbyTasks")]
    pub standby_tasks: Option<Vec<TaskIds>>,
    /// Warm-up tasks the member owns now; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "warmupTasks")]
    pub warmup_tasks: Option<Vec<TaskIds>>,
    /// Id of the Streams process this member runs in (one process may hold several members); null when unchanged.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "processId")]
    pub process_id: Option<String>,
    /// Host and port for interactive queries; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "userEndpoint")]
    pub user_endpoint: Option<Endpoint>,
    /// Tags used for rack-aware standby placement; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "clientTags")]
    pub client_tags: Option<Vec<KeyValue>>,
    /// Changelog offsets reached per task, sent when a warm-up catches up or the offset interval passes; null otherwise.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "taskOffsets")]
    pub task_offsets: Option<Vec<TaskOffset>>,
    /// Changelog end offsets per task, sent when a warm-up catches up or the offset interval passes; null otherwise.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "taskEndOffsets")]
    pub task_end_offsets: Option<Vec<TaskOffset>>,
    /// True to ask every client of the group to shut down.
    ///
    /// Versions 0+.
    #[serde(rename = "shutdownApplication")]
    pub shutdown_application: bool,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for StreamsGroupHeartbeatRequest {
    #[inline]
    fn default() -> Self {
        StreamsGroupHeartbeatRequest {
            group_id: String::new(),
            member_id: String::new(),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            topology: None,
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            process_id: None,
            user_endpoint: None,
            client_tags: None,
            task_offsets: None,
            task_end_offsets: None,
            shutdown_application: false,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl StreamsGroupHeartbeatRequest {
    /// Sets `group_id`.
    #[inline]
    pub fn with_group_id(mut self, value: impl Into<String>) -> Self {
        self.group_id = value.into();
        self
    }
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
    /// Sets `rebalance_timeout_ms`.
    #[inline]
    pub fn with_rebalance_timeout_ms(mut self, value: i32) -> Self {
        self.rebalance_timeout_ms = value;
        self
    }
    /// Sets `topology`.
    #[inline]
    pub fn with_topology(mut self, value: Option<Topology>) -> Self {
        self.topology = value;
        self
    }
    /// Sets `active_tasks`.
    #[inline]
    pub fn with_active_tasks(mut self, value: Option<Vec<TaskIds>>) -> Self {
        self.active_tasks = value;
        self
    }
    /// Sets `standby_tasks`.
    #[inline]
    pub fn with_standby_tasks(mut self, value: Option<Vec<TaskIds>>) -> Self {
        self.standby_tasks = value;
        self
    }
    /// Sets `warmup_tasks`.
    #[inline]
    pub fn with_warmup_tasks(mut self, value: Option<Vec<TaskIds>>) -> Self {
        self.warmup_tasks = value;
        self
    }
    /// Sets `process_id`.
    #[inline]
    pub fn with_process_id(mut self, value: Option<String>) -> Self {
        self.process_id = value;
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
    pub fn with_client_tags(mut self, value: Option<Vec<KeyValue>>) -> Self {
        self.client_tags = value;
        self
    }
    /// Sets `task_offsets`.
    #[inline]
    pub fn with_task_offsets(mut self, value: Option<Vec<TaskOffset>>) -> Self {
        self.task_offsets = value;
        self
    }
    /// Sets `task_end_offsets`.
    #[inline]
    pub fn with_task_end_offsets(mut self, value: Option<Vec<TaskOffset>>) -> Self {
        self.task_end_offsets = value;
        self
    }
    /// Sets `shutdown_application`.
    #[inline]
    pub fn with_shutdown_application(mut self, value: bool) -> Self {
        self.shutdown_application = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let group_id = decoder.field("group_id", |decoder| decoder.string())?;
        let member_id = decoder.field("member_id", |decoder| decoder.string())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let instance_id = decoder.field("instance_id", |decoder| decoder.nullable_string())?;
        let rack_id = decoder.field("rack_id", |decoder| decoder.nullable_string())?;
        let rebalance_timeout_ms =
            decoder.field("rebalance_timeout_ms", |decoder| decoder.i32())?;
        let topology = decoder.field("topology", |decoder| {
            decoder.nullable_struct(|decoder| Topology::read(decoder, version))
        })?;
        let active_tasks = decoder.field("active_tasks", |decoder| {
            decoder.nullable_array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let standby_tasks = decoder.field("standby_tasks", |decoder| {
            decoder.nullable_array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let warmup_tasks = decoder.field("warmup_tasks", |decoder| {
            decoder.nullable_array(3, |decoder| TaskIds::read(decoder, version))
        })?;
        let process_id = decoder.field("process_id", |decoder| decoder.nullable_string())?;
        let user_endpoint = decoder.field("user_endpoint", |decoder| {
            decoder.nullable_struct(|decoder| Endpoint::read(decoder, version))
        })?;
        let client_tags = decoder.field("client_tags", |decoder| {
            decoder.nullable_array(3, |decoder| KeyValue::read(decoder, version))
        })?;
        let task_offsets = decoder.field("task_offsets", |decoder| {
            decoder.nullable_array(14, |decoder| TaskOffset::read(decoder, version))
        })?;
        let task_end_offsets = decoder.field("task_end_offsets", |decoder| {
            decoder.nullable_array(14, |decoder| TaskOffset::read(decoder, version))
        })?;
        let shutdown_application =
            decoder.field("shutdown_application", |decoder| decoder.bool())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            group_id,
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            rebalance_timeout_ms,
            topology,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            shutdown_application,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("group_id", |encoder| encoder.string(&self.group_id))?;
        encoder.field("member_id", |encoder| encoder.string(&self.member_id))?;
        encoder.i32(self.member_epoch);
        encoder.field("instance_id", |encoder| {
            encoder.nullable_string(self.instance_id.as_deref())
        })?;
        encoder.field("rack_id", |encoder| {
            encoder.nullable_string(self.rack_id.as_deref())
        })?;
        encoder.i32(self.rebalance_timeout_ms);
        encoder.field("topology", |encoder| {
            encoder.nullable_struct(self.topology.as_ref(), |encoder, value| {
                value.write(encoder, version)
            })
        })?;
        encoder.field("active_tasks", |encoder| {
            encoder.nullable_array(self.active_tasks.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("standby_tasks", |encoder| {
            encoder.nullable_array(self.standby_tasks.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("warmup_tasks", |encoder| {
            encoder.nullable_array(self.warmup_tasks.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("process_id", |encoder| {
            encoder.nullable_string(self.process_id.as_deref())
        })?;
        encoder.field("user_endpoint", |encoder| {
            encoder.nullable_struct(self.user_endpoint.as_ref(), |encoder, value| {
                value.write(encoder, version)
            })
        })?;
        encoder.field("client_tags", |encoder| {
            encoder.nullable_array(self.client_tags.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("task_offsets", |encoder| {
            encoder.nullable_array(self.task_offsets.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("task_end_offsets", |encoder| {
            encoder.nullable_array(self.task_end_offsets.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.bool(self.shutdown_application);
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        if let Some(value) = &mut self.topology {
            value.restrict_to_version(version);
        }
        for item in self.active_tasks.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
        for item in self.standby_tasks.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
        for item in self.warmup_tasks.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
        if let Some(value) = &mut self.user_endpoint {
            value.restrict_to_version(version);
        }
        for item in self.client_tags.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
        for item in self.task_offsets.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
        for item in self.task_end_offsets.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
    }
}

/// Non-empty description of the application's topology, sent only on join (epoch 0) to set or check the group's topology; null otherwise.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Topology {
    /// Id of the topology, compared with the topology id the group was initialized with.
    ///
    /// Versions 0+.
    #[serde(rename = "topologyId")]
    pub topology_id: String,
    /// The parts the application's topology is split into.
    ///
    /// Versions 0+.
    #[serde(rename = "subtopologies")]
    pub subtopologies: Vec<Subtopology>,
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
            topology_id: String::new(),
            subtopologies: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Topology {
    /// Sets `topology_id`.
    #[inline]
    pub fn with_topology_id(mut self, value: impl Into<String>) -> Self {
        self.topology_id = value.into();
        self
    }
    /// Sets `subtopologies`.
    #[inline]
    pub fn with_subtopologies(mut self, value: Vec<Subtopology>) -> Self {
        self.subtopologies = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let topology_id = decoder.field("topology_id", |decoder| decoder.string())?;
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.array(8, |decoder| Subtopology::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            topology_id,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("topology_id", |encoder| encoder.string(&self.topology_id))?;
        encoder.field("subtopologies", |encoder| {
            encoder.array(&self.subtopologies, |encoder, item| {
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
    }
}

/// The parts the application's topology is split into.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Subtopology {
    /// Unique id of the subtopology, derived deterministically from the topology.
    ///
    /// Versions 0+.
    #[serde(rename = "subtopologyId")]
    pub subtopology_id: String,
    /// Topics this subtopology consumes, by name.
    ///
    /// Versions 0+.
    #[serde(rename = "sourceTopics")]
    pub source_topics: Vec<String>,
    /// Patterns selecting further topics this subtopology consumes.
    ///
    /// Versions 0+.
    #[serde(rename = "sourceTopicRegex")]
    pub source_topic_regex: Vec<String>,
    /// Changelog topics backing this subtopology's state stores; the coordinator creates them.
    ///
    /// Versions 0+.
    #[serde(rename = "stateChangelogTopics")]
    pub state_changelog_topics: Vec<TopicInfo>,
    /// Internal topics this subtopology writes records to for repartitioning.
    ///
    /// Versions 0+.
    #[serde(rename = "repartitionSinkTopics")]
    pub repartition_sink_topics: Vec<String>,
    /// Internal repartition topics this subtopology consumes; the coordinator creates them.
    ///
    /// Versions 0+.
    #[serde(rename = "repartitionSourceTopics")]
    pub repartition_source_topics: Vec<TopicInfo>,
    /// Sets of this subtopology's input topics that need equal partition counts.
    ///
    /// Versions 0+.
    #[serde(rename = "copartitionGroups")]
    pub copartition_groups: Vec<CopartitionGroup>,
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
            source_topic_regex: Vec::new(),
            state_changelog_topics: Vec::new(),
            repartition_sink_topics: Vec::new(),
            repartition_source_topics: Vec::new(),
            copartition_groups: Vec::new(),
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
    /// Sets `source_topic_regex`.
    #[inline]
    pub fn with_source_topic_regex(mut self, value: Vec<String>) -> Self {
        self.source_topic_regex = value;
        self
    }
    /// Sets `state_changelog_topics`.
    #[inline]
    pub fn with_state_changelog_topics(mut self, value: Vec<TopicInfo>) -> Self {
        self.state_changelog_topics = value;
        self
    }
    /// Sets `repartition_sink_topics`.
    #[inline]
    pub fn with_repartition_sink_topics(mut self, value: Vec<String>) -> Self {
        self.repartition_sink_topics = value;
        self
    }
    /// Sets `repartition_source_topics`.
    #[inline]
    pub fn with_repartition_source_topics(mut self, value: Vec<TopicInfo>) -> Self {
        self.repartition_source_topics = value;
        self
    }
    /// Sets `copartition_groups`.
    #[inline]
    pub fn with_copartition_groups(mut self, value: Vec<CopartitionGroup>) -> Self {
        self.copartition_groups = value;
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
        let source_topic_regex = decoder.field("source_topic_regex", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let state_changelog_topics = decoder.field("state_changelog_topics", |decoder| {
            decoder.array(7, |decoder| TopicInfo::read(decoder, version))
        })?;
        let repartition_sink_topics = decoder.field("repartition_sink_topics", |decoder| {
            decoder.array(1, |decoder| decoder.string())
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.array(7, |decoder| TopicInfo::read(decoder, version))
        })?;
        let copartition_groups = decoder.field("copartition_groups", |decoder| {
            decoder.array(4, |decoder| CopartitionGroup::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            subtopology_id,
            source_topics,
            source_topic_regex,
            state_changelog_topics,
            repartition_sink_topics,
            repartition_source_topics,
            copartition_groups,
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
        encoder.field("source_topic_regex", |encoder| {
            encoder.array(&self.source_topic_regex, |encoder, item| {
                encoder.string(item)
            })
        })?;
        encoder.field("state_changelog_topics", |encoder| {
            encoder.array(&self.state_changelog_topics, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("repartition_sink_topics", |encoder| {
            encoder.array(&self.repartition_sink_topics, |encoder, item| {
                encoder.string(item)
            })
        })?;
        encoder.field("repartition_source_topics", |encoder| {
            encoder.array(&self.repartition_source_topics, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("copartition_groups", |encoder| {
            encoder.array(&self.copartition_groups, |encoder, item| {
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
        for item in &mut self.copartition_groups {
            item.restrict_to_version(version);
        }
    }
}

/// Sets of this subtopology's input topics that need equal partition counts.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct CopartitionGroup {
    /// Positions in this subtopology's SourceTopics list.
    ///
    /// Versions 0+.
    #[serde(rename = "sourceTopics")]
    pub source_topics: Vec<i16>,
    /// Positions in this subtopology's SourceTopicRegex list.
    ///
    /// Versions 0+.
    #[serde(rename = "sourceTopicRegex")]
    pub source_topic_regex: Vec<i16>,
    /// Positions in this subtopology's RepartitionSourceTopics list.
    ///
    /// Versions 0+.
    #[serde(rename = "repartitionSourceTopics")]
    pub repartition_source_topics: Vec<i16>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for CopartitionGroup {
    #[inline]
    fn default() -> Self {
        CopartitionGroup {
            source_topics: Vec::new(),
            source_topic_regex: Vec::new(),
            repartition_source_topics: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl CopartitionGroup {
    /// Sets `source_topics`.
    #[inline]
    pub fn with_source_topics(mut self, value: Vec<i16>) -> Self {
        self.source_topics = value;
        self
    }
    /// Sets `source_topic_regex`.
    #[inline]
    pub fn with_source_topic_regex(mut self, value: Vec<i16>) -> Self {
        self.source_topic_regex = value;
        self
    }
    /// Sets `repartition_source_topics`.
    #[inline]
    pub fn with_repartition_source_topics(mut self, value: Vec<i16>) -> Self {
        self.repartition_source_topics = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.fixed_array(i16::from_be_bytes)
        })?;
        let source_topic_regex = decoder.field("source_topic_regex", |decoder| {
            decoder.fixed_array(i16::from_be_bytes)
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.fixed_array(i16::from_be_bytes)
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("source_topics", |encoder| {
            encoder.array(&self.source_topics, |encoder, item| {
                encoder.i16(*item);
                Ok(())
            })
        })?;
        encoder.field("source_topic_regex", |encoder| {
            encoder.array(&self.source_topic_regex, |encoder, item| {
                encoder.i16(*item);
                Ok(())
            })
        })?;
        encoder.field("repartition_source_topics", |encoder| {
            encoder.array(&self.repartition_source_topics, |encoder, item| {
                encoder.i16(*item);
                Ok(())
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `KeyValue` struct of `StreamsGroupHeartbeatRequest`.
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

/// The `TopicInfo` struct of `StreamsGroupHeartbeatRequest`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopicInfo {
    /// Topic name.
    ///
    /// Versions 0+.
    #[serde(rename = "name")]
    pub name: String,
    /// Required partition count; 0 leaves it open, and changelog topics always send 0.
    ///
    /// Versions 0+.
    #[serde(rename = "partitions")]
    pub partitions: i32,
    /// Topic configuration entries to create the topic with, or null for none.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "topicConfigs")]
    pub topic_configs: Option<Vec<KeyValue>>,
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
            topic_configs: None,
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
    /// Sets `topic_configs`.
    #[inline]
    pub fn with_topic_configs(mut self, value: Option<Vec<KeyValue>>) -> Self {
        self.topic_configs = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.string())?;
        let partitions = decoder.field("partitions", |decoder| decoder.i32())?;
        let topic_configs = decoder.field("topic_configs", |decoder| {
            decoder.nullable_array(3, |decoder| KeyValue::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            name,
            partitions,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("name", |encoder| encoder.string(&self.name))?;
        encoder.i32(self.partitions);
        encoder.field("topic_configs", |encoder| {
            encoder.nullable_array(self.topic_configs.as_deref(), |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        for item in self.topic_configs.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
    }
}

/// The `Endpoint` struct of `StreamsGroupHeartbeatRequest`.
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
    pub port: i32,
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
    pub fn with_port(mut self, value: i32) -> Self {
        self.port = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let host = decoder.field("host", |decoder| decoder.string())?;
        let port = decoder.field("port", |decoder| decoder.i32())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            host,
            port,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("host", |encoder| encoder.string(&self.host))?;
        encoder.i32(self.port);
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `TaskOffset` struct of `StreamsGroupHeartbeatRequest`.
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

/// The `TaskIds` struct of `StreamsGroupHeartbeatRequest`.
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

/// [`StreamsGroupHeartbeatRequest`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct StreamsGroupHeartbeatRequestView<'a> {
    /// See [`StreamsGroupHeartbeatRequest::group_id`].
    pub group_id: &'a str,
    /// See [`StreamsGroupHeartbeatRequest::member_id`].
    pub member_id: &'a str,
    /// See [`StreamsGroupHeartbeatRequest::member_epoch`].
    pub member_epoch: i32,
    /// See [`StreamsGroupHeartbeatRequest::instance_id`].
    pub instance_id: Option<&'a str>,
    /// See [`StreamsGroupHeartbeatRequest::rack_id`].
    pub rack_id: Option<&'a str>,
    /// See [`StreamsGroupHeartbeatRequest::rebalance_timeout_ms`].
    pub rebalance_timeout_ms: i32,
    /// See [`StreamsGroupHeartbeatRequest::topology`].
    pub topology: Option<TopologyView<'a>>,
    /// See [`StreamsGroupHeartbeatRequest::active_tasks`].
    pub active_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::standby_tasks`].
    pub standby_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::warmup_tasks`].
    pub warmup_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::process_id`].
    pub process_id: Option<&'a str>,
    /// See [`StreamsGroupHeartbeatRequest::user_endpoint`].
    pub user_endpoint: Option<EndpointView<'a>>,
    /// See [`StreamsGroupHeartbeatRequest::client_tags`].
    pub client_tags: Option<ArrayView<'a, KeyValueView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::task_offsets`].
    pub task_offsets: Option<ArrayView<'a, TaskOffsetView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::task_end_offsets`].
    pub task_end_offsets: Option<ArrayView<'a, TaskOffsetView<'a>>>,
    /// See [`StreamsGroupHeartbeatRequest::shutdown_application`].
    pub shutdown_application: bool,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for StreamsGroupHeartbeatRequestView<'_> {
    fn default() -> Self {
        StreamsGroupHeartbeatRequestView {
            group_id: "",
            member_id: "",
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            topology: None,
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            process_id: None,
            user_endpoint: None,
            client_tags: None,
            task_offsets: None,
            task_end_offsets: None,
            shutdown_application: false,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> StreamsGroupHeartbeatRequestView<'a> {
    /// Decodes exactly one message filling `bytes`, refusing what [`crate::WireMessage::decode_exact`] refuses for [`StreamsGroupHeartbeatRequest`], with the same error, and allocating nothing.
    #[inline(always)]
    pub fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let versions = <StreamsGroupHeartbeatRequest as crate::WireMessage>::VERSIONS;
        if version < versions.min || version > versions.max {
            return Err(DecodeError::new(
                0,
                DecodeErrorKind::UnsupportedVersion {
                    message: <StreamsGroupHeartbeatRequest as crate::WireMessage>::NAME,
                    version,
                },
            ));
        }
        Self::read(&mut Decoder::exact(bytes), version)
    }

    #[inline(always)]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let group_id = decoder.field("group_id", |decoder| decoder.str())?;
        let member_id = decoder.field("member_id", |decoder| decoder.str())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let instance_id = decoder.field("instance_id", |decoder| decoder.nullable_str())?;
        let rack_id = decoder.field("rack_id", |decoder| decoder.nullable_str())?;
        let rebalance_timeout_ms =
            decoder.field("rebalance_timeout_ms", |decoder| decoder.i32())?;
        let topology = decoder.field("topology", |decoder| {
            decoder.nullable_struct(|decoder| TopologyView::read(decoder, version))
        })?;
        let active_tasks = decoder.field("active_tasks", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let standby_tasks = decoder.field("standby_tasks", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let warmup_tasks = decoder.field("warmup_tasks", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| TaskIdsView::check(decoder, version))
        })?;
        let process_id = decoder.field("process_id", |decoder| decoder.nullable_str())?;
        let user_endpoint = decoder.field("user_endpoint", |decoder| {
            decoder.nullable_struct(|decoder| EndpointView::read(decoder, version))
        })?;
        let client_tags = decoder.field("client_tags", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| KeyValueView::check(decoder, version))
        })?;
        let task_offsets = decoder.field("task_offsets", |decoder| {
            decoder.nullable_array_view(version, 14, |decoder| {
                TaskOffsetView::check(decoder, version)
            })
        })?;
        let task_end_offsets = decoder.field("task_end_offsets", |decoder| {
            decoder.nullable_array_view(version, 14, |decoder| {
                TaskOffsetView::check(decoder, version)
            })
        })?;
        let shutdown_application =
            decoder.field("shutdown_application", |decoder| decoder.bool())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            group_id,
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            rebalance_timeout_ms,
            topology,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            shutdown_application,
            unknown_tagged_fields,
        })
    }

    /// The owned [`StreamsGroupHeartbeatRequest`] with the same values.
    pub fn to_owned(&self) -> StreamsGroupHeartbeatRequest {
        StreamsGroupHeartbeatRequest {
            group_id: String::from(self.group_id),
            member_id: String::from(self.member_id),
            member_epoch: self.member_epoch,
            instance_id: self.instance_id.map(String::from),
            rack_id: self.rack_id.map(String::from),
            rebalance_timeout_ms: self.rebalance_timeout_ms,
            topology: self.topology.as_ref().map(TopologyView::to_owned),
            active_tasks: self.active_tasks.map(|items| {
                items
                    .iter()
                    .map(|item| TaskIdsView::to_owned(&item))
                    .collect()
            }),
            standby_tasks: self.standby_tasks.map(|items| {
                items
                    .iter()
                    .map(|item| TaskIdsView::to_owned(&item))
                    .collect()
            }),
            warmup_tasks: self.warmup_tasks.map(|items| {
                items
                    .iter()
                    .map(|item| TaskIdsView::to_owned(&item))
                    .collect()
            }),
            process_id: self.process_id.map(String::from),
            user_endpoint: self.user_endpoint.as_ref().map(EndpointView::to_owned),
            client_tags: self.client_tags.map(|items| {
                items
                    .iter()
                    .map(|item| KeyValueView::to_owned(&item))
                    .collect()
            }),
            task_offsets: self.task_offsets.map(|items| {
                items
                    .iter()
                    .map(|item| TaskOffsetView::to_owned(&item))
                    .collect()
            }),
            task_end_offsets: self.task_end_offsets.map(|items| {
                items
                    .iter()
                    .map(|item| TaskOffsetView::to_owned(&item))
                    .collect()
            }),
            shutdown_application: self.shutdown_application,
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.group_id);
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
        visitor.integer(i64::from(self.rebalance_timeout_ms));
        match &self.topology {
            Some(value) => {
                value.visit(visitor);
            }
            None => visitor.null(),
        }
        match self.active_tasks {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        match self.standby_tasks {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        match self.warmup_tasks {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        match self.process_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        match &self.user_endpoint {
            Some(value) => {
                value.visit(visitor);
            }
            None => visitor.null(),
        }
        match self.client_tags {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        match self.task_offsets {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        match self.task_end_offsets {
            Some(value) => {
                value.visit_items(visitor);
            }
            None => visitor.null(),
        }
        visitor.integer(i64::from(self.shutdown_application));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.group_id);
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
        visitor.integer(i64::from(self.rebalance_timeout_ms));
        match &self.topology {
            Some(value) => {
                value.visit_fields(visitor);
            }
            None => visitor.null(),
        }
        match self.active_tasks {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        match self.standby_tasks {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        match self.warmup_tasks {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        match self.process_id {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        match &self.user_endpoint {
            Some(value) => {
                value.visit_fields(visitor);
            }
            None => visitor.null(),
        }
        match self.client_tags {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        match self.task_offsets {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        match self.task_end_offsets {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
            }
            None => visitor.null(),
        }
        visitor.integer(i64::from(self.shutdown_application));
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for StreamsGroupHeartbeatRequestView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let group_id = cursor.string()?;
        let member_id = cursor.string()?;
        let member_epoch = cursor.i32()?;
        let instance_id = cursor.nullable_string()?;
        let rack_id = cursor.nullable_string()?;
        let rebalance_timeout_ms = cursor.i32()?;
        let topology = match cursor.present()? {
            true => TopologyView::parse(cursor, version).map(Some),
            false => Some(None),
        }?;
        let active_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let standby_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let warmup_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let process_id = cursor.nullable_string()?;
        let user_endpoint = match cursor.present()? {
            true => EndpointView::parse(cursor, version).map(Some),
            false => Some(None),
        }?;
        let client_tags = cursor.nullable_array::<KeyValueView<'a>>(version)?;
        let task_offsets = cursor.nullable_array::<TaskOffsetView<'a>>(version)?;
        let task_end_offsets = cursor.nullable_array::<TaskOffsetView<'a>>(version)?;
        let shutdown_application = cursor.bool()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            group_id,
            member_id,
            member_epoch,
            instance_id,
            rack_id,
            rebalance_timeout_ms,
            topology,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            process_id,
            user_endpoint,
            client_tags,
            task_offsets,
            task_end_offsets,
            shutdown_application,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip(4)?;
        if cursor.present()? {
            TopologyView::skip(cursor, version)?;
        }
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_string()?;
        if cursor.present()? {
            EndpointView::skip(cursor, version)?;
        }
        cursor.skip_array::<KeyValueView<'a>>(version)?;
        cursor.skip_array::<TaskOffsetView<'a>>(version)?;
        cursor.skip_array::<TaskOffsetView<'a>>(version)?;
        cursor.skip(1)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
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
        visitor.integer(i64::from(cursor.i32()?));
        if cursor.present()? {
            TopologyView::visit_bytes(cursor, version, visitor)?;
        } else {
            visitor.null();
        }
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        if cursor.present()? {
            EndpointView::visit_bytes(cursor, version, visitor)?;
        } else {
            visitor.null();
        }
        cursor.visit_array::<KeyValueView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskOffsetView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskOffsetView<'a>, V>(version, visitor)?;
        visitor.integer(i64::from(cursor.bool()?));
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

impl<'a> MessageView<'a> for StreamsGroupHeartbeatRequestView<'a> {
    type Owned = StreamsGroupHeartbeatRequest;
    #[inline(always)]
    fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        StreamsGroupHeartbeatRequestView::decode(bytes, version)
    }
    fn to_message(&self) -> StreamsGroupHeartbeatRequest {
        self.to_owned()
    }
    fn visit_values<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit(visitor)
    }
    fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit_fields(visitor)
    }
}

/// [`Topology`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopologyView<'a> {
    /// See [`Topology::topology_id`].
    pub topology_id: &'a str,
    /// See [`Topology::subtopologies`].
    pub subtopologies: ArrayView<'a, SubtopologyView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopologyView<'_> {
    fn default() -> Self {
        TopologyView {
            topology_id: "",
            subtopologies: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopologyView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let topology_id = decoder.field("topology_id", |decoder| decoder.str())?;
        let subtopologies = decoder.field("subtopologies", |decoder| {
            decoder.array_view(version, 8, |decoder| {
                SubtopologyView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            topology_id,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("topology_id", |decoder| decoder.check_str())?;
        decoder.field("subtopologies", |decoder| {
            decoder
                .array_view::<()>(version, 8, |decoder| {
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
            topology_id: String::from(self.topology_id),
            subtopologies: self
                .subtopologies
                .iter()
                .map(|item| SubtopologyView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.topology_id);
        self.subtopologies.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.topology_id);
        visitor.array(self.subtopologies.len());
        for item in self.subtopologies.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopologyView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let topology_id = cursor.string()?;
        let subtopologies = cursor.array::<SubtopologyView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            topology_id,
            subtopologies,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_array::<SubtopologyView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
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
    /// See [`Subtopology::source_topic_regex`].
    pub source_topic_regex: ArrayView<'a, &'a str>,
    /// See [`Subtopology::state_changelog_topics`].
    pub state_changelog_topics: ArrayView<'a, TopicInfoView<'a>>,
    /// See [`Subtopology::repartition_sink_topics`].
    pub repartition_sink_topics: ArrayView<'a, &'a str>,
    /// See [`Subtopology::repartition_source_topics`].
    pub repartition_source_topics: ArrayView<'a, TopicInfoView<'a>>,
    /// See [`Subtopology::copartition_groups`].
    pub copartition_groups: ArrayView<'a, CopartitionGroupView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for SubtopologyView<'_> {
    fn default() -> Self {
        SubtopologyView {
            subtopology_id: "",
            source_topics: ArrayView::default(),
            source_topic_regex: ArrayView::default(),
            state_changelog_topics: ArrayView::default(),
            repartition_sink_topics: ArrayView::default(),
            repartition_source_topics: ArrayView::default(),
            copartition_groups: ArrayView::default(),
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
        let source_topic_regex = decoder.field("source_topic_regex", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let state_changelog_topics = decoder.field("state_changelog_topics", |decoder| {
            decoder.array_view(version, 7, |decoder| TopicInfoView::check(decoder, version))
        })?;
        let repartition_sink_topics = decoder.field("repartition_sink_topics", |decoder| {
            decoder.array_view(version, 1, |decoder| decoder.check_str())
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.array_view(version, 7, |decoder| TopicInfoView::check(decoder, version))
        })?;
        let copartition_groups = decoder.field("copartition_groups", |decoder| {
            decoder.array_view(version, 4, |decoder| {
                CopartitionGroupView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            subtopology_id,
            source_topics,
            source_topic_regex,
            state_changelog_topics,
            repartition_sink_topics,
            repartition_source_topics,
            copartition_groups,
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
        decoder.field("source_topic_regex", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("state_changelog_topics", |decoder| {
            decoder
                .array_view::<()>(version, 7, |decoder| TopicInfoView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("repartition_sink_topics", |decoder| {
            decoder
                .array_view::<()>(version, 1, |decoder| decoder.check_str())
                .map(drop)
        })?;
        decoder.field("repartition_source_topics", |decoder| {
            decoder
                .array_view::<()>(version, 7, |decoder| TopicInfoView::check(decoder, version))
                .map(drop)
        })?;
        decoder.field("copartition_groups", |decoder| {
            decoder
                .array_view::<()>(version, 4, |decoder| {
                    CopartitionGroupView::check(decoder, version)
                })
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
            source_topic_regex: self.source_topic_regex.iter().map(String::from).collect(),
            state_changelog_topics: self
                .state_changelog_topics
                .iter()
                .map(|item| TopicInfoView::to_owned(&item))
                .collect(),
            repartition_sink_topics: self
                .repartition_sink_topics
                .iter()
                .map(String::from)
                .collect(),
            repartition_source_topics: self
                .repartition_source_topics
                .iter()
                .map(|item| TopicInfoView::to_owned(&item))
                .collect(),
            copartition_groups: self
                .copartition_groups
                .iter()
                .map(|item| CopartitionGroupView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.subtopology_id);
        self.source_topics.visit_items(visitor);
        self.source_topic_regex.visit_items(visitor);
        self.state_changelog_topics.visit_items(visitor);
        self.repartition_sink_topics.visit_items(visitor);
        self.repartition_source_topics.visit_items(visitor);
        self.copartition_groups.visit_items(visitor);
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
        visitor.array(self.source_topic_regex.len());
        for item in self.source_topic_regex.iter() {
            visitor.string(item);
        }
        visitor.array(self.state_changelog_topics.len());
        for item in self.state_changelog_topics.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.repartition_sink_topics.len());
        for item in self.repartition_sink_topics.iter() {
            visitor.string(item);
        }
        visitor.array(self.repartition_source_topics.len());
        for item in self.repartition_source_topics.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.copartition_groups.len());
        for item in self.copartition_groups.iter() {
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
        let source_topic_regex = cursor.array::<&'a str>(version)?;
        let state_changelog_topics = cursor.array::<TopicInfoView<'a>>(version)?;
        let repartition_sink_topics = cursor.array::<&'a str>(version)?;
        let repartition_source_topics = cursor.array::<TopicInfoView<'a>>(version)?;
        let copartition_groups = cursor.array::<CopartitionGroupView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            subtopology_id,
            source_topics,
            source_topic_regex,
            state_changelog_topics,
            repartition_sink_topics,
            repartition_source_topics,
            copartition_groups,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<TopicInfoView<'a>>(version)?;
        cursor.skip_array::<&'a str>(version)?;
        cursor.skip_array::<TopicInfoView<'a>>(version)?;
        cursor.skip_array::<CopartitionGroupView<'a>>(version)?;
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
        cursor.visit_array::<&'a str, V>(version, visitor)?;
        cursor.visit_array::<TopicInfoView<'a>, V>(version, visitor)?;
        cursor.visit_array::<CopartitionGroupView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`CopartitionGroup`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct CopartitionGroupView<'a> {
    /// See [`CopartitionGroup::source_topics`].
    pub source_topics: ArrayView<'a, i16>,
    /// See [`CopartitionGroup::source_topic_regex`].
    pub source_topic_regex: ArrayView<'a, i16>,
    /// See [`CopartitionGroup::repartition_source_topics`].
    pub repartition_source_topics: ArrayView<'a, i16>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for CopartitionGroupView<'_> {
    fn default() -> Self {
        CopartitionGroupView {
            source_topics: ArrayView::default(),
            source_topic_regex: ArrayView::default(),
            repartition_source_topics: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> CopartitionGroupView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let source_topics = decoder.field("source_topics", |decoder| {
            decoder.fixed_array_view::<i16, 2>(version)
        })?;
        let source_topic_regex = decoder.field("source_topic_regex", |decoder| {
            decoder.fixed_array_view::<i16, 2>(version)
        })?;
        let repartition_source_topics = decoder.field("repartition_source_topics", |decoder| {
            decoder.fixed_array_view::<i16, 2>(version)
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("source_topics", |decoder| {
            decoder.fixed_array_view::<(), 2>(version).map(drop)
        })?;
        decoder.field("source_topic_regex", |decoder| {
            decoder.fixed_array_view::<(), 2>(version).map(drop)
        })?;
        decoder.field("repartition_source_topics", |decoder| {
            decoder.fixed_array_view::<(), 2>(version).map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`CopartitionGroup`] with the same values.
    pub fn to_owned(&self) -> CopartitionGroup {
        CopartitionGroup {
            source_topics: self.source_topics.iter().collect(),
            source_topic_regex: self.source_topic_regex.iter().collect(),
            repartition_source_topics: self.repartition_source_topics.iter().collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.source_topics.visit_items(visitor);
        self.source_topic_regex.visit_items(visitor);
        self.repartition_source_topics.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.array(self.source_topics.len());
        for item in self.source_topics.iter() {
            visitor.integer(i64::from(item));
        }
        visitor.array(self.source_topic_regex.len());
        for item in self.source_topic_regex.iter() {
            visitor.integer(i64::from(item));
        }
        visitor.array(self.repartition_source_topics.len());
        for item in self.repartition_source_topics.iter() {
            visitor.integer(i64::from(item));
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for CopartitionGroupView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let source_topics = cursor.array::<i16>(version)?;
        let source_topic_regex = cursor.array::<i16>(version)?;
        let repartition_source_topics = cursor.array::<i16>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            source_topics,
            source_topic_regex,
            repartition_source_topics,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_array::<i16>(version)?;
        cursor.skip_array::<i16>(version)?;
        cursor.skip_array::<i16>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        cursor.visit_array::<i16, V>(version, visitor)?;
        cursor.visit_array::<i16, V>(version, visitor)?;
        cursor.visit_array::<i16, V>(version, visitor)?;
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
    /// See [`TopicInfo::topic_configs`].
    pub topic_configs: Option<ArrayView<'a, KeyValueView<'a>>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopicInfoView<'_> {
    fn default() -> Self {
        TopicInfoView {
            name: "",
            partitions: 0,
            topic_configs: None,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopicInfoView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let name = decoder.field("name", |decoder| decoder.str())?;
        let partitions = decoder.field("partitions", |decoder| decoder.i32())?;
        let topic_configs = decoder.field("topic_configs", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| KeyValueView::check(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            name,
            partitions,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("name", |decoder| decoder.check_str())?;
        decoder.field("partitions", |decoder| decoder.i32().map(drop))?;
        decoder.field("topic_configs", |decoder| {
            decoder
                .nullable_array_view::<()>(version, 3, |decoder| {
                    KeyValueView::check(decoder, version)
                })
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
            topic_configs: self.topic_configs.map(|items| {
                items
                    .iter()
                    .map(|item| KeyValueView::to_owned(&item))
                    .collect()
            }),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.name);
        visitor.integer(i64::from(self.partitions));
        match self.topic_configs {
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
        visitor.string(self.name);
        visitor.integer(i64::from(self.partitions));
        match self.topic_configs {
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

impl<'a> ViewItem<'a> for TopicInfoView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let name = cursor.string()?;
        let partitions = cursor.i32()?;
        let topic_configs = cursor.nullable_array::<KeyValueView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            name,
            partitions,
            topic_configs,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(4)?;
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
        cursor.visit_array::<KeyValueView<'a>, V>(version, visitor)?;
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
    pub port: i32,
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
        let port = decoder.field("port", |decoder| decoder.i32())?;
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
        decoder.field("port", |decoder| decoder.i32().map(drop))?;
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
        let port = cursor.i32()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            host,
            port,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
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

impl crate::WireMessage for StreamsGroupHeartbeatRequest {
    const NAME: &'static str = "StreamsGroupHeartbeatRequest";
    const API_KEY: i16 = 88;
    const VERSIONS: kafka_protocol::protocol::VersionRange =
        kafka_protocol::protocol::VersionRange { min: 0, max: 0 };
    const KIND: crate::MessageKind = crate::MessageKind::KipDraftStreamsGroupHeartbeatRequest;
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

crate::impl_kafka_protocol_traits!(StreamsGroupHeartbeatRequest, header_version: 2);

impl kafka_protocol::protocol::Request for StreamsGroupHeartbeatRequest {
    const KEY: i16 = 88;
    type Response = super::streams_group_heartbeat_response::StreamsGroupHeartbeatResponse;
}
