// Generated from `protocol/schemas/kafka/StreamsGroupHeartbeatResponse.json` by `streamspec-codegen` (`protocol/codegen`); do not edit.
//! `StreamsGroupHeartbeatResponse` (api key 88, versions 0-1), kafka dialect.

use serde::{Deserialize, Serialize};

use crate::codec::{
    arbitrary_tagged_fields, DecodeResult, Decoder, EncodeResult, Encoder, Recorder, Sink,
    TaggedFields,
};

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
