// Times Apache Kafka's own streams-group StickyTaskAssignor on the inputs of our criterion
// benchmark `target_assignment` (coordinator/benches/coordinator.rs): 10 stateful subtopologies,
// members two to a process, no previous assignment, 0 or 1 standby replica. Prints one line per
// case: "<members>m_<tasks>t_<standbys>s <mean ns per assignment> <iterations>".
// Run with scripts/kafka/assignor-bench.sh.

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.coordinator.group.api.streams.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.streams.assignor.TopologyDescriber;
import org.apache.kafka.coordinator.group.streams.assignor.AssignmentConfigsImpl;
import org.apache.kafka.coordinator.group.streams.assignor.GroupSpecImpl;
import org.apache.kafka.coordinator.group.streams.assignor.MemberMetadataAndStateImpl;
import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

public class AssignorBench {
    private static final int SUBTOPOLOGIES = 10;

    /** Every subtopology stateful with the same task count. */
    private static TopologyDescriber topology(int tasksPerSubtopology) {
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < SUBTOPOLOGIES; s++) {
            ids.add(Integer.toString(s));
        }
        return new TopologyDescriber() {
            public List<String> subtopologies() {
                return ids;
            }

            public int maxNumInputPartitions(String subtopologyId) {
                return tasksPerSubtopology;
            }

            public boolean isStateful(String subtopologyId) {
                return true;
            }
        };
    }

    private static GroupSpecImpl group(int members, int standbys) {
        Map<String, MemberMetadataAndStateImpl> specs = new HashMap<>();
        for (int index = 0; index < members; index++) {
            specs.put(String.format("m%04d", index), new MemberMetadataAndStateImpl(
                Optional.empty(), Optional.empty(), "p" + (index / 2), Map.of(),
                Map.of(), Map.of(), Map.of(), Map.of(), Map.of()));
        }
        return new GroupSpecImpl(specs, new AssignmentConfigsImpl(standbys, List.of()));
    }

    public static void main(String[] args) throws Exception {
        long budgetNanos = args.length > 0 ? Long.parseLong(args[0]) * 1_000_000L : 2_000_000_000L;
        StickyTaskAssignor assignor = new StickyTaskAssignor();
        for (int members : new int[] {10, 100, 1_000}) {
            for (int tasks : new int[] {100, 1_000, 10_000}) {
                for (int standbys : new int[] {0, 1}) {
                    GroupSpecImpl spec = group(members, standbys);
                    TopologyDescriber describer = topology(tasks / SUBTOPOLOGIES);
                    int sink = 0;
                    // Warm-up: let the JIT compile the assignor for this shape.
                    long warmUntil = System.nanoTime() + budgetNanos / 2;
                    while (System.nanoTime() < warmUntil) {
                        sink += assignor.assign(spec, describer).members().size();
                    }
                    long iterations = 0;
                    long start = System.nanoTime();
                    long elapsed;
                    do {
                        GroupAssignment assignment = assignor.assign(spec, describer);
                        sink += assignment.members().size();
                        iterations++;
                        elapsed = System.nanoTime() - start;
                    } while (elapsed < budgetNanos);
                    if (sink == 42) {
                        System.err.println("unlikely");
                    }
                    System.out.printf("%dm_%dt_%ds %d %d%n", members, tasks, standbys,
                        elapsed / iterations, iterations);
                }
            }
        }
    }
}
