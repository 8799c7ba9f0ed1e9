package dev.streamspec.oracle;

import java.io.BufferedReader;
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

import org.apache.kafka.coordinator.group.api.streams.assignor.AssignmentConfigs;
import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignmentMetadata;
import org.apache.kafka.coordinator.group.api.streams.assignor.MemberAssignmentState;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

/**
 * Runs Kafka's streams-group StickyTaskAssignor on cases read from stdin and prints its targets,
 * for coordinator/tests/kafka_assignor.rs. Input, one case after another:
 *
 * <pre>
 * case STANDBY_REPLICAS
 * subtopology ID TASKS STATEFUL(0|1)
 * member ID PROCESS ACTIVE STANDBY OFFSETS
 * end
 * </pre>
 *
 * Task lists are "-" or comma-separated "subtopology:partition" (OFFSETS
 * "subtopology:partition:offset"). Members are given to the assignor in input order. Output per
 * case: "member ID ACTIVE STANDBY" lines in input order (lists sorted), then "end".
 */
public final class KafkaAssignorOracle {

    private record Member(String process, Map<String, Set<Integer>> active,
                          Map<String, Set<Integer>> standby, Map<String, Map<Integer, Long>> offsets) {
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

    private static GroupAssignment assign(int standbys, Map<String, Subtopology> subtopologies,
                                          Map<String, Member> members) {
        GroupSpec spec = new GroupSpec() {
            public java.util.Collection<String> memberIds() {
                return members.keySet();
            }

            public MemberAssignmentMetadata memberMetadata(String memberId) {
                Member member = members.get(memberId);
                return new MemberAssignmentMetadata() {
                    public Optional<String> instanceId() {
                        return Optional.empty();
                    }

                    public Optional<String> rackId() {
                        return Optional.empty();
                    }

                    public String processId() {
                        return member.process();
                    }

                    public Map<String, String> clientTags() {
                        return Map.of();
                    }
                };
            }

            public MemberAssignmentState memberAssignmentState(String memberId) {
                Member member = members.get(memberId);
                return new MemberAssignmentState() {
                    public Map<String, Set<Integer>> activeTasks() {
                        return member.active();
                    }

                    public Map<String, Set<Integer>> standbyTasks() {
                        return member.standby();
                    }

                    public Map<String, Set<Integer>> warmupTasks() {
                        return Map.of();
                    }

                    public Map<String, Map<Integer, Long>> taskOffsets() {
                        return member.offsets();
                    }

                    public Map<String, Map<Integer, Long>> taskEndOffsets() {
                        return Map.of();
                    }
                };
            }

            public AssignmentConfigs configs() {
                return new AssignmentConfigs() {
                    public int numStandbyReplicas() {
                        return standbys;
                    }

                    public List<String> rackAwareAssignmentTags() {
                        return List.of();
                    }
                };
            }
        };
        TopologyDescriber topology = new TopologyDescriber() {
            public List<String> subtopologies() {
                return new ArrayList<>(subtopologies.keySet());
            }

            public int maxNumInputPartitions(String subtopologyId) {
                return subtopologies.get(subtopologyId).tasks();
            }

            public boolean isStateful(String subtopologyId) {
                return subtopologies.get(subtopologyId).stateful();
            }
        };
        return new StickyTaskAssignor().assign(spec, topology);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        int standbys = 0;
        Map<String, Subtopology> subtopologies = new LinkedHashMap<>();
        Map<String, Member> members = new LinkedHashMap<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] fields = line.trim().split(" ");
            switch (fields[0]) {
                case "case" -> {
                    standbys = Integer.parseInt(fields[1]);
                    subtopologies.clear();
                    members.clear();
                }
                case "subtopology" -> subtopologies.put(fields[1],
                    new Subtopology(Integer.parseInt(fields[2]), fields[3].equals("1")));
                case "member" -> members.put(fields[1],
                    new Member(fields[2], tasks(fields[3]), tasks(fields[4]), offsets(fields[5])));
                case "end" -> {
                    GroupAssignment assignment = assign(standbys, subtopologies, members);
                    for (String memberId : members.keySet()) {
                        MemberAssignment target = assignment.members().get(memberId);
                        out.append("member ").append(memberId).append(' ')
                            .append(format(target.activeTasks())).append(' ')
                            .append(format(target.standbyTasks())).append('\n');
                    }
                    out.append("end\n");
                }
                default -> throw new IllegalArgumentException("unexpected line: " + line);
            }
        }
        System.out.print(out);
    }
}
