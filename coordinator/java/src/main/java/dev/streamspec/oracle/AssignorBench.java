package dev.streamspec.oracle;

import java.io.BufferedReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor;

/**
 * Times Kafka's streams-group StickyTaskAssignor on the cases of a file in the oracle's input
 * format (KafkaAssignorOracle), written by the reference's side of the benchmark
 * (coordinator/examples/assignor_bench.rs), which measures the same way: per case, a warm-up of
 * WARMUP_MS of this thread's CPU time, then ROUNDS rounds of as many assignments as fill about
 * ROUND_MS, each timed by this thread's CPU time. Prints "NAME MIN_NS MEDIAN_NS" per case (CPU
 * nanoseconds per assignment, over the rounds) and writes Kafka's targets to ANSWERS.
 *
 * <pre>
 * java dev.streamspec.oracle.AssignorBench CASES ANSWERS ROUNDS ROUND_MS WARMUP_MS
 * </pre>
 */
public final class AssignorBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static long cpuNanos() {
        return THREADS.getCurrentThreadCpuTime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: AssignorBench CASES ANSWERS ROUNDS ROUND_MS WARMUP_MS");
        }
        List<KafkaAssignorOracle.Case> cases;
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            cases = KafkaAssignorOracle.readCases(in);
        }
        int rounds = Integer.parseInt(args[2]);
        long roundNanos = Long.parseLong(args[3]) * 1_000_000L;
        long warmupNanos = Long.parseLong(args[4]) * 1_000_000L;
        StickyTaskAssignor assignor = new StickyTaskAssignor();
        long sink = 0;
        try (PrintStream answers = new PrintStream(Files.newOutputStream(Path.of(args[1])), false,
                StandardCharsets.UTF_8)) {
            for (KafkaAssignorOracle.Case aCase : cases) {
                answers.print(KafkaAssignorOracle.answer(aCase, aCase.assign(assignor)));
                long warmed = 0;
                long start = cpuNanos();
                long spent;
                do {
                    sink += aCase.assign(assignor).members().size();
                    warmed++;
                    spent = cpuNanos() - start;
                } while (spent < warmupNanos);
                long batch = Math.max(1, roundNanos * warmed / Math.max(1, spent));
                long[] perAssignment = new long[rounds];
                for (int round = 0; round < rounds; round++) {
                    long roundStart = cpuNanos();
                    for (long i = 0; i < batch; i++) {
                        sink += aCase.assign(assignor).members().size();
                    }
                    perAssignment[round] = (cpuNanos() - roundStart) / batch;
                }
                Arrays.sort(perAssignment);
                System.out.printf("%s %d %d%n", aCase.name(), perAssignment[0],
                    perAssignment[rounds / 2]);
            }
        }
        if (sink == 42) {
            System.err.println("(unlikely)");
        }
    }
}
