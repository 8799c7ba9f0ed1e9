//! The wire layouts, in the order of each message's fields. A field of a nested struct is marked
//! with the versions of its own, where they are narrower than those of the struct.

use super::*;

pub(super) const API_VERSIONS_RESPONSE: Layout = Layout {
    name: "ApiVersionsResponse",
    versions: span(0, 4),
    flexible: from(3),
    fields: &[
        field("error_code", ALL, INT16),
        field("api_keys", ALL, Kind::Array(&Kind::Struct(API_VERSION))),
        field("throttle_time_ms", from(1), INT32),
        tagged(
            0,
            "supported_features",
            from(3),
            Kind::Array(&Kind::Struct(SUPPORTED_FEATURE)),
        ),
        tagged(1, "finalized_features_epoch", from(3), INT64),
        tagged(
            2,
            "finalized_features",
            from(3),
            Kind::Array(&Kind::Struct(FINALIZED_FEATURE)),
        ),
        tagged(3, "zk_migration_ready", from(3), BOOL),
    ],
};

const API_VERSION: &[Field] = &[
    field("api_key", ALL, INT16),
    field("min_version", ALL, INT16),
    field("max_version", ALL, INT16),
];

const SUPPORTED_FEATURE: &[Field] = &[
    field("name", ALL, STRING),
    field("min_version", ALL, INT16),
    field("max_version", ALL, INT16),
];

const FINALIZED_FEATURE: &[Field] = &[
    field("name", ALL, STRING),
    field("max_version_level", ALL, INT16),
    field("min_version_level", ALL, INT16),
];

pub(super) const METADATA_RESPONSE: Layout = Layout {
    name: "MetadataResponse",
    versions: span(0, 13),
    flexible: from(9),
    fields: &[
        field("throttle_time_ms", from(3), INT32),
        field("brokers", ALL, Kind::Array(&Kind::Struct(METADATA_BROKER))),
        field("cluster_id", from(2), STRING),
        field("controller_id", from(1), INT32),
        field("topics", ALL, Kind::Array(&Kind::Struct(METADATA_TOPIC))),
        field("cluster_authorized_operations", span(8, 10), INT32),
        field("error_code", from(13), INT16),
    ],
};

const METADATA_BROKER: &[Field] = &[
    field("node_id", ALL, INT32),
    field("host", ALL, STRING),
    field("port", ALL, INT32),
    field("rack", from(1), STRING),
];

const METADATA_TOPIC: &[Field] = &[
    field("error_code", ALL, INT16),
    field("name", ALL, STRING),
    field("topic_id", from(10), UUID),
    field("is_internal", from(1), BOOL),
    field(
        "partitions",
        ALL,
        Kind::Array(&Kind::Struct(METADATA_PARTITION)),
    ),
    field("topic_authorized_operations", from(8), INT32),
];

const METADATA_PARTITION: &[Field] = &[
    field("error_code", ALL, INT16),
    field("partition_index", ALL, INT32),
    field("leader_id", ALL, INT32),
    field("leader_epoch", from(7), INT32),
    field("replica_nodes", ALL, INT32S),
    field("isr_nodes", ALL, INT32S),
    field("offline_replicas", from(5), INT32S),
];

pub(super) const FIND_COORDINATOR_RESPONSE: Layout = Layout {
    name: "FindCoordinatorResponse",
    versions: span(0, 6),
    flexible: from(3),
    fields: &[
        field("throttle_time_ms", from(1), INT32),
        field("error_code", span(0, 3), INT16),
        field("error_message", span(1, 3), STRING),
        field("node_id", span(0, 3), INT32),
        field("host", span(0, 3), STRING),
        field("port", span(0, 3), INT32),
        field(
            "coordinators",
            from(4),
            Kind::Array(&Kind::Struct(COORDINATOR)),
        ),
    ],
};

const COORDINATOR: &[Field] = &[
    field("key", ALL, STRING),
    field("node_id", ALL, INT32),
    field("host", ALL, STRING),
    field("port", ALL, INT32),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

pub(super) const DESCRIBE_CLUSTER_RESPONSE: Layout = Layout {
    name: "DescribeClusterResponse",
    versions: span(0, 2),
    flexible: ALL,
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field("error_message", ALL, STRING),
        field("endpoint_type", from(1), INT8),
        field("cluster_id", ALL, STRING),
        field("controller_id", ALL, INT32),
        field(
            "brokers",
            ALL,
            Kind::Array(&Kind::Struct(DESCRIBE_CLUSTER_BROKER)),
        ),
        field("cluster_authorized_operations", ALL, INT32),
    ],
};

const DESCRIBE_CLUSTER_BROKER: &[Field] = &[
    field("broker_id", ALL, INT32),
    field("host", ALL, STRING),
    field("port", ALL, INT32),
    field("rack", ALL, STRING),
    field("is_fenced", from(2), BOOL),
];

pub(super) const CREATE_TOPICS_REQUEST: Layout = Layout {
    name: "CreateTopicsRequest",
    versions: span(2, 7),
    flexible: from(5),
    fields: &[
        field("topics", ALL, Kind::Array(&Kind::Struct(CREATABLE_TOPIC))),
        field("timeout_ms", ALL, INT32),
        field("validate_only", ALL, BOOL),
    ],
};

const CREATABLE_TOPIC: &[Field] = &[
    field("name", ALL, STRING),
    field("num_partitions", ALL, INT32),
    field("replication_factor", ALL, INT16),
    field(
        "assignments",
        ALL,
        Kind::Array(&Kind::Struct(CREATABLE_REPLICA_ASSIGNMENT)),
    ),
    field(
        "configs",
        ALL,
        Kind::Array(&Kind::Struct(CREATABLE_TOPIC_CONFIG)),
    ),
];

const CREATABLE_REPLICA_ASSIGNMENT: &[Field] = &[
    field("partition_index", ALL, INT32),
    field("broker_ids", ALL, INT32S),
];

const CREATABLE_TOPIC_CONFIG: &[Field] = &[field("name", ALL, STRING), field("value", ALL, STRING)];

pub(super) const CREATE_TOPICS_RESPONSE: Layout = Layout {
    name: "CreateTopicsResponse",
    versions: span(2, 7),
    flexible: from(5),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "topics",
            ALL,
            Kind::Array(&Kind::Struct(CREATABLE_TOPIC_RESULT)),
        ),
    ],
};

const CREATABLE_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("topic_id", from(7), UUID),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    tagged(0, "topic_config_error_code", from(5), INT16),
    field("num_partitions", from(5), INT32),
    field("replication_factor", from(5), INT16),
    field(
        "configs",
        from(5),
        Kind::Array(&Kind::Struct(CREATABLE_TOPIC_CONFIGS)),
    ),
];

const CREATABLE_TOPIC_CONFIGS: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("read_only", ALL, BOOL),
    field("config_source", ALL, INT8),
    field("is_sensitive", ALL, BOOL),
];

pub(super) const DELETE_TOPICS_RESPONSE: Layout = Layout {
    name: "DeleteTopicsResponse",
    versions: span(1, 6),
    flexible: from(4),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "responses",
            ALL,
            Kind::Array(&Kind::Struct(DELETABLE_TOPIC_RESULT)),
        ),
    ],
};

const DELETABLE_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("topic_id", from(6), UUID),
    field("error_code", ALL, INT16),
    field("error_message", from(5), STRING),
];

pub(super) const CREATE_PARTITIONS_RESPONSE: Layout = Layout {
    name: "CreatePartitionsResponse",
    versions: span(0, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(CREATE_PARTITIONS_TOPIC_RESULT)),
        ),
    ],
};

const CREATE_PARTITIONS_TOPIC_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

pub(super) const DESCRIBE_CONFIGS_RESPONSE: Layout = Layout {
    name: "DescribeConfigsResponse",
    versions: span(1, 4),
    flexible: from(4),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_RESULT)),
        ),
    ],
};

const DESCRIBE_CONFIGS_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field(
        "configs",
        ALL,
        Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_RESOURCE_RESULT)),
    ),
];

const DESCRIBE_CONFIGS_RESOURCE_RESULT: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("read_only", ALL, BOOL),
    field("config_source", ALL, INT8),
    field("is_sensitive", ALL, BOOL),
    field(
        "synonyms",
        ALL,
        Kind::Array(&Kind::Struct(DESCRIBE_CONFIGS_SYNONYM)),
    ),
    field("config_type", from(3), INT8),
    field("documentation", from(3), STRING),
];

const DESCRIBE_CONFIGS_SYNONYM: &[Field] = &[
    field("name", ALL, STRING),
    field("value", ALL, STRING),
    field("source", ALL, INT8),
];

pub(super) const INCREMENTAL_ALTER_CONFIGS_RESPONSE: Layout = Layout {
    name: "IncrementalAlterConfigsResponse",
    versions: span(0, 1),
    flexible: from(1),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "responses",
            ALL,
            Kind::Array(&Kind::Struct(ALTER_CONFIGS_RESOURCE_RESPONSE)),
        ),
    ],
};

const ALTER_CONFIGS_RESOURCE_RESPONSE: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
];

pub(super) const CONSUMER_GROUP_HEARTBEAT_RESPONSE: Layout = Layout {
    name: "ConsumerGroupHeartbeatResponse",
    versions: span(0, 1),
    flexible: ALL,
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field("error_message", ALL, STRING),
        field("member_id", ALL, STRING),
        field("member_epoch", ALL, INT32),
        field("heartbeat_interval_ms", ALL, INT32),
        field("assignment", ALL, Kind::NullableStruct(ASSIGNMENT)),
    ],
};

const ASSIGNMENT: &[Field] = &[field(
    "topic_partitions",
    ALL,
    Kind::Array(&Kind::Struct(TOPIC_PARTITIONS)),
)];

const TOPIC_PARTITIONS: &[Field] = &[
    field("topic_id", ALL, UUID),
    field("partitions", ALL, INT32S),
];

pub(super) const CREATE_ACLS_RESPONSE: Layout = Layout {
    name: "CreateAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "results",
            ALL,
            Kind::Array(&Kind::Struct(ACL_CREATION_RESULT)),
        ),
    ],
};

const ACL_CREATION_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
];

pub(super) const DESCRIBE_ACLS_RESPONSE: Layout = Layout {
    name: "DescribeAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field("error_message", ALL, STRING),
        field(
            "resources",
            ALL,
            Kind::Array(&Kind::Struct(DESCRIBE_ACLS_RESOURCE)),
        ),
    ],
};

const DESCRIBE_ACLS_RESOURCE: &[Field] = &[
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field("pattern_type", ALL, INT8),
    field("acls", ALL, Kind::Array(&Kind::Struct(ACL_DESCRIPTION))),
];

const ACL_DESCRIPTION: &[Field] = &[
    field("principal", ALL, STRING),
    field("host", ALL, STRING),
    field("operation", ALL, INT8),
    field("permission_type", ALL, INT8),
];

pub(super) const DELETE_ACLS_RESPONSE: Layout = Layout {
    name: "DeleteAclsResponse",
    versions: span(1, 3),
    flexible: from(2),
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field(
            "filter_results",
            ALL,
            Kind::Array(&Kind::Struct(DELETE_ACLS_FILTER_RESULT)),
        ),
    ],
};

const DELETE_ACLS_FILTER_RESULT: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field(
        "matching_acls",
        ALL,
        Kind::Array(&Kind::Struct(DELETE_ACLS_MATCHING_ACL)),
    ),
];

const DELETE_ACLS_MATCHING_ACL: &[Field] = &[
    field("error_code", ALL, INT16),
    field("error_message", ALL, STRING),
    field("resource_type", ALL, INT8),
    field("resource_name", ALL, STRING),
    field("pattern_type", ALL, INT8),
    field("principal", ALL, STRING),
    field("host", ALL, STRING),
    field("operation", ALL, INT8),
    field("permission_type", ALL, INT8),
];

pub(super) const LIST_GROUPS_RESPONSE: Layout = Layout {
    name: "ListGroupsResponse",
    versions: span(0, 5),
    flexible: from(3),
    fields: &[
        field("throttle_time_ms", from(1), INT32),
        field("error_code", ALL, INT16),
        field("groups", ALL, Kind::Array(&Kind::Struct(LISTED_GROUP))),
    ],
};

const LISTED_GROUP: &[Field] = &[
    field("group_id", ALL, STRING),
    field("protocol_type", ALL, STRING),
    field("group_state", from(4), STRING),
    field("group_type", from(5), STRING),
];

pub(super) const LIST_CONFIG_RESOURCES_RESPONSE: Layout = Layout {
    name: "ListConfigResourcesResponse",
    versions: span(0, 1),
    flexible: ALL,
    fields: &[
        field("throttle_time_ms", ALL, INT32),
        field("error_code", ALL, INT16),
        field(
            "config_resources",
            ALL,
            Kind::Array(&Kind::Struct(CONFIG_RESOURCE)),
        ),
    ],
};

const CONFIG_RESOURCE: &[Field] = &[
    field("resource_name", ALL, STRING),
    field("resource_type", from(1), INT8),
];

pub(super) const PRODUCE_REQUEST: Layout = Layout {
    name: "ProduceRequest",
    versions: span(3, 13),
    flexible: from(9),
    fields: &[
        field("transactional_id", ALL, STRING),
        field("acks", ALL, INT16),
        field("timeout_ms", ALL, INT32),
        field(
            "topic_data",
            ALL,
            Kind::Array(&Kind::Struct(TOPIC_PRODUCE_DATA)),
        ),
    ],
};

const TOPIC_PRODUCE_DATA: &[Field] = &[
    field("name", span(0, 12), STRING),
    field("topic_id", from(13), UUID),
    field(
        "partition_data",
        ALL,
        Kind::Array(&Kind::Struct(PARTITION_PRODUCE_DATA)),
    ),
];

const PARTITION_PRODUCE_DATA: &[Field] =
    &[field("index", ALL, INT32), field("records", ALL, BYTES)];
