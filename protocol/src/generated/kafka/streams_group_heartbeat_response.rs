// Generated from `protocol/schemas/kafka/StreamsGroupHeartbeatResponse.json` by `streamspec-codegen` (`protocol/codegen`); do not edit.
//! `StreamsGroupHeartbeatResponse` (api key 88, versions 0-1), kafka dialect.

use serde::{Deserialize, Serialize};

use crate::codec::{
    arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink,
    TaggedFields,
};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::view::{ArrayView, Cursor, MessageView, RawTaggedFields, ValueVisitor, ViewItem};

/// The `StreamsGroupHeartbeatResponse` message; every field of every version.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct StreamsGroupHeartbeatResponse {
    /// Time in ms the request was held back by a quota; 0 when no quota applied.
    ///
    /// Versions 0+.
    #[serde(rename = "throttleTimeMs")]
    pub throttle_time_ms: i32,
    /// Error for the whole request; 0 on success.
    ///
    /// Versions 0+.
    #[serde(rename = "errorCode")]
    pub error_code: i16,
    /// Human-readable error text; null on success.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "errorMessage")]
    pub error_message: Option<String>,
    /// The member id, as chosen by the client and echoed back.
    ///
    /// Versions 0+.
    #[serde(rename = "memberId")]
    pub member_id: String,
    /// Epoch the member now holds.
    ///
    /// Versions 0+.
    #[serde(rename = "memberEpoch")]
    pub member_epoch: i32,
    /// Time in ms the member should wait before its next heartbeat.
    ///
    /// Versions 0+.
    #[serde(rename = "heartbeatIntervalMs")]
    pub heartbeat_interval_ms: i32,
    /// Old 32-bit form of AcceptableRecoveryLag, only in v0.
    ///
    /// Versions 0.
    #[serde(rename = "acceptableRecoveryLagLegacy")]
    pub acceptable_recovery_lag_legacy: i32,
    /// How often in ms the member should report its changelog offsets; they ride on the next heartbeat after the interval.
    ///
    /// Versions 0+.
    #[serde(rename = "taskOffsetIntervalMs")]
    pub task_offset_interval_ms: i32,
    /// Most offsets a task may still be behind and count as caught up for an active assignment; -1 if the broker lacks the setting.
    ///
    /// Versions 1+, ignorable.
    #[serde(rename = "acceptableRecoveryLag")]
    pub acceptable_recovery_lag: i64,
    /// Conditions currently in effect for the group, possibly none.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "status")]
    pub status: Option<Vec<Status>>,
    /// Active tasks assigned to the member; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "activeTasks")]
    pub active_tasks: Option<Vec<TaskIds>>,
    /// Standby tasks assigned to the member; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "standbyTasks")]
    pub standby_tasks: Option<Vec<TaskIds>>,
    /// Warm-up tasks assigned to the member; null when unchanged since the previous heartbeat.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "warmupTasks")]
    pub warmup_tasks: Option<Vec<TaskIds>>,
    /// True when the broker wants the client to upload its topology description with StreamsGroupTopologyDescriptionUpdate.
    ///
    /// Versions 1+.
    #[serde(rename = "topologyDescriptionRequired")]
    pub topology_description_required: bool,
    /// Epoch of the endpoint information the group holds now.
    ///
    /// Versions 0+.
    #[serde(rename = "endpointInformationEpoch")]
    pub endpoint_information_epoch: i32,
    /// Interactive-query routing, one entry per member (merge entries sharing an endpoint); null when unchanged.
    ///
    /// Versions 0+, nullable.
    #[serde(rename = "partitionsByUserEndpoint")]
    pub partitions_by_user_endpoint: Option<Vec<EndpointToPartitions>>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for StreamsGroupHeartbeatResponse {
    #[inline]
    fn default() -> Self {
        StreamsGroupHeartbeatResponse {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            member_id: String::new(),
            member_epoch: 0,
            heartbeat_interval_ms: 0,
            acceptable_recovery_lag_legacy: 0,
            task_offset_interval_ms: 0,
            acceptable_recovery_lag: -1,
            status: Some(Vec::new()),
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            topology_description_required: false,
            endpoint_information_epoch: 0,
            partitions_by_user_endpoint: None,
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl StreamsGroupHeartbeatResponse {
    /// Sets `throttle_time_ms`.
    #[inline]
    pub fn with_throttle_time_ms(mut self, value: i32) -> Self {
        self.throttle_time_ms = value;
        self
    }
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
    /// Sets `heartbeat_interval_ms`.
    #[inline]
    pub fn with_heartbeat_interval_ms(mut self, value: i32) -> Self {
        self.heartbeat_interval_ms = value;
        self
    }
    /// Sets `acceptable_recovery_lag_legacy`.
    #[inline]
    pub fn with_acceptable_recovery_lag_legacy(mut self, value: i32) -> Self {
        self.acceptable_recovery_lag_legacy = value;
        self
    }
    /// Sets `task_offset_interval_ms`.
    #[inline]
    pub fn with_task_offset_interval_ms(mut self, value: i32) -> Self {
        self.task_offset_interval_ms = value;
        self
    }
    /// Sets `acceptable_recovery_lag`.
    #[inline]
    pub fn with_acceptable_recovery_lag(mut self, value: i64) -> Self {
        self.acceptable_recovery_lag = value;
        self
    }
    /// Sets `status`.
    #[inline]
    pub fn with_status(mut self, value: Option<Vec<Status>>) -> Self {
        self.status = value;
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
    /// Sets `topology_description_required`.
    #[inline]
    pub fn with_topology_description_required(mut self, value: bool) -> Self {
        self.topology_description_required = value;
        self
    }
    /// Sets `endpoint_information_epoch`.
    #[inline]
    pub fn with_endpoint_information_epoch(mut self, value: i32) -> Self {
        self.endpoint_information_epoch = value;
        self
    }
    /// Sets `partitions_by_user_endpoint`.
    #[inline]
    pub fn with_partitions_by_user_endpoint(
        mut self,
        value: Option<Vec<EndpointToPartitions>>,
    ) -> Self {
        self.partitions_by_user_endpoint = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let throttle_time_ms = decoder.field("throttle_time_ms", |decoder| decoder.i32())?;
        let error_code = decoder.field("error_code", |decoder| decoder.i16())?;
        let error_message = decoder.field("error_message", |decoder| decoder.nullable_string())?;
        let member_id = decoder.field("member_id", |decoder| decoder.string())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let heartbeat_interval_ms =
            decoder.field("heartbeat_interval_ms", |decoder| decoder.i32())?;
        let acceptable_recovery_lag_legacy = if version <= 0 {
            decoder.field("acceptable_recovery_lag_legacy", |decoder| decoder.i32())?
        } else {
            0
        };
        let task_offset_interval_ms =
            decoder.field("task_offset_interval_ms", |decoder| decoder.i32())?;
        let acceptable_recovery_lag = if version >= 1 {
            decoder.field("acceptable_recovery_lag", |decoder| decoder.i64())?
        } else {
            -1
        };
        let status = decoder.field("status", |decoder| {
            decoder.nullable_array(3, |decoder| Status::read(decoder, version))
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
        let topology_description_required = if version >= 1 {
            decoder.field("topology_description_required", |decoder| decoder.bool())?
        } else {
            false
        };
        let endpoint_information_epoch =
            decoder.field("endpoint_information_epoch", |decoder| decoder.i32())?;
        let partitions_by_user_endpoint =
            decoder.field("partitions_by_user_endpoint", |decoder| {
                decoder.nullable_array(7, |decoder| EndpointToPartitions::read(decoder, version))
            })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            throttle_time_ms,
            error_code,
            error_message,
            member_id,
            member_epoch,
            heartbeat_interval_ms,
            acceptable_recovery_lag_legacy,
            task_offset_interval_ms,
            acceptable_recovery_lag,
            status,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            topology_description_required,
            endpoint_information_epoch,
            partitions_by_user_endpoint,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.i32(self.throttle_time_ms);
        encoder.i16(self.error_code);
        encoder.field("error_message", |encoder| {
            encoder.nullable_string(self.error_message.as_deref())
        })?;
        encoder.field("member_id", |encoder| encoder.string(&self.member_id))?;
        encoder.i32(self.member_epoch);
        encoder.i32(self.heartbeat_interval_ms);
        if version <= 0 {
            encoder.i32(self.acceptable_recovery_lag_legacy);
        } else {
            encoder.absent_field(
                "acceptable_recovery_lag_legacy",
                self.acceptable_recovery_lag_legacy == 0,
                version,
            )?;
        }
        encoder.i32(self.task_offset_interval_ms);
        // Ignorable: a value the version cannot carry is dropped.
        if version >= 1 {
            encoder.i64(self.acceptable_recovery_lag);
        }
        encoder.field("status", |encoder| {
            encoder.nullable_array(self.status.as_deref(), |encoder, item| {
                item.write(encoder, version)
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
        if version >= 1 {
            encoder.bool(self.topology_description_required);
        } else {
            encoder.absent_field(
                "topology_description_required",
                !self.topology_description_required,
                version,
            )?;
        }
        encoder.i32(self.endpoint_information_epoch);
        encoder.field("partitions_by_user_endpoint", |encoder| {
            encoder.nullable_array(
                self.partitions_by_user_endpoint.as_deref(),
                |encoder, item| item.write(encoder, version),
            )
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        if version > 0 {
            self.acceptable_recovery_lag_legacy = 0;
        }
        if version < 1 {
            self.acceptable_recovery_lag = -1;
        }
        for item in self.status.iter_mut().flatten() {
            item.restrict_to_version(version);
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
        if version < 1 {
            self.topology_description_required = false;
        }
        for item in self.partitions_by_user_endpoint.iter_mut().flatten() {
            item.restrict_to_version(version);
        }
    }
}

/// Interactive-query routing, one entry per member (merge entries sharing an endpoint); null when unchanged.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct EndpointToPartitions {
    /// Endpoint the member serves queries on.
    ///
    /// Versions 0+.
    #[serde(rename = "userEndpoint")]
    pub user_endpoint: Endpoint,
    /// Input partitions (repartition topics included) of the member's active tasks.
    ///
    /// Versions 0+.
    #[serde(rename = "activePartitions")]
    pub active_partitions: Vec<TopicPartition>,
    /// Input partitions (repartition topics included) of the member's standby and warm-up tasks.
    ///
    /// Versions 0+.
    #[serde(rename = "standbyPartitions")]
    pub standby_partitions: Vec<TopicPartition>,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for EndpointToPartitions {
    #[inline]
    fn default() -> Self {
        EndpointToPartitions {
            user_endpoint: Endpoint::default(),
            active_partitions: Vec::new(),
            standby_partitions: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl EndpointToPartitions {
    /// Sets `user_endpoint`.
    #[inline]
    pub fn with_user_endpoint(mut self, value: Endpoint) -> Self {
        self.user_endpoint = value;
        self
    }
    /// Sets `active_partitions`.
    #[inline]
    pub fn with_active_partitions(mut self, value: Vec<TopicPartition>) -> Self {
        self.active_partitions = value;
        self
    }
    /// Sets `standby_partitions`.
    #[inline]
    pub fn with_standby_partitions(mut self, value: Vec<TopicPartition>) -> Self {
        self.standby_partitions = value;
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        version: i16,
    ) -> DecodeResult<Self> {
        let user_endpoint =
            decoder.field("user_endpoint", |decoder| Endpoint::read(decoder, version))?;
        let active_partitions = decoder.field("active_partitions", |decoder| {
            decoder.array(3, |decoder| TopicPartition::read(decoder, version))
        })?;
        let standby_partitions = decoder.field("standby_partitions", |decoder| {
            decoder.array(3, |decoder| TopicPartition::read(decoder, version))
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            user_endpoint,
            active_partitions,
            standby_partitions,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, version: i16) -> EncodeResult {
        encoder.field("user_endpoint", |encoder| {
            self.user_endpoint.write(encoder, version)
        })?;
        encoder.field("active_partitions", |encoder| {
            encoder.array(&self.active_partitions, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.field("standby_partitions", |encoder| {
            encoder.array(&self.standby_partitions, |encoder, item| {
                item.write(encoder, version)
            })
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, version: i16) {
        self.user_endpoint.restrict_to_version(version);
        for item in &mut self.active_partitions {
            item.restrict_to_version(version);
        }
        for item in &mut self.standby_partitions {
            item.restrict_to_version(version);
        }
    }
}

/// The `Status` struct of `StreamsGroupHeartbeatResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct Status {
    /// Which condition is in effect; see the list above the Status field.
    ///
    /// Versions 0+.
    #[serde(rename = "statusCode")]
    pub status_code: i8,
    /// Free-text explanation, such as the topics concerned.
    ///
    /// Versions 0+.
    #[serde(rename = "statusDetail")]
    pub status_detail: String,
    /// Tagged fields this schema does not declare, kept so that re-encoding loses nothing.
    #[serde(
        rename = "_unknownTaggedFields",
        skip_serializing_if = "TaggedFields::is_empty"
    )]
    #[arbitrary(with = arbitrary_tagged_fields)]
    pub unknown_tagged_fields: TaggedFields,
}

impl Default for Status {
    #[inline]
    fn default() -> Self {
        Status {
            status_code: 0,
            status_detail: String::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl Status {
    /// Sets `status_code`.
    #[inline]
    pub fn with_status_code(mut self, value: i8) -> Self {
        self.status_code = value;
        self
    }
    /// Sets `status_detail`.
    #[inline]
    pub fn with_status_detail(mut self, value: impl Into<String>) -> Self {
        self.status_detail = value.into();
        self
    }

    pub(crate) fn read<R: Recorder>(
        decoder: &mut Decoder<'_, R>,
        _version: i16,
    ) -> DecodeResult<Self> {
        let status_code = decoder.field("status_code", |decoder| decoder.i8())?;
        let status_detail = decoder.field("status_detail", |decoder| decoder.string())?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            status_code,
            status_detail,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.i8(self.status_code);
        encoder.field("status_detail", |encoder| {
            encoder.string(&self.status_detail)
        })?;
        encoder.tagged_fields(&self.unknown_tagged_fields)
    }

    /// Resets every field that `version` lacks to its default, here and in nested structs.
    pub fn restrict_to_version(&mut self, _version: i16) {}
}

/// The `TopicPartition` struct of `StreamsGroupHeartbeatResponse`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, arbitrary::Arbitrary)]
#[serde(default)]
pub struct TopicPartition {
    /// Topic name.
    ///
    /// Versions 0+, entity type `topicName`.
    #[serde(rename = "topic")]
    pub topic: String,
    /// Partition numbers within the topic.
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

impl Default for TopicPartition {
    #[inline]
    fn default() -> Self {
        TopicPartition {
            topic: String::new(),
            partitions: Vec::new(),
            unknown_tagged_fields: TaggedFields::new(),
        }
    }
}

impl TopicPartition {
    /// Sets `topic`.
    #[inline]
    pub fn with_topic(mut self, value: impl Into<String>) -> Self {
        self.topic = value.into();
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
        let topic = decoder.field("topic", |decoder| decoder.string())?;
        let partitions = decoder.field("partitions", |decoder| {
            decoder.fixed_array(i32::from_be_bytes)
        })?;
        let unknown_tagged_fields = decoder.tagged_fields()?;
        Ok(Self {
            topic,
            partitions,
            unknown_tagged_fields,
        })
    }

    pub(crate) fn write<S: Sink>(&self, encoder: &mut Encoder<S>, _version: i16) -> EncodeResult {
        encoder.field("topic", |encoder| encoder.string(&self.topic))?;
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

/// The `TaskIds` struct of `StreamsGroupHeartbeatResponse`.
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

/// The `Endpoint` struct of `StreamsGroupHeartbeatResponse`.
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

/// [`StreamsGroupHeartbeatResponse`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct StreamsGroupHeartbeatResponseView<'a> {
    /// See [`StreamsGroupHeartbeatResponse::throttle_time_ms`].
    pub throttle_time_ms: i32,
    /// See [`StreamsGroupHeartbeatResponse::error_code`].
    pub error_code: i16,
    /// See [`StreamsGroupHeartbeatResponse::error_message`].
    pub error_message: Option<&'a str>,
    /// See [`StreamsGroupHeartbeatResponse::member_id`].
    pub member_id: &'a str,
    /// See [`StreamsGroupHeartbeatResponse::member_epoch`].
    pub member_epoch: i32,
    /// See [`StreamsGroupHeartbeatResponse::heartbeat_interval_ms`].
    pub heartbeat_interval_ms: i32,
    /// See [`StreamsGroupHeartbeatResponse::acceptable_recovery_lag_legacy`].
    pub acceptable_recovery_lag_legacy: i32,
    /// See [`StreamsGroupHeartbeatResponse::task_offset_interval_ms`].
    pub task_offset_interval_ms: i32,
    /// See [`StreamsGroupHeartbeatResponse::acceptable_recovery_lag`].
    pub acceptable_recovery_lag: i64,
    /// See [`StreamsGroupHeartbeatResponse::status`].
    pub status: Option<ArrayView<'a, StatusView<'a>>>,
    /// See [`StreamsGroupHeartbeatResponse::active_tasks`].
    pub active_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatResponse::standby_tasks`].
    pub standby_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatResponse::warmup_tasks`].
    pub warmup_tasks: Option<ArrayView<'a, TaskIdsView<'a>>>,
    /// See [`StreamsGroupHeartbeatResponse::topology_description_required`].
    pub topology_description_required: bool,
    /// See [`StreamsGroupHeartbeatResponse::endpoint_information_epoch`].
    pub endpoint_information_epoch: i32,
    /// See [`StreamsGroupHeartbeatResponse::partitions_by_user_endpoint`].
    pub partitions_by_user_endpoint: Option<ArrayView<'a, EndpointToPartitionsView<'a>>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for StreamsGroupHeartbeatResponseView<'_> {
    fn default() -> Self {
        StreamsGroupHeartbeatResponseView {
            throttle_time_ms: 0,
            error_code: 0,
            error_message: None,
            member_id: "",
            member_epoch: 0,
            heartbeat_interval_ms: 0,
            acceptable_recovery_lag_legacy: 0,
            task_offset_interval_ms: 0,
            acceptable_recovery_lag: -1,
            status: Some(ArrayView::default()),
            active_tasks: None,
            standby_tasks: None,
            warmup_tasks: None,
            topology_description_required: false,
            endpoint_information_epoch: 0,
            partitions_by_user_endpoint: None,
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> StreamsGroupHeartbeatResponseView<'a> {
    /// Decodes exactly one message filling `bytes`, refusing what [`crate::WireMessage::decode_exact`] refuses for [`StreamsGroupHeartbeatResponse`], with the same error, and allocating nothing.
    #[inline(always)]
    pub fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        let versions = <StreamsGroupHeartbeatResponse as crate::WireMessage>::VERSIONS;
        if version < versions.min || version > versions.max {
            return Err(DecodeError::new(
                0,
                DecodeErrorKind::UnsupportedVersion {
                    message: <StreamsGroupHeartbeatResponse as crate::WireMessage>::NAME,
                    version,
                },
            ));
        }
        Self::read(&mut Decoder::exact(bytes), version)
    }

    #[inline(always)]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let throttle_time_ms = decoder.field("throttle_time_ms", |decoder| decoder.i32())?;
        let error_code = decoder.field("error_code", |decoder| decoder.i16())?;
        let error_message = decoder.field("error_message", |decoder| decoder.nullable_str())?;
        let member_id = decoder.field("member_id", |decoder| decoder.str())?;
        let member_epoch = decoder.field("member_epoch", |decoder| decoder.i32())?;
        let heartbeat_interval_ms =
            decoder.field("heartbeat_interval_ms", |decoder| decoder.i32())?;
        let acceptable_recovery_lag_legacy = if version <= 0 {
            decoder.field("acceptable_recovery_lag_legacy", |decoder| decoder.i32())?
        } else {
            0
        };
        let task_offset_interval_ms =
            decoder.field("task_offset_interval_ms", |decoder| decoder.i32())?;
        let acceptable_recovery_lag = if version >= 1 {
            decoder.field("acceptable_recovery_lag", |decoder| decoder.i64())?
        } else {
            -1
        };
        let status = decoder.field("status", |decoder| {
            decoder.nullable_array_view(version, 3, |decoder| StatusView::check(decoder, version))
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
        let topology_description_required = if version >= 1 {
            decoder.field("topology_description_required", |decoder| decoder.bool())?
        } else {
            false
        };
        let endpoint_information_epoch =
            decoder.field("endpoint_information_epoch", |decoder| decoder.i32())?;
        let partitions_by_user_endpoint =
            decoder.field("partitions_by_user_endpoint", |decoder| {
                decoder.nullable_array_view(version, 7, |decoder| {
                    EndpointToPartitionsView::check(decoder, version)
                })
            })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        decoder.end_of_message()?;
        Ok(Self {
            throttle_time_ms,
            error_code,
            error_message,
            member_id,
            member_epoch,
            heartbeat_interval_ms,
            acceptable_recovery_lag_legacy,
            task_offset_interval_ms,
            acceptable_recovery_lag,
            status,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            topology_description_required,
            endpoint_information_epoch,
            partitions_by_user_endpoint,
            unknown_tagged_fields,
        })
    }

    /// The owned [`StreamsGroupHeartbeatResponse`] with the same values.
    pub fn to_owned(&self) -> StreamsGroupHeartbeatResponse {
        StreamsGroupHeartbeatResponse {
            throttle_time_ms: self.throttle_time_ms,
            error_code: self.error_code,
            error_message: self.error_message.map(String::from),
            member_id: String::from(self.member_id),
            member_epoch: self.member_epoch,
            heartbeat_interval_ms: self.heartbeat_interval_ms,
            acceptable_recovery_lag_legacy: self.acceptable_recovery_lag_legacy,
            task_offset_interval_ms: self.task_offset_interval_ms,
            acceptable_recovery_lag: self.acceptable_recovery_lag,
            status: self.status.map(|items| {
                items
                    .iter()
                    .map(|item| StatusView::to_owned(&item))
                    .collect()
            }),
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
            topology_description_required: self.topology_description_required,
            endpoint_information_epoch: self.endpoint_information_epoch,
            partitions_by_user_endpoint: self.partitions_by_user_endpoint.map(|items| {
                items
                    .iter()
                    .map(|item| EndpointToPartitionsView::to_owned(&item))
                    .collect()
            }),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.throttle_time_ms));
        visitor.integer(i64::from(self.error_code));
        match self.error_message {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.member_id);
        visitor.integer(i64::from(self.member_epoch));
        visitor.integer(i64::from(self.heartbeat_interval_ms));
        visitor.integer(i64::from(self.acceptable_recovery_lag_legacy));
        visitor.integer(i64::from(self.task_offset_interval_ms));
        visitor.integer(self.acceptable_recovery_lag);
        match self.status {
            Some(value) => {
                value.visit_items(visitor);
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
        visitor.integer(i64::from(self.topology_description_required));
        visitor.integer(i64::from(self.endpoint_information_epoch));
        match self.partitions_by_user_endpoint {
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
        visitor.integer(i64::from(self.throttle_time_ms));
        visitor.integer(i64::from(self.error_code));
        match self.error_message {
            Some(value) => {
                visitor.string(value);
            }
            None => visitor.null(),
        }
        visitor.string(self.member_id);
        visitor.integer(i64::from(self.member_epoch));
        visitor.integer(i64::from(self.heartbeat_interval_ms));
        visitor.integer(i64::from(self.acceptable_recovery_lag_legacy));
        visitor.integer(i64::from(self.task_offset_interval_ms));
        visitor.integer(self.acceptable_recovery_lag);
        match self.status {
            Some(value) => {
                visitor.array(value.len());
                for item in value.iter() {
                    item.visit_fields(visitor);
                }
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
        visitor.integer(i64::from(self.topology_description_required));
        visitor.integer(i64::from(self.endpoint_information_epoch));
        match self.partitions_by_user_endpoint {
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

impl<'a> ViewItem<'a> for StreamsGroupHeartbeatResponseView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let throttle_time_ms = cursor.i32()?;
        let error_code = cursor.i16()?;
        let error_message = cursor.nullable_string()?;
        let member_id = cursor.string()?;
        let member_epoch = cursor.i32()?;
        let heartbeat_interval_ms = cursor.i32()?;
        let acceptable_recovery_lag_legacy = if version <= 0 { cursor.i32()? } else { 0 };
        let task_offset_interval_ms = cursor.i32()?;
        let acceptable_recovery_lag = if version >= 1 { cursor.i64()? } else { -1 };
        let status = cursor.nullable_array::<StatusView<'a>>(version)?;
        let active_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let standby_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let warmup_tasks = cursor.nullable_array::<TaskIdsView<'a>>(version)?;
        let topology_description_required = if version >= 1 { cursor.bool()? } else { false };
        let endpoint_information_epoch = cursor.i32()?;
        let partitions_by_user_endpoint =
            cursor.nullable_array::<EndpointToPartitionsView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            throttle_time_ms,
            error_code,
            error_message,
            member_id,
            member_epoch,
            heartbeat_interval_ms,
            acceptable_recovery_lag_legacy,
            task_offset_interval_ms,
            acceptable_recovery_lag,
            status,
            active_tasks,
            standby_tasks,
            warmup_tasks,
            topology_description_required,
            endpoint_information_epoch,
            partitions_by_user_endpoint,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        cursor.skip(4)?;
        cursor.skip(2)?;
        cursor.skip_string()?;
        cursor.skip_string()?;
        cursor.skip(4)?;
        cursor.skip(4)?;
        if version <= 0 {
            cursor.skip(4)?;
        }
        cursor.skip(4)?;
        if version >= 1 {
            cursor.skip(8)?;
        }
        cursor.skip_array::<StatusView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        cursor.skip_array::<TaskIdsView<'a>>(version)?;
        if version >= 1 {
            cursor.skip(1)?;
        }
        cursor.skip(4)?;
        cursor.skip_array::<EndpointToPartitionsView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.integer(i64::from(cursor.i32()?));
        visitor.integer(i64::from(cursor.i16()?));
        match cursor.nullable_string()? {
            Some(value) => visitor.string(value),
            None => visitor.null(),
        }
        visitor.string(cursor.string()?);
        visitor.integer(i64::from(cursor.i32()?));
        visitor.integer(i64::from(cursor.i32()?));
        if version <= 0 {
            visitor.integer(i64::from(cursor.i32()?));
        } else {
            let absent: i32 = 0;
            visitor.integer(i64::from(absent));
        }
        visitor.integer(i64::from(cursor.i32()?));
        if version >= 1 {
            visitor.integer(cursor.i64()?);
        } else {
            let absent: i64 = -1;
            visitor.integer(absent);
        }
        cursor.visit_array::<StatusView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TaskIdsView<'a>, V>(version, visitor)?;
        if version >= 1 {
            visitor.integer(i64::from(cursor.bool()?));
        } else {
            let absent: bool = false;
            visitor.integer(i64::from(absent));
        }
        visitor.integer(i64::from(cursor.i32()?));
        cursor.visit_array::<EndpointToPartitionsView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

impl<'a> MessageView<'a> for StreamsGroupHeartbeatResponseView<'a> {
    type Owned = StreamsGroupHeartbeatResponse;
    #[inline(always)]
    fn decode(bytes: &'a [u8], version: i16) -> Result<Self, DecodeError> {
        StreamsGroupHeartbeatResponseView::decode(bytes, version)
    }
    fn to_message(&self) -> StreamsGroupHeartbeatResponse {
        self.to_owned()
    }
    fn visit_values<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit(visitor)
    }
    fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.visit_fields(visitor)
    }
}

/// [`EndpointToPartitions`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct EndpointToPartitionsView<'a> {
    /// See [`EndpointToPartitions::user_endpoint`].
    pub user_endpoint: EndpointView<'a>,
    /// See [`EndpointToPartitions::active_partitions`].
    pub active_partitions: ArrayView<'a, TopicPartitionView<'a>>,
    /// See [`EndpointToPartitions::standby_partitions`].
    pub standby_partitions: ArrayView<'a, TopicPartitionView<'a>>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for EndpointToPartitionsView<'_> {
    fn default() -> Self {
        EndpointToPartitionsView {
            user_endpoint: EndpointView::default(),
            active_partitions: ArrayView::default(),
            standby_partitions: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> EndpointToPartitionsView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let user_endpoint = decoder.field("user_endpoint", |decoder| {
            EndpointView::read(decoder, version)
        })?;
        let active_partitions = decoder.field("active_partitions", |decoder| {
            decoder.array_view(version, 3, |decoder| {
                TopicPartitionView::check(decoder, version)
            })
        })?;
        let standby_partitions = decoder.field("standby_partitions", |decoder| {
            decoder.array_view(version, 3, |decoder| {
                TopicPartitionView::check(decoder, version)
            })
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            user_endpoint,
            active_partitions,
            standby_partitions,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("user_endpoint", |decoder| {
            EndpointView::check(decoder, version)
        })?;
        decoder.field("active_partitions", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| {
                    TopicPartitionView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.field("standby_partitions", |decoder| {
            decoder
                .array_view::<()>(version, 3, |decoder| {
                    TopicPartitionView::check(decoder, version)
                })
                .map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`EndpointToPartitions`] with the same values.
    pub fn to_owned(&self) -> EndpointToPartitions {
        EndpointToPartitions {
            user_endpoint: EndpointView::to_owned(&self.user_endpoint),
            active_partitions: self
                .active_partitions
                .iter()
                .map(|item| TopicPartitionView::to_owned(&item))
                .collect(),
            standby_partitions: self
                .standby_partitions
                .iter()
                .map(|item| TopicPartitionView::to_owned(&item))
                .collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        self.user_endpoint.visit(visitor);
        self.active_partitions.visit_items(visitor);
        self.standby_partitions.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        self.user_endpoint.visit_fields(visitor);
        visitor.array(self.active_partitions.len());
        for item in self.active_partitions.iter() {
            item.visit_fields(visitor);
        }
        visitor.array(self.standby_partitions.len());
        for item in self.standby_partitions.iter() {
            item.visit_fields(visitor);
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for EndpointToPartitionsView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let user_endpoint = EndpointView::parse(cursor, version)?;
        let active_partitions = cursor.array::<TopicPartitionView<'a>>(version)?;
        let standby_partitions = cursor.array::<TopicPartitionView<'a>>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            user_endpoint,
            active_partitions,
            standby_partitions,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, version: i16) -> Option<()> {
        EndpointView::skip(cursor, version)?;
        cursor.skip_array::<TopicPartitionView<'a>>(version)?;
        cursor.skip_array::<TopicPartitionView<'a>>(version)?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        EndpointView::visit_bytes(cursor, version, visitor)?;
        cursor.visit_array::<TopicPartitionView<'a>, V>(version, visitor)?;
        cursor.visit_array::<TopicPartitionView<'a>, V>(version, visitor)?;
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`Status`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct StatusView<'a> {
    /// See [`Status::status_code`].
    pub status_code: i8,
    /// See [`Status::status_detail`].
    pub status_detail: &'a str,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for StatusView<'_> {
    fn default() -> Self {
        StatusView {
            status_code: 0,
            status_detail: "",
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> StatusView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<Self> {
        let status_code = decoder.field("status_code", |decoder| decoder.i8())?;
        let status_detail = decoder.field("status_detail", |decoder| decoder.str())?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            status_code,
            status_detail,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, _version: i16) -> DecodeResult<()> {
        decoder.field("status_code", |decoder| decoder.i8().map(drop))?;
        decoder.field("status_detail", |decoder| decoder.check_str())?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`Status`] with the same values.
    pub fn to_owned(&self) -> Status {
        Status {
            status_code: self.status_code,
            status_detail: String::from(self.status_detail),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.status_code));
        visitor.string(self.status_detail);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.integer(i64::from(self.status_code));
        visitor.string(self.status_detail);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for StatusView<'a> {
    fn parse(cursor: &mut Cursor<'a>, _version: i16) -> Option<Self> {
        let status_code = cursor.i8()?;
        let status_detail = cursor.string()?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            status_code,
            status_detail,
            unknown_tagged_fields,
        })
    }

    fn skip(cursor: &mut Cursor<'a>, _version: i16) -> Option<()> {
        cursor.skip(1)?;
        cursor.skip_string()?;
        cursor.skip_tagged_fields()
    }

    fn visit_bytes<V: ValueVisitor>(
        cursor: &mut Cursor<'a>,
        _version: i16,
        visitor: &mut V,
    ) -> Option<()> {
        visitor.integer(i64::from(cursor.i8()?));
        visitor.string(cursor.string()?);
        for (tag, data) in cursor.tagged_fields()?.iter() {
            visitor.tagged_field(tag, data);
        }
        Some(())
    }
}

/// [`TopicPartition`] borrowed from the bytes it was decoded from: strings point into them and arrays are read when iterated.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct TopicPartitionView<'a> {
    /// See [`TopicPartition::topic`].
    pub topic: &'a str,
    /// See [`TopicPartition::partitions`].
    pub partitions: ArrayView<'a, i32>,
    /// Tagged fields this schema does not declare, as they lie in the input.
    pub unknown_tagged_fields: RawTaggedFields<'a>,
}

impl Default for TopicPartitionView<'_> {
    fn default() -> Self {
        TopicPartitionView {
            topic: "",
            partitions: ArrayView::default(),
            unknown_tagged_fields: RawTaggedFields::default(),
        }
    }
}

impl<'a> TopicPartitionView<'a> {
    #[allow(dead_code, reason = "an array's items are only checked")]
    pub(crate) fn read(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<Self> {
        let topic = decoder.field("topic", |decoder| decoder.str())?;
        let partitions = decoder.field("partitions", |decoder| {
            decoder.fixed_array_view::<i32, 4>(version)
        })?;
        let unknown_tagged_fields = decoder.raw_tagged_fields()?;
        Ok(Self {
            topic,
            partitions,
            unknown_tagged_fields,
        })
    }

    #[allow(dead_code, reason = "not every struct is in an array")]
    pub(crate) fn check(decoder: &mut Decoder<'a>, version: i16) -> DecodeResult<()> {
        decoder.field("topic", |decoder| decoder.check_str())?;
        decoder.field("partitions", |decoder| {
            decoder.fixed_array_view::<(), 4>(version).map(drop)
        })?;
        decoder.raw_tagged_fields()?;
        Ok(())
    }

    /// The owned [`TopicPartition`] with the same values.
    pub fn to_owned(&self) -> TopicPartition {
        TopicPartition {
            topic: String::from(self.topic),
            partitions: self.partitions.iter().collect(),
            unknown_tagged_fields: self.unknown_tagged_fields.to_tagged_fields(),
        }
    }

    /// Hands every value to `visitor`, in wire order, reading each array's items in one pass.
    pub fn visit<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.topic);
        self.partitions.visit_items(visitor);
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }

    /// Hands the values of [`Self::visit`] to `visitor`, reading them through the fields and array iteration.
    pub fn visit_fields<V: ValueVisitor>(&self, visitor: &mut V) {
        visitor.string(self.topic);
        visitor.array(self.partitions.len());
        for item in self.partitions.iter() {
            visitor.integer(i64::from(item));
        }
        for (tag, data) in self.unknown_tagged_fields.iter() {
            visitor.tagged_field(tag, data);
        }
    }
}

impl<'a> ViewItem<'a> for TopicPartitionView<'a> {
    fn parse(cursor: &mut Cursor<'a>, version: i16) -> Option<Self> {
        let topic = cursor.string()?;
        let partitions = cursor.array::<i32>(version)?;
        let unknown_tagged_fields = cursor.tagged_fields()?;
        Some(Self {
            topic,
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

impl crate::WireMessage for StreamsGroupHeartbeatResponse {
    const NAME: &'static str = "StreamsGroupHeartbeatResponse";
    const API_KEY: i16 = 88;
    const VERSIONS: kafka_protocol::protocol::VersionRange =
        kafka_protocol::protocol::VersionRange { min: 0, max: 1 };
    const KIND: crate::MessageKind = crate::MessageKind::StreamsGroupHeartbeatResponse;
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

crate::impl_kafka_protocol_traits!(StreamsGroupHeartbeatResponse, header_version: 1);
