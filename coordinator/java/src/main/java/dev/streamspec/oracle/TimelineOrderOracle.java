package dev.streamspec.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;

import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.timeline.SnapshotRegistry;
import org.apache.kafka.timeline.TimelineHashMap;

/**
 * Runs Kafka's TimelineHashMap (the map a streams group keeps its members in) on cases read from
 * stdin and prints the order it iterates its keys in, for coordinator/tests/kafka_assignor.rs.
 * Input: one case a line, operations separated by spaces, "+KEY" a put and "-KEY" a remove, on
 * a map created empty as Kafka's StreamsGroup creates it. Output: one line a case, the keys in
 * iteration order separated by spaces.
 */
public final class TimelineOrderOracle {
    private TimelineOrderOracle() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            TimelineHashMap<String, Boolean> map =
                new TimelineHashMap<>(new SnapshotRegistry(new LogContext()), 0);
            for (String operation : line.trim().split(" ")) {
                if (operation.startsWith("+")) {
                    map.put(operation.substring(1), Boolean.TRUE);
                } else if (operation.startsWith("-")) {
                    map.remove(operation.substring(1));
                }
            }
            StringJoiner keys = new StringJoiner(" ");
            map.forEach((key, value) -> keys.add(key));
            out.append(keys).append('\n');
        }
        System.out.print(out);
    }
}
