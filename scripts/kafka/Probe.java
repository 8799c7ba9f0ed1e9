// Readiness probe for a local Kafka broker with the Streams rebalance protocol (KIP-1071).
//
// Run with the broker's classpath (it needs kafka-clients only):
//   java -cp "$(cat classpath.txt)" scripts/kafka/Probe.java 127.0.0.1:9092 [options]
// Options:
//   --timeout-ms N   give up after N ms (default 90000)
//   --pid P          fail at once if process P dies while waiting
//   --group ID       streams group id to describe (default streamspec-readiness-probe)
//   --once           one attempt, no retries (exit 1 if not ready)
//   --coordinator    once ready, also find the group coordinator of ID (raw FindCoordinator v4)
//                    and print it: on a cluster it is the leader of the group's partition of
//                    __consumer_offsets, not necessarily the broker asked
//
// Ready means, in this order:
//   1. a raw ApiVersions v4 request is answered, and lists api keys 88 (StreamsGroupHeartbeat)
//      and 89 (StreamsGroupDescribe);
//   2. the finalized feature streams.version is >= 1 (the per-request gate of the broker);
//   3. Admin#describeStreamsGroups(ID) returns (GROUP_ID_NOT_FOUND counts as success: it comes
//      from the loaded group coordinator, so __consumer_offsets exists and is loaded).
//
// Output (stdout), one fact per line, e.g.
//   api_key=88 name=StreamsGroupHeartbeat min_version=0 max_version=1   (4.4.0)
//   api_key=89 name=StreamsGroupDescribe min_version=0 max_version=1
//   feature=streams.version finalized_max=1 supported=0-1
//   feature=metadata.version finalized_max=33
//   api_versions=0:0-13 1:4-18 ...   (every api key the broker lists)
//   finalized_features=group.version:1 streams.version:1 ...
//   streams_group_describe group=... result=GROUP_ID_NOT_FOUND
//   READY
//   coordinator group=... node=2 address=127.0.0.1:9502   (with --coordinator)
// Exit codes: 0 ready, 1 timed out, 2 the broker answers but the protocol is off (no key 88/89,
// or describe answered UNSUPPORTED_VERSION), 3 the process given by --pid died.

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeStreamsGroupsOptions;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

public class Probe {
    static final short API_VERSIONS_KEY = 18;
    // v4 (KIP-1022): same request schema as v3, but the broker then also lists supported features
    // whose minimum is 0 (streams.version, group.version, ...); for v3 it leaves them out.
    static final short API_VERSIONS_VERSION = 4;
    static final short STREAMS_HEARTBEAT = 88;
    static final short STREAMS_DESCRIBE = 89;
    static final short FIND_COORDINATOR_KEY = 10;
    // v4 (KIP-699): the first version with a batch of keys; header v2, response header v1.
    static final short FIND_COORDINATOR_VERSION = 4;
    static final short COORDINATOR_LOAD_IN_PROGRESS = 14;
    static final short COORDINATOR_NOT_AVAILABLE = 15;

    static final class Fatal extends Exception {
        final int code;
        Fatal(int code, String msg) { super(msg); this.code = code; }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Probe HOST:PORT [--timeout-ms N] [--pid P] [--group ID] [--once] [--coordinator]");
            System.exit(64);
        }
        String bootstrap = args[0];
        long timeoutMs = 90_000;
        long pid = -1;
        String group = "streamspec-readiness-probe";
        boolean once = false;
        boolean coordinator = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--timeout-ms": timeoutMs = Long.parseLong(args[++i]); break;
                case "--pid": pid = Long.parseLong(args[++i]); break;
                case "--group": group = args[++i]; break;
                case "--once": once = true; break;
                case "--coordinator": coordinator = true; break;
                default:
                    System.err.println("unknown argument: " + args[i]);
                    System.exit(64);
            }
        }
        int colon = bootstrap.lastIndexOf(':');
        String host = bootstrap.substring(0, colon);
        int port = Integer.parseInt(bootstrap.substring(colon + 1));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            int code = run(host, port, bootstrap, group, pid, deadline, once);
            if (code == 0 && coordinator) code = printCoordinator(host, port, group, pid, deadline, once);
            System.out.flush();
            System.exit(code);
        } catch (Fatal f) {
            System.err.println("probe: " + f.getMessage());
            System.out.flush();
            System.exit(f.code);
        }
    }

    static long remainingMs(long deadline) {
        return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    }

    static void checkAlive(long pid) throws Fatal {
        if (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new Fatal(3, "broker process " + pid + " is not running");
        }
    }

    static void pause(long deadline) throws InterruptedException {
        Thread.sleep(Math.max(0, Math.min(250, remainingMs(deadline))));
    }

    static int run(String host, int port, String bootstrap, String group, long pid, long deadline, boolean once)
            throws Exception {
        // Step 1 and 2: raw ApiVersions until it answers with key 88/89 and streams.version >= 1.
        String lastError = "no attempt";
        ApiVersionsResponseData av = null;
        while (true) {
            checkAlive(pid);
            try {
                av = apiVersions(host, port, (int) Math.max(500, Math.min(5000, remainingMs(deadline))));
                if (av.errorCode() != 0) {
                    lastError = "ApiVersions error_code=" + av.errorCode();
                } else {
                    ApiVersionsResponseData.ApiVersion hb = av.apiKeys().find(STREAMS_HEARTBEAT);
                    ApiVersionsResponseData.ApiVersion ds = av.apiKeys().find(STREAMS_DESCRIBE);
                    if (hb == null || ds == null) {
                        throw new Fatal(2, "ApiVersions does not list api key "
                            + (hb == null ? "88 (StreamsGroupHeartbeat)" : "89 (StreamsGroupDescribe)")
                            + "; the Streams protocol is not enabled on this broker"
                            + " (on 4.1.x set unstable.api.versions.enable=true)");
                    }
                    ApiVersionsResponseData.FinalizedFeatureKey sv = av.finalizedFeatures().find("streams.version");
                    if (sv != null && sv.maxVersionLevel() >= 1) break;
                    lastError = "finalized feature streams.version is "
                        + (sv == null ? "absent" : Short.toString(sv.maxVersionLevel()))
                        + " (needs >= 1; finalized features epoch " + av.finalizedFeaturesEpoch() + ")";
                }
            } catch (IOException e) {
                lastError = "ApiVersions: " + e;
            }
            if (once || remainingMs(deadline) <= 0) {
                System.err.println("probe: not ready: " + lastError);
                return 1;
            }
            pause(deadline);
        }
        printApi(av, STREAMS_HEARTBEAT, "StreamsGroupHeartbeat");
        printApi(av, STREAMS_DESCRIBE, "StreamsGroupDescribe");
        ApiVersionsResponseData.FinalizedFeatureKey sv = av.finalizedFeatures().find("streams.version");
        ApiVersionsResponseData.SupportedFeatureKey ssv = av.supportedFeatures().find("streams.version");
        System.out.println("feature=streams.version finalized_max=" + sv.maxVersionLevel()
            + " supported=" + (ssv == null ? "?" : ssv.minVersion() + "-" + ssv.maxVersion()));
        ApiVersionsResponseData.FinalizedFeatureKey mv = av.finalizedFeatures().find("metadata.version");
        if (mv != null) System.out.println("feature=metadata.version finalized_max=" + mv.maxVersionLevel());
        StringBuilder all = new StringBuilder("api_versions=");
        for (ApiVersionsResponseData.ApiVersion v : av.apiKeys()) {
            all.append(v.apiKey()).append(':').append(v.minVersion()).append('-').append(v.maxVersion()).append(' ');
        }
        System.out.println(all.toString().trim());
        StringBuilder ff = new StringBuilder("finalized_features=");
        for (ApiVersionsResponseData.FinalizedFeatureKey f : av.finalizedFeatures()) {
            ff.append(f.name()).append(':').append(f.maxVersionLevel()).append(' ');
        }
        System.out.println(ff.toString().trim());

        // Step 3: StreamsGroupDescribe via the Admin client (it does FindCoordinator first, which
        // creates __consumer_offsets, and retries COORDINATOR_LOAD_IN_PROGRESS by itself).
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "streamspec-probe");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "100");
        props.put(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, "500");
        try (Admin admin = Admin.create(props)) {
            while (true) {
                checkAlive(pid);
                int callTimeout = (int) Math.max(1000, Math.min(15000, remainingMs(deadline)));
                try {
                    StreamsGroupDescription d = admin
                        .describeStreamsGroups(List.of(group), new DescribeStreamsGroupsOptions().timeoutMs(callTimeout))
                        .describedGroups().get(group).get();
                    System.out.println("streams_group_describe group=" + group + " result=OK state="
                        + d.groupState() + " coordinator=" + d.coordinator().id());
                    break;
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof GroupIdNotFoundException) {
                        System.out.println("streams_group_describe group=" + group + " result=GROUP_ID_NOT_FOUND");
                        break;
                    }
                    if (c instanceof UnsupportedVersionException) {
                        throw new Fatal(2, "StreamsGroupDescribe answered UNSUPPORTED_VERSION: " + c.getMessage());
                    }
                    lastError = "describeStreamsGroups: " + c;
                }
                if (once || remainingMs(deadline) <= 0) {
                    System.err.println("probe: not ready: " + lastError);
                    return 1;
                }
                pause(deadline);
            }
        }
        System.out.println("READY");
        return 0;
    }

    // Asks the broker for the coordinator of `group` until one is known (the coordinator may still
    // be loading its partition of __consumer_offsets) and prints it.
    static int printCoordinator(String host, int port, String group, long pid, long deadline, boolean once)
            throws Exception {
        String lastError = "no attempt";
        while (true) {
            checkAlive(pid);
            try {
                FindCoordinatorResponseData answer =
                    findCoordinator(host, port, group, (int) Math.max(500, Math.min(5000, remainingMs(deadline))));
                if (answer.coordinators().size() != 1) {
                    lastError = "FindCoordinator answered " + answer.coordinators().size() + " coordinators for one key";
                } else {
                    FindCoordinatorResponseData.Coordinator c = answer.coordinators().get(0);
                    if (c.errorCode() == 0) {
                        System.out.println("coordinator group=" + group + " node=" + c.nodeId()
                            + " address=" + c.host() + ":" + c.port());
                        return 0;
                    }
                    if (c.errorCode() != COORDINATOR_NOT_AVAILABLE && c.errorCode() != COORDINATOR_LOAD_IN_PROGRESS) {
                        System.err.println("probe: FindCoordinator error_code=" + c.errorCode() + " " + c.errorMessage());
                        return 1;
                    }
                    lastError = "FindCoordinator error_code=" + c.errorCode();
                }
            } catch (IOException e) {
                lastError = "FindCoordinator: " + e;
            }
            if (once || remainingMs(deadline) <= 0) {
                System.err.println("probe: no coordinator: " + lastError);
                return 1;
            }
            pause(deadline);
        }
    }

    static FindCoordinatorResponseData findCoordinator(String host, int port, String group, int timeoutMs)
            throws IOException {
        int correlationId = 2;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        writeRequestHeader(out, FIND_COORDINATOR_KEY, FIND_COORDINATOR_VERSION, correlationId);
        out.writeByte(0);                  // key_type: group
        writeUnsignedVarint(out, 1 + 1);   // coordinator_keys: compact array of one
        writeCompactString(out, group);
        out.writeByte(0);                  // body tagged fields: none
        out.flush();
        ByteBuffer buf = exchange(host, port, body.toByteArray(), correlationId, timeoutMs);
        // response header v1: tagged fields after the correlation id
        int tagged = readUnsignedVarint(buf);
        for (int i = 0; i < tagged; i++) {
            readUnsignedVarint(buf);       // tag
            buf.position(buf.position() + readUnsignedVarint(buf));
        }
        return new FindCoordinatorResponseData(new ByteBufferAccessor(buf), FIND_COORDINATOR_VERSION);
    }

    static int readUnsignedVarint(ByteBuffer buf) throws IOException {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = buf.get();
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) return value;
        }
        throw new IOException("varint longer than 5 bytes");
    }

    static void printApi(ApiVersionsResponseData av, short key, String name) {
        ApiVersionsResponseData.ApiVersion v = av.apiKeys().find(key);
        System.out.println("api_key=" + key + " name=" + name + " min_version=" + v.minVersion()
            + " max_version=" + v.maxVersion());
    }

    // ApiVersions v4 (v3 schema): request header v2, response header v0 (ApiVersions responses always use v0).
    static ApiVersionsResponseData apiVersions(String host, int port, int timeoutMs) throws IOException {
        int correlationId = 1;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        writeRequestHeader(out, API_VERSIONS_KEY, API_VERSIONS_VERSION, correlationId);
        writeCompactString(out, "streamspec-probe");  // client_software_name
        writeCompactString(out, "1");                 // client_software_version
        out.writeByte(0);                  // body tagged fields: none
        out.flush();
        ByteBuffer buf = exchange(host, port, body.toByteArray(), correlationId, timeoutMs);
        return new ApiVersionsResponseData(new ByteBufferAccessor(buf), API_VERSIONS_VERSION);
    }

    // Request header v2: api key, version, correlation id, client id, no tagged fields.
    static void writeRequestHeader(DataOutputStream out, short apiKey, short version, int correlationId)
            throws IOException {
        out.writeShort(apiKey);
        out.writeShort(version);
        out.writeInt(correlationId);
        byte[] clientId = "streamspec-probe".getBytes(StandardCharsets.UTF_8);
        out.writeShort(clientId.length);   // client_id: nullable string (int16 length)
        out.write(clientId);
        out.writeByte(0);                  // header tagged fields: none
    }

    // Sends one request frame and returns its response after the correlation id.
    static ByteBuffer exchange(String host, int port, byte[] req, int correlationId, int timeoutMs)
            throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            s.setSoTimeout(timeoutMs);
            DataOutputStream sout = new DataOutputStream(s.getOutputStream());
            sout.writeInt(req.length);
            sout.write(req);
            sout.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            int size = in.readInt();
            if (size < 4 || size > 16 << 20) throw new IOException("bad response size " + size);
            byte[] resp = new byte[size];
            in.readFully(resp);
            ByteBuffer buf = ByteBuffer.wrap(resp);
            int corr = buf.getInt();
            if (corr != correlationId) throw new IOException("correlation id " + corr + " != " + correlationId);
            return buf;
        }
    }

    static void writeCompactString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        writeUnsignedVarint(out, b.length + 1);
        out.write(b);
    }

    static void writeUnsignedVarint(DataOutputStream out, int v) throws IOException {
        while ((v & ~0x7f) != 0) {
            out.writeByte((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.writeByte(v);
    }
}
