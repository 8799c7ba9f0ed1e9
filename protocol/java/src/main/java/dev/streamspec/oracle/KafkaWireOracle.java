package dev.streamspec.oracle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * Checks bytes produced by the Rust encoder against Kafka's own generated message classes.
 *
 * <pre>
 *   KafkaWireOracle check CASES.jsonl      one JSON result line per case on stdout
 *   KafkaWireOracle schema NAME            prints common/message/NAME.json from kafka-clients
 *   KafkaWireOracle version                prints the kafka-clients and Jackson versions in use
 * </pre>
 *
 * Exit codes: 0 on success (whatever the per-case results), 2 on bad usage or bad input.
 */
public final class KafkaWireOracle {

    /** Key the Rust side may add to any JSON object; Kafka's converters never see it. */
    static final String UNKNOWN_TAGGED_FIELDS_KEY = "_unknownTaggedFields";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private KafkaWireOracle() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 2 && args[0].equals("check")) {
            return check(Paths.get(args[1]));
        }
        if (args.length == 2 && args[0].equals("schema")) {
            return schema(args[1]);
        }
        if (args.length == 1 && args[0].equals("version")) {
            System.out.println("kafka-clients " + kafkaVersion());
            System.out.println("jackson-databind "
                    + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION);
            return 0;
        }
        System.err.println("usage: KafkaWireOracle check CASES.jsonl");
        System.err.println("       KafkaWireOracle schema NAME   (e.g. StreamsGroupHeartbeatRequest)");
        System.err.println("       KafkaWireOracle version");
        return 2;
    }

    // ---------------------------------------------------------------- check

    private static int check(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            System.err.println("KafkaWireOracle: cannot read cases file " + file + ": " + describe(e));
            return 2;
        }

        // Parse every line before checking any, so bad input yields no partial output.
        List<JsonNode> cases = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = MAPPER.readTree(line);
            } catch (JsonProcessingException e) {
                System.err.println("KafkaWireOracle: " + file + " line " + (i + 1)
                        + " is not valid JSON: " + e.getOriginalMessage());
                return 2;
            }
            if (node == null || !node.isObject()) {
                System.err.println("KafkaWireOracle: " + file + " line " + (i + 1)
                        + " is not a JSON object");
                return 2;
            }
            cases.add(node);
        }

        try (Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
            for (JsonNode c : cases) {
                out.write(MAPPER.writeValueAsString(checkCase(c)));
                out.write('\n');
            }
        } catch (IOException e) {
            System.err.println("KafkaWireOracle: cannot write results: " + describe(e));
            return 2;
        }
        return 0;
    }

    /** Runs one case; never throws. */
    static ObjectNode checkCase(JsonNode c) {
        JsonNode nameNode = c.get("name");
        String name = nameNode != null && nameNode.isTextual() ? nameNode.asText() : null;

        ObjectNode result = MAPPER.createObjectNode();
        result.put("name", name);
        result.putNull("kafka_hex");
        result.put("bytes_equal", false);
        result.put("read_equal", false);
        result.put("fully_consumed", false);
        result.putNull("error");

        byte[] ours = null;
        byte[] kafka = null;
        try {
            String api = requireText(c, "api");
            ApiCodec codec = ApiCodec.forName(api);
            if (codec == null) {
                throw new IllegalArgumentException("unknown api '" + api + "'; known: "
                        + String.join(", ", ApiCodec.names()));
            }
            short version = requireVersion(c);
            if (!codec.supports(version)) {
                throw new UnsupportedVersionException(api + " version " + version
                        + " is not supported by kafka-clients " + kafkaVersion()
                        + " (supported: " + codec.lowestVersion + ".." + codec.highestVersion + ")");
            }
            String hex = requireText(c, "hex");
            ours = Hex.decode(hex);
            JsonNode json = c.get("json");
            if (json == null || !json.isObject()) {
                throw new IllegalArgumentException("field 'json' must be a JSON object");
            }

            // 1. Kafka's view of the message.
            ApiMessage expected = codec.fromJson(stripUnknownTaggedFields(json.deepCopy()), version);

            // 2. Kafka writes it.
            ObjectSerializationCache cache = new ObjectSerializationCache();
            int size = expected.size(cache, version);
            ByteBuffer buffer = ByteBuffer.allocate(size);
            expected.write(new ByteBufferAccessor(buffer), cache, version);
            if (buffer.hasRemaining()) {
                throw new IllegalStateException("Kafka computed size " + size + " but wrote only "
                        + buffer.position() + " bytes");
            }
            kafka = buffer.array();
            String kafkaHex = Hex.encode(kafka);
            result.put("kafka_hex", kafkaHex);
            boolean bytesEqual = kafkaHex.equals(Hex.encode(ours));

            // 3. Kafka reads our bytes.
            ByteBufferAccessor reader = new ByteBufferAccessor(ByteBuffer.wrap(ours));
            ApiMessage decoded = codec.fromBytes(reader, version);
            boolean readEqual = decoded.equals(expected);
            boolean fullyConsumed = reader.remaining() == 0;

            result.put("bytes_equal", bytesEqual);
            result.put("read_equal", readEqual);
            result.put("fully_consumed", fullyConsumed);

            if (!bytesEqual || !readEqual || !fullyConsumed) {
                explainMismatch(name, codec, version, ours, kafka, expected, decoded,
                        reader.remaining());
            }
        } catch (Exception | LinkageError | StackOverflowError | OutOfMemoryError e) {
            result.put("bytes_equal", false);
            result.put("read_equal", false);
            result.put("fully_consumed", false);
            result.put("error", describe(e));
            if (ours != null && kafka != null) {
                explainByteDifference("[" + name + "] ", ours, kafka);
            }
        }
        return result;
    }

    /** Removes {@link #UNKNOWN_TAGGED_FIELDS_KEY} from every object in the tree, in place. */
    static JsonNode stripUnknownTaggedFields(JsonNode node) {
        if (node.isObject()) {
            ((ObjectNode) node).remove(UNKNOWN_TAGGED_FIELDS_KEY);
        }
        // Iterating a container node yields its values (object members or array elements).
        for (JsonNode child : node) {
            stripUnknownTaggedFields(child);
        }
        return node;
    }

    /** Human-oriented detail on stderr; stdout carries only the result lines. */
    private static void explainMismatch(String name, ApiCodec codec, short version, byte[] ours,
                                        byte[] kafka, ApiMessage expected, ApiMessage decoded,
                                        int remaining) {
        PrintStream err = System.err;
        String label = "[" + name + "] ";
        explainByteDifference(label, ours, kafka);
        if (remaining != 0) {
            err.println(label + remaining + " trailing byte(s) left after Kafka read our bytes");
        }
        if (!decoded.equals(expected)) {
            err.println(label + "Kafka decoded our bytes to a different message");
            err.println(label + "  expected: " + safeJson(codec, expected, version));
            err.println(label + "  decoded:  " + safeJson(codec, decoded, version));
            if (!decoded.unknownTaggedFields().isEmpty()) {
                err.println(label + "  decoded has " + decoded.unknownTaggedFields().size()
                        + " unknown tagged field(s) at the top level");
            }
        }
    }

    private static void explainByteDifference(String label, byte[] ours, byte[] kafka) {
        if (Arrays.equals(ours, kafka)) {
            return;
        }
        int i = 0;
        while (i < ours.length && i < kafka.length && ours[i] == kafka[i]) {
            i++;
        }
        System.err.println(label + "bytes differ at offset " + i + " (ours " + ours.length
                + " bytes, kafka " + kafka.length + " bytes)");
        System.err.println(label + "  ours:  " + Hex.encode(ours));
        System.err.println(label + "  kafka: " + Hex.encode(kafka));
    }

    private static String safeJson(ApiCodec codec, ApiMessage message, short version) {
        try {
            return MAPPER.writeValueAsString(codec.toJson(message, version));
        } catch (Exception e) {
            return message.toString();
        }
    }

    private static String requireText(JsonNode c, String field) {
        JsonNode n = c.get(field);
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' must be a string");
        }
        return n.asText();
    }

    private static short requireVersion(JsonNode c) {
        JsonNode n = c.get("version");
        if (n == null || !n.isIntegralNumber() || !n.canConvertToInt()
                || n.asInt() < Short.MIN_VALUE || n.asInt() > Short.MAX_VALUE) {
            throw new IllegalArgumentException("field 'version' must be an integer in int16 range");
        }
        return (short) n.asInt();
    }

    private static String kafkaVersionCache;

    /** The kafka-clients version, from the properties file the jar ships (no internal API). */
    static synchronized String kafkaVersion() {
        if (kafkaVersionCache == null) {
            String version = "unknown";
            try (InputStream in = ApiMessage.class.getClassLoader()
                    .getResourceAsStream("kafka/kafka-version.properties")) {
                if (in != null) {
                    Properties props = new Properties();
                    props.load(in);
                    version = props.getProperty("version", "unknown");
                }
            } catch (IOException e) {
                // keep "unknown"
            }
            kafkaVersionCache = version;
        }
        return kafkaVersionCache;
    }

    static String describe(Throwable t) {
        String message = t.getMessage();
        return t.getClass().getSimpleName() + ": " + (message != null ? message : "(no message)");
    }

    // ---------------------------------------------------------------- schema

    private static int schema(String name) {
        if (!name.matches("[A-Za-z0-9]+")) {
            System.err.println("KafkaWireOracle: bad schema name '" + name
                    + "' (expected e.g. StreamsGroupHeartbeatRequest)");
            return 2;
        }
        String resource = "common/message/" + name + ".json";
        // Load via a Kafka class so the resource comes from the kafka-clients jar.
        ClassLoader loader = ApiMessage.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                System.err.println("KafkaWireOracle: resource " + resource
                        + " not found in kafka-clients " + kafkaVersion());
                return 2;
            }
            in.transferTo(System.out);
            System.out.flush();
            return 0;
        } catch (IOException e) {
            System.err.println("KafkaWireOracle: cannot read resource " + resource + ": " + describe(e));
            return 2;
        }
    }
}
