package dev.streamspec.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.common.message.StreamsGroupDescribeRequestData;
import org.apache.kafka.common.message.StreamsGroupDescribeRequestDataJsonConverter;
import org.apache.kafka.common.message.StreamsGroupDescribeResponseData;
import org.apache.kafka.common.message.StreamsGroupDescribeResponseDataJsonConverter;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestDataJsonConverter;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseDataJsonConverter;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Readable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The messages the oracle knows, each tied to its Kafka-generated data class and JSON converter.
 * Written out per message (no reflection) so that a renamed or removed Kafka class fails the build.
 */
final class ApiCodec {

    @FunctionalInterface
    interface FromJson {
        ApiMessage read(JsonNode node, short version);
    }

    @FunctionalInterface
    interface FromBytes {
        ApiMessage read(Readable readable, short version);
    }

    @FunctionalInterface
    interface ToJson {
        JsonNode write(ApiMessage message, short version);
    }

    final String name;
    final short lowestVersion;
    final short highestVersion;
    private final FromJson fromJson;
    private final FromBytes fromBytes;
    private final ToJson toJson;

    private ApiCodec(String name, short lowestVersion, short highestVersion,
                     FromJson fromJson, FromBytes fromBytes, ToJson toJson) {
        this.name = name;
        this.lowestVersion = lowestVersion;
        this.highestVersion = highestVersion;
        this.fromJson = fromJson;
        this.fromBytes = fromBytes;
        this.toJson = toJson;
    }

    /** {@code <Api>DataJsonConverter.read(node, version)}. */
    ApiMessage fromJson(JsonNode node, short version) {
        return fromJson.read(node, version);
    }

    /** {@code new <Api>Data(readable, version)}. */
    ApiMessage fromBytes(Readable readable, short version) {
        return fromBytes.read(readable, version);
    }

    /** {@code <Api>DataJsonConverter.write(message, version)}. */
    JsonNode toJson(ApiMessage message, short version) {
        return toJson.write(message, version);
    }

    boolean supports(short version) {
        return version >= lowestVersion && version <= highestVersion;
    }

    private static final Map<String, ApiCodec> BY_NAME;

    static {
        Map<String, ApiCodec> m = new LinkedHashMap<>();
        add(m, new ApiCodec("StreamsGroupHeartbeatRequest",
                StreamsGroupHeartbeatRequestData.LOWEST_SUPPORTED_VERSION,
                StreamsGroupHeartbeatRequestData.HIGHEST_SUPPORTED_VERSION,
                StreamsGroupHeartbeatRequestDataJsonConverter::read,
                StreamsGroupHeartbeatRequestData::new,
                (msg, v) -> StreamsGroupHeartbeatRequestDataJsonConverter.write(
                        (StreamsGroupHeartbeatRequestData) msg, v)));
        add(m, new ApiCodec("StreamsGroupHeartbeatResponse",
                StreamsGroupHeartbeatResponseData.LOWEST_SUPPORTED_VERSION,
                StreamsGroupHeartbeatResponseData.HIGHEST_SUPPORTED_VERSION,
                StreamsGroupHeartbeatResponseDataJsonConverter::read,
                StreamsGroupHeartbeatResponseData::new,
                (msg, v) -> StreamsGroupHeartbeatResponseDataJsonConverter.write(
                        (StreamsGroupHeartbeatResponseData) msg, v)));
        add(m, new ApiCodec("StreamsGroupDescribeRequest",
                StreamsGroupDescribeRequestData.LOWEST_SUPPORTED_VERSION,
                StreamsGroupDescribeRequestData.HIGHEST_SUPPORTED_VERSION,
                StreamsGroupDescribeRequestDataJsonConverter::read,
                StreamsGroupDescribeRequestData::new,
                (msg, v) -> StreamsGroupDescribeRequestDataJsonConverter.write(
                        (StreamsGroupDescribeRequestData) msg, v)));
        add(m, new ApiCodec("StreamsGroupDescribeResponse",
                StreamsGroupDescribeResponseData.LOWEST_SUPPORTED_VERSION,
                StreamsGroupDescribeResponseData.HIGHEST_SUPPORTED_VERSION,
                StreamsGroupDescribeResponseDataJsonConverter::read,
                StreamsGroupDescribeResponseData::new,
                (msg, v) -> StreamsGroupDescribeResponseDataJsonConverter.write(
                        (StreamsGroupDescribeResponseData) msg, v)));
        BY_NAME = Collections.unmodifiableMap(m);
    }

    private static void add(Map<String, ApiCodec> m, ApiCodec codec) {
        m.put(codec.name, codec);
    }

    /** The codec for an api base name such as {@code StreamsGroupHeartbeatRequest}, or null. */
    static ApiCodec forName(String name) {
        return BY_NAME.get(name);
    }

    static Iterable<String> names() {
        return BY_NAME.keySet();
    }
}
