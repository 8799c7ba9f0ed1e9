package dev.streamspec.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.AssignmentConfigsImpl;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberMetadataAndStateImpl;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

/**
 * Runs Kafka's streams-group StickyTaskAssignor on cases read from stdin and prints its targets,
 * for coordinator/tests/kafka_assignor.rs. Input, one case after another:
 *
 * <pre>
 * case STANDBY_REPLICAS [NAME]
 * subtopology ID TASKS STATEFUL(0|1)
 * member ID PROCESS ACTIVE STANDBY OFFSETS
 * end
 * </pre>
 *
 * Task lists are "-" or comma-separated "subtopology:partition" (OFFSETS
 * "subtopology:partition:offset"). Members are given to the assignor in input order, in Kafka's
 * own group spec records. Output per case: "member ID ACTIVE STANDBY" lines in input order (lists
 * sorted), then "end".
 */
public final class KafkaAssignorOracle {

    /** One case of the input: a group for the assignor, and the topology it is to assign. */
    record Case(String name, GroupSpecImpl group, TopologyDescriber topology) {
        GroupAssignment assign(StickyTaskAssignor assignor) {
            return assignor.assign(group, topology);
        }
    }

    private record Subtopology(int tasks, boolean stateful) {
    }

    private static Map<String, Set<Integer>> tasks(String field) {
        Map<String, Set<Integer>> tasks = new HashMap<>();
        if (!field.equals("-")) {
            for (String task : field.split(",")) {
                String[] parts = task.split(":");
                tasks.computeIfAbsent(parts[0], id -> new TreeSet<>()).add(Integer.parseInt(parts[1]));
            }
        }
        return tasks;
    }

    private static Map<String, Map<Integer, Long>> offsets(String field) {
        Map<String, Map<Integer, Long>> offsets = new HashMap<>();
        if (!field.equals("-")) {
            for (String task : field.split(",")) {
                String[] parts = task.split(":");
                offsets.computeIfAbsent(parts[0], id -> new HashMap<>())
                    .put(Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
            }
        }
        return offsets;
    }

    private static String format(Map<String, Set<Integer>> tasks) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Set<Integer>> entry : new TreeMap<>(tasks).entrySet()) {
            for (int partition : new TreeSet<>(entry.getValue())) {
                out.add(entry.getKey() + ":" + partition);
            }
        }
        return out.isEmpty() ? "-" : String.join(",", out);
    }

    private static TopologyDescriber topology(Map<String, Subtopology> subtopologies) {
        List<String> ids = List.copyOf(subtopologies.keySet());
        return new TopologyDescriber() {
            public List<String> subtopologies() {
                return ids;
            }

            public int maxNumInputPartitions(String subtopologyId) {
                return subtopologies.get(subtopologyId).tasks();
            }

            public boolean isStateful(String subtopologyId) {
                return subtopologies.get(subtopologyId).stateful();
            }
        };
    }

    /** Reads every case of the input. */
    static List<Case> readCases(BufferedReader in) throws IOException {
        List<Case> cases = new ArrayList<>();
        String name = "";
        int standbys = 0;
        Map<String, Subtopology> subtopologies = new LinkedHashMap<>();
        Map<String, MemberMetadataAndStateImpl> members = new LinkedHashMap<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] fields = line.trim().split(" ");
            switch (fields[0]) {
                case "case" -> {
                    standbys = Integer.parseInt(fields[1]);
                    name = fields.length > 2 ? fields[2] : Integer.toString(cases.size());
                    subtopologies = new LinkedHashMap<>();
                    members = new LinkedHashMap<>();
                }
                case "subtopology" -> subtopologies.put(fields[1],
                    new Subtopology(Integer.parseInt(fields[2]), fields[3].equals("1")));
                case "member" -> members.put(fields[1], new MemberMetadataAndStateImpl(
                    Optional.empty(), Optional.empty(), fields[2], Map.of(),
                    tasks(fields[3]), tasks(fields[4]), Map.of(), offsets(fields[5]), Map.of()));
                case "end" -> cases.add(new Case(name,
                    new GroupSpecImpl(members, new AssignmentConfigsImpl(standbys, List.of())),
                    topology(subtopologies)));
                default -> throw new IllegalArgumentException("unexpected line: " + line);
            }
        }
        return cases;
    }

    /** The targets of {@code assignment} for the members of {@code aCase}, in the output format. */
    static String answer(Case aCase, GroupAssignment assignment) {
        StringBuilder out = new StringBuilder();
        for (String memberId : aCase.group().memberIds()) {
            MemberAssignment target = assignment.members().get(memberId);
            out.append("member ").append(memberId).append(' ')
                .append(format(target.activeTasks())).append(' ')
                .append(format(target.standbyTasks())).append('\n');
        }
        return out.append("end\n").toString();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        for (Case aCase : readCases(in)) {
            out.append(answer(aCase, aCase.assign(new StickyTaskAssignor())));
        }
        System.out.print(out);
    }
}
