import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.apache.kafka.common.message.StreamsGroupDescribeRequestData;
import org.apache.kafka.common.message.StreamsGroupDescribeResponseData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatRequestData;
import org.apache.kafka.common.message.StreamsGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * The Java side of scripts/bench/side-by-side.sh: times Kafka's generated message classes decoding
 * and encoding the bytes the Rust side wrote, on this thread's CPU clock, the way
 * protocol/benches/side_by_side.rs times ours.
 *
 * <p>Usage: CodecBench SAMPLE_DIR WARMUP_MS ROUNDS ROUND_MS. Reads SAMPLE_DIR/cases.tsv (name,
 * message, version) and prints "measure name=kafka/{decode,encode}/NAME min_ns=.. median_ns=..".
 */
public final class CodecBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Written by every operation, so that the JIT cannot drop the work. */
    static volatile Object sink;

    private CodecBench() {}

    interface Operation {
        void run();
    }

    static long cpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** Warms up, sizes a round to roundNs of CPU time, returns {min, median} ns per operation. */
    static double[] measure(long warmupNs, int rounds, long roundNs, Operation operation) {
        long iterations = 1;
        long warmupStart = cpuNanos();
        double perOperation;
        while (true) {
            long start = cpuNanos();
            for (long i = 0; i < iterations; i++) {
                operation.run();
            }
            long elapsed = Math.max(1, cpuNanos() - start);
            perOperation = (double) elapsed / iterations;
            if (cpuNanos() - warmupStart >= warmupNs) {
                break;
            }
            if (elapsed < roundNs / 4) {
                iterations *= 2;
            }
        }
        long perRound = Math.max(1, (long) (roundNs / perOperation));
        double[] results = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            long start = cpuNanos();
            for (long i = 0; i < perRound; i++) {
                operation.run();
            }
            results[round] = (double) (cpuNanos() - start) / perRound;
        }
        Arrays.sort(results);
        return new double[] {results[0], results[rounds / 2]};
    }

    static Function<ByteBuffer, Message> reader(String message, short version) {
        switch (message) {
            case "StreamsGroupHeartbeatRequest":
                return buffer -> new StreamsGroupHeartbeatRequestData(new ByteBufferAccessor(buffer), version);
            case "StreamsGroupHeartbeatResponse":
                return buffer -> new StreamsGroupHeartbeatResponseData(new ByteBufferAccessor(buffer), version);
            case "StreamsGroupDescribeRequest":
                return buffer -> new StreamsGroupDescribeRequestData(new ByteBufferAccessor(buffer), version);
            case "StreamsGroupDescribeResponse":
                return buffer -> new StreamsGroupDescribeResponseData(new ByteBufferAccessor(buffer), version);
            default:
                throw new IllegalArgumentException("unknown message " + message);
        }
    }

    /** Kafka's own way to serialize a message: compute the size, allocate, write. */
    static ByteBuffer encode(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buffer), cache, version);
        buffer.flip();
        return buffer;
    }

    static void report(String name, double[] result) {
        System.out.printf("measure name=%s min_ns=%.1f median_ns=%.1f%n", name, result[0], result[1]);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: CodecBench SAMPLE_DIR WARMUP_MS ROUNDS ROUND_MS");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        long warmupNs = Long.parseLong(args[1]) * 1_000_000L;
        int rounds = Integer.parseInt(args[2]);
        long roundNs = Long.parseLong(args[3]) * 1_000_000L;
        List<String> cases = Files.readAllLines(dir.resolve("cases.tsv"));
        for (String line : cases) {
            if (line.isBlank()) {
                continue;
            }
            String[] columns = line.split("\t");
            String name = columns[0];
            short version = Short.parseShort(columns[2]);
            byte[] bytes = Files.readAllBytes(dir.resolve(name + ".bin"));
            Function<ByteBuffer, Message> read = reader(columns[1], version);
            Message decoded = read.apply(ByteBuffer.wrap(bytes));
            // The same bytes must come back, or the two sides would not be doing the same work.
            ByteBuffer encoded = encode(decoded, version);
            byte[] reencoded = new byte[encoded.remaining()];
            encoded.get(reencoded);
            if (!Arrays.equals(bytes, reencoded)) {
                throw new IllegalStateException(name + ": Kafka re-encodes the sample differently");
            }
            report("kafka/decode/" + name, measure(warmupNs, rounds, roundNs,
                () -> sink = read.apply(ByteBuffer.wrap(bytes))));
            report("kafka/encode/" + name, measure(warmupNs, rounds, roundNs,
                () -> sink = encode(decoded, version)));
        }
    }
}
