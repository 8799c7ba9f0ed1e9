package dev.streamspec.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberAssignment;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.admin.StreamsGroupSubtopologyDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * A stateful Kafka Streams application on the Streams rebalance protocol (KIP-1071), and the tools
 * to drive and check it: one topic of words is re-keyed by word (a repartition topic), counted in a
 * state store (a changelog topic) and the counts written to an output topic.
 *
 * <pre>
 * WordCount setup    --bootstrap B --app-id A [--partitions 6] [--standbys 1]
 * WordCount produce  --bootstrap B --app-id A --from I --to J --keys K [--rate PER_SECOND] [--timeout-s 120]
 * WordCount run      --bootstrap B --app-id A --state-dir DIR
 * WordCount settled  --bootstrap B --app-id A --members M [--partitions 6] [--timeout-s 120]
 * WordCount verify   --bootstrap B --app-id A --records N --keys K [--timeout-s 120]
 * </pre>
 *
 * Exit codes: 0 done; 1 a check failed or its deadline passed (the reason is printed); 2 bad
 * usage; 3 the application or a Kafka call failed.
 */
public final class WordCount {
    static final int EXIT_CHECK_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_ERROR = 3;
    /** The group config by which the broker assigns standby tasks to a streams group. */
    static final String GROUP_STANDBY_REPLICAS = "streams.num.standby.replicas";
    /** Bound on any single Admin call. */
    static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    private WordCount() {}

    public static void main(String[] args) {
        int code;
        try {
            code = dispatch(args);
        } catch (UsageException e) {
            System.err.println("usage: " + e.getMessage());
            code = EXIT_USAGE;
        } catch (Exception e) {
            System.err.println("error: " + e);
            e.printStackTrace(System.err);
            code = EXIT_ERROR;
        }
        System.out.flush();
        System.exit(code);
    }

    static int dispatch(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("WordCount setup|produce|run|settled|verify --bootstrap HOST:PORT --app-id ID ...");
        }
        Options options = Options.parse(args, 1);
        switch (args[0]) {
            case "setup":
                return setup(options);
            case "produce":
                return produce(options);
            case "run":
                return run(options);
            case "settled":
                return settled(options);
            case "verify":
                return verify(options);
            default:
                throw new UsageException("unknown mode " + args[0]);
        }
    }

    static String inputTopic(String appId) {
        return appId + "-words";
    }

    static String outputTopic(String appId) {
        return appId + "-counts";
    }

    /** The word of input record `index`: a fixed spread over `keys` words. */
    static String word(long index, int keys) {
        return "w" + Math.floorMod(index * 7, keys);
    }

    /** How often each word occurs among records 0 to `records` - 1. */
    static Map<String, Long> expectedCounts(long records, int keys) {
        Map<String, Long> counts = new TreeMap<>();
        for (long index = 0; index < records; index++) {
            counts.merge(word(index, keys), 1L, Long::sum);
        }
        return counts;
    }

    // ---- setup ---------------------------------------------------------------------------------

    static int setup(Options options) throws Exception {
        String appId = options.required("app-id");
        int partitions = options.integer("partitions", 6);
        int standbys = options.integer("standbys", 1);
        try (Admin admin = admin(options)) {
            List<NewTopic> topics = List.of(
                    new NewTopic(inputTopic(appId), partitions, (short) 1),
                    new NewTopic(outputTopic(appId), partitions, (short) 1));
            admin.createTopics(topics).all().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, appId);
            AlterConfigOp setStandbys = new AlterConfigOp(
                    new ConfigEntry(GROUP_STANDBY_REPLICAS, Integer.toString(standbys)), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(group, List.of(setStandbys)))
                    .all()
                    .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            // The change reaches the broker's config view through the metadata log, a moment later.
            long deadline = System.nanoTime() + CALL_TIMEOUT.toNanos();
            String stored;
            while (true) {
                stored = admin.describeConfigs(List.of(group))
                        .all()
                        .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(group)
                        .get(GROUP_STANDBY_REPLICAS)
                        .value();
                if (Integer.toString(standbys).equals(stored)) {
                    break;
                }
                if (System.nanoTime() >= deadline) {
                    System.out.println("setup: group config " + GROUP_STANDBY_REPLICAS + " reads " + stored
                            + ", not " + standbys + ", " + CALL_TIMEOUT.toSeconds() + " s after it was set");
                    return EXIT_CHECK_FAILED;
                }
                Thread.sleep(100);
            }
            System.out.printf("setup: topics %s and %s with %d partitions; group %s has %s=%s%n",
                    inputTopic(appId), outputTopic(appId), partitions, appId, GROUP_STANDBY_REPLICAS, stored);
        }
        return 0;
    }

    // ---- produce -------------------------------------------------------------------------------

    static int produce(Options options) throws Exception {
        String appId = options.required("app-id");
        long from = options.longValue("from", 0);
        long to = options.longValue("to", -1);
        int keys = options.integer("keys", 0);
        int rate = options.integer("rate", 0);
        if (to < from || keys <= 0) {
            throw new UsageException("produce needs --from I --to J with I <= J and --keys K > 0");
        }
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.required("bootstrap"));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        long started = System.nanoTime();
        long deadline = deadline(options);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            for (long index = from; index < to; index++) {
                // The record key spreads records over the input partitions; the word is the value.
                producer.send(new ProducerRecord<>(inputTopic(appId), "r" + index, word(index, keys)),
                        (metadata, exception) -> {
                            if (exception != null) {
                                failure.compareAndSet(null, exception);
                            }
                        });
                // A failed send fails the run at once, rather than each later one waiting in turn.
                if (failure.get() != null || System.nanoTime() >= deadline) {
                    break;
                }
                if (rate > 0) {
                    long due = started + (index - from + 1) * 1_000_000_000L / rate;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            System.out.println("produce: a send failed: " + failure.get());
            return EXIT_ERROR;
        }
        if (System.nanoTime() >= deadline) {
            System.out.println("produce: not done in " + options.integer("timeout-s", 120) + " s");
            return EXIT_CHECK_FAILED;
        }
        System.out.printf("produce: records %d to %d over %d words in %d ms%n",
                from, to - 1, keys, (System.nanoTime() - started) / 1_000_000);
        return 0;
    }

    // ---- run -----------------------------------------------------------------------------------

    static int run(Options options) throws Exception {
        String appId = options.required("app-id");
        Path stateDir = Path.of(options.required("state-dir"));
        Files.createDirectories(stateDir);
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.required("bootstrap"));
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(inputTopic(appId), Consumed.with(Serdes.String(), Serdes.String()))
                // Re-keying by word makes Streams route the records through a repartition topic.
                .selectKey((recordKey, word) -> word)
                .groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to(outputTopic(appId), Produced.with(Serdes.String(), Serdes.Long()));

        AtomicInteger exitCode = new AtomicInteger(0);
        CountDownLatch stopped = new CountDownLatch(1);
        KafkaStreams streams = new KafkaStreams(builder.build(), config);
        streams.setStateListener((now, before) -> {
            System.out.printf("run: state %s -> %s%n", before, now);
            if (now == KafkaStreams.State.ERROR) {
                exitCode.set(EXIT_ERROR);
            }
            if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
                stopped.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(exception -> {
            System.out.println("run: stream thread failed: " + exception);
            exitCode.set(EXIT_ERROR);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        // SIGTERM closes the application cleanly: it commits, leaves the group and releases its state.
        Thread closer = new Thread(() -> {
            System.out.println("run: closing");
            boolean closed = streams.close(Duration.ofSeconds(60));
            System.out.println(closed ? "run: closed" : "run: close timed out");
            stopped.countDown();
        });
        Runtime.getRuntime().addShutdownHook(closer);
        streams.start();
        stopped.await();
        return exitCode.get();
    }

    // ---- settled -------------------------------------------------------------------------------

    static int settled(Options options) throws Exception {
        String appId = options.required("app-id");
        int members = options.integer("members", 0);
        int partitions = options.integer("partitions", 6);
        int standbys = options.integer("standbys", 1);
        long deadline = deadline(options);
        if (members <= 0) {
            throw new UsageException("settled needs --members M > 0");
        }
        try (Admin admin = admin(options)) {
            String reason;
            do {
                reason = unsettled(describe(admin, appId), members, partitions, standbys);
                if (reason == null) {
                    return 0;
                }
                Thread.sleep(POLL_INTERVAL.toMillis());
            } while (System.nanoTime() < deadline);
            System.out.println("settled: not settled in " + options.integer("timeout-s", 120) + " s: " + reason);
            return EXIT_CHECK_FAILED;
        }
    }

    static StreamsGroupDescription describe(Admin admin, String groupId) throws Exception {
        try {
            return admin.describeStreamsGroups(List.of(groupId))
                    .all()
                    .get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .get(groupId);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Why the group is not settled, or null when it is: Stable, `members` members each at the
     * group epoch and owning exactly its target assignment, every task of both subtopologies
     * active on exactly one member, and each stateful task with `standbys` standbys elsewhere once
     * there are members enough for them.
     */
    static String unsettled(StreamsGroupDescription group, int members, int partitions, int standbys) {
        if (group == null) {
            return "the group does not exist yet";
        }
        String summary = summary(group);
        if (group.groupState() != GroupState.STABLE) {
            return "state " + group.groupState() + "; " + summary;
        }
        if (group.members().size() != members) {
            return group.members().size() + " members, not " + members + "; " + summary;
        }
        if (group.targetAssignmentEpoch() != group.groupEpoch()) {
            return "target assignment epoch " + group.targetAssignmentEpoch() + " below the group epoch; " + summary;
        }
        Map<String, String> activeOwner = new HashMap<>();
        Map<String, List<String>> standbyOwners = new HashMap<>();
        for (StreamsGroupMemberDescription member : group.members()) {
            if (member.memberEpoch() != group.groupEpoch()) {
                return "member " + member.memberId() + " at epoch " + member.memberEpoch() + "; " + summary;
            }
            if (!tasks(member.assignment()).equals(tasks(member.targetAssignment()))) {
                return "member " + member.memberId() + " owns " + tasks(member.assignment())
                        + " while its target is " + tasks(member.targetAssignment()) + "; " + summary;
            }
            for (String task : taskSet(member.assignment().activeTasks())) {
                String previous = activeOwner.put(task, member.memberId());
                if (previous != null) {
                    return "task " + task + " active on " + previous + " and " + member.memberId();
                }
            }
            for (String task : taskSet(member.assignment().standbyTasks())) {
                standbyOwners.computeIfAbsent(task, t -> new ArrayList<>()).add(member.memberId());
            }
        }
        if (group.subtopologies().size() != 2) {
            return group.subtopologies().size() + " subtopologies, not 2; " + summary;
        }
        Set<String> expectedActive = new TreeSet<>();
        Set<String> stateful = new TreeSet<>();
        for (StreamsGroupSubtopologyDescription subtopology : group.subtopologies()) {
            for (int partition = 0; partition < partitions; partition++) {
                String task = subtopology.subtopologyId() + "_" + partition;
                expectedActive.add(task);
                if (!subtopology.stateChangelogTopics().isEmpty()) {
                    stateful.add(task);
                }
            }
        }
        if (!activeOwner.keySet().equals(expectedActive)) {
            return "active tasks " + new TreeSet<>(activeOwner.keySet()) + ", not " + expectedActive;
        }
        int wanted = Math.min(standbys, members - 1);
        for (String task : stateful) {
            List<String> owners = standbyOwners.getOrDefault(task, List.of());
            if (owners.size() != wanted || owners.contains(activeOwner.get(task))) {
                return "stateful task " + task + " has standbys on " + owners + " (active on "
                        + activeOwner.get(task) + "), wanted " + wanted + " elsewhere; " + summary;
            }
        }
        if (!stateful.containsAll(standbyOwners.keySet())) {
            return "standbys of stateless tasks: " + standbyOwners.keySet();
        }
        System.out.printf("settled: %d members at group epoch %d, %d active tasks once each, %d standby tasks; %s%n",
                members, group.groupEpoch(), expectedActive.size(), stateful.size() * wanted, summary);
        return null;
    }

    static String summary(StreamsGroupDescription group) {
        StringBuilder text = new StringBuilder("epoch " + group.groupEpoch() + ", members");
        for (StreamsGroupMemberDescription member : group.members()) {
            text.append(' ')
                    .append(member.memberId(), 0, Math.min(8, member.memberId().length()))
                    .append("@")
                    .append(member.memberEpoch())
                    .append(tasks(member.assignment()));
        }
        return text.toString();
    }

    /** A member's tasks as {active, standby, warm-up} sets of SUBTOPOLOGY_PARTITION. */
    static List<Set<String>> tasks(StreamsGroupMemberAssignment assignment) {
        return List.of(
                taskSet(assignment.activeTasks()),
                taskSet(assignment.standbyTasks()),
                taskSet(assignment.warmupTasks()));
    }

    static Set<String> taskSet(Collection<StreamsGroupMemberAssignment.TaskIds> taskIds) {
        Set<String> tasks = new TreeSet<>();
        for (StreamsGroupMemberAssignment.TaskIds ids : taskIds) {
            for (int partition : ids.partitions()) {
                tasks.add(ids.subtopologyId() + "_" + partition);
            }
        }
        return tasks;
    }

    // ---- verify --------------------------------------------------------------------------------

    static int verify(Options options) throws Exception {
        String appId = options.required("app-id");
        long records = options.longValue("records", -1);
        int keys = options.integer("keys", 0);
        if (records < 0 || keys <= 0) {
            throw new UsageException("verify needs --records N >= 0 and --keys K > 0");
        }
        long deadline = deadline(options);
        Map<String, Long> expected = expectedCounts(records, keys);
        Map<String, Long> latest = new TreeMap<>();
        long outputRecords = 0;
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.required("bootstrap"));
        // Only what committed transactions wrote: an aborted attempt's counts must not show.
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, Long> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new LongDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(outputTopic(appId), CALL_TIMEOUT)
                    .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (true) {
                for (ConsumerRecord<String, Long> record : consumer.poll(POLL_INTERVAL)) {
                    outputRecords++;
                    Long previous = latest.put(record.key(), record.value());
                    // Each committed count of a word is above the one committed before it; a count
                    // that repeats or falls means input was counted twice or lost.
                    if (previous != null && record.value() <= previous) {
                        System.out.printf("verify: %s counted %d after %d (%s offset %d)%n",
                                record.key(), record.value(), previous, record.topic() + "-" + record.partition(),
                                record.offset());
                        return EXIT_CHECK_FAILED;
                    }
                }
                boolean atEnd = true;
                Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, CALL_TIMEOUT);
                for (TopicPartition partition : partitions) {
                    atEnd &= consumer.position(partition, CALL_TIMEOUT) >= ends.get(partition);
                }
                if (atEnd && latest.equals(expected)) {
                    break;
                }
                if (System.nanoTime() >= deadline) {
                    System.out.printf("verify: after %d s the counts differ from the input's (read %d output records%s)%n",
                            options.integer("timeout-s", 120), outputRecords, atEnd ? ", at the end" : "");
                    Set<String> words = new TreeSet<>(expected.keySet());
                    words.addAll(latest.keySet());
                    for (String word : words) {
                        if (!expected.getOrDefault(word, 0L).equals(latest.getOrDefault(word, 0L))) {
                            System.out.printf("verify:   %s expected %d, counted %d%n",
                                    word, expected.getOrDefault(word, 0L), latest.getOrDefault(word, 0L));
                        }
                    }
                    return EXIT_CHECK_FAILED;
                }
            }
        }
        long min = expected.values().stream().mapToLong(Long::longValue).min().orElse(0);
        long max = expected.values().stream().mapToLong(Long::longValue).max().orElse(0);
        System.out.printf("verify: %d input records, %d words, each final count exact (%d to %d per word, sum %d),"
                        + " %d committed output records, every count above the one before%n",
                records, expected.size(), min, max, latest.values().stream().mapToLong(Long::longValue).sum(),
                outputRecords);
        return 0;
    }

    // ---- shared --------------------------------------------------------------------------------

    static Admin admin(Options options) throws UsageException {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.required("bootstrap"));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        return Admin.create(config);
    }

    static long deadline(Options options) throws UsageException {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(options.integer("timeout-s", 120));
    }

    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** `--name value` pairs. */
    static final class Options {
        private final Map<String, String> values = new HashMap<>();

        static Options parse(String[] args, int from) throws UsageException {
            Options options = new Options();
            for (int i = from; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 >= args.length) {
                    throw new UsageException("expected --name value, got " + args[i]);
                }
                options.values.put(args[i].substring(2), args[i + 1]);
            }
            return options;
        }

        String required(String name) throws UsageException {
            String value = values.get(name);
            if (value == null) {
                throw new UsageException("--" + name + " is required");
            }
            return value;
        }

        long longValue(String name, long fallback) throws UsageException {
            String value = values.get(name);
            try {
                return value == null ? fallback : Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " takes a number, not " + value);
            }
        }

        int integer(String name, int fallback) throws UsageException {
            long value = longValue(name, fallback);
            if (value != (int) value) {
                throw new UsageException("--" + name + " is out of range: " + value);
            }
            return (int) value;
        }
    }
}
