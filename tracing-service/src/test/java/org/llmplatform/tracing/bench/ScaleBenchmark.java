package org.llmplatform.tracing.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.llmplatform.testing.TestIdentities;

/**
 * A large project through the API of the packaged service: traces of 5 to 20 calls (an agent root, chat completions
 * with 0.5 to 2 KB of messages and answers and their token usage, retrievals, tool calls), in threads of 8 turns,
 * feedback on one trace in 20, spread over the last 30 days, sent by {@code calls/complete} from several clients.
 * Prints the ingest rate (with someone asking the console's calls table now and then) and the bytes on disk per call;
 * then p50/p95 of what the console asks of such a project; then ingest and queries for a while, before and while the
 * project's retention deletes its oldest tenth.
 * Run with {@code bench/scale.sh}; not part of the test suite.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class ScaleBenchmark extends PackagedServiceBenchmark {

    private static final long CALLS = Long.getLong("bench.calls", 1_000_000);
    private static final int CLIENTS = Integer.getInteger("bench.clients", 4);
    private static final int TRACES_PER_REQUEST = Integer.getInteger("bench.tracesPerRequest", 40);
    private static final int RUNS = Integer.getInteger("bench.runs", 20);
    private static final int LIVE_SECONDS = Integer.getInteger("bench.liveSeconds", 30);
    /**
     * {@code -Dbench.consoleSeconds}: during the ingest, someone on the console asks the calls table's first page and
     * its count every this many seconds (0: nobody), so that the ingest rate is the one with queries answering.
     */
    private static final int CONSOLE_SECONDS = Integer.getInteger("bench.consoleSeconds", 2);
    /**
     * {@code -Dbench.searchIndexes=v16}: V16's trigram indexes on every call's text as well (what the search cost
     * ingest before V28), {@code none}: without the trigram index of the traces' words; to measure what they cost.
     */
    private static final String SEARCH_INDEXES = System.getProperty("bench.searchIndexes", "as shipped");
    /**
     * {@code -Dbench.withoutTriggers=thread_summaries_after_insert,call_stats_after_insert}: triggers of
     * {@code tracing.calls} disabled for the whole run, to measure what they cost ingest (their answers go stale).
     */
    private static final List<String> WITHOUT_TRIGGERS = List.of(System.getProperty("bench.withoutTriggers", "")
            .split(",")).stream().filter(trigger -> !trigger.isBlank()).toList();
    /** {@code -Dbench.backfill=true}: at the end, the words of every call filed again as after an upgrade to V28. */
    private static final boolean BACKFILL = Boolean.getBoolean("bench.backfill");
    private static final int DAYS = 30;
    /** Of 30 days, the retention that expires the oldest tenth. */
    private static final int RETENTION_DAYS = 27;
    private static final double AVERAGE_TRACE_CALLS = 12.5;
    private static final String[] WORDS = ("the a model answer question context document search result user agent tool"
            + " call value price order account weather city river mountain garden kitchen letter number table chair"
            + " window light night morning summer winter music story friend family travel ticket train station"
            + " report summary error retry token budget plan step reason check list item note").split(" ");
    /** The longest text of a call's field. */
    private static final int MOST_TEXT = 2_000;
    /** Words the texts are sliced from: 4 MB, drawn once. */
    private static final String TEXT = drawText(new Random(7), 4 << 20);
    /** The filter of the calls table's count: the project's traces. */
    private static final String ROOTS = "\"filter\": {\"trace_roots_only\": true}";
    private static final String[] MODELS = {"gpt-4o", "gpt-4o-mini", "claude-3-5-sonnet"};

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String key;
    private String project;
    private Instant origin;
    private long totalTraces;

    @Test
    void tenMillionCalls() throws Exception {
        String user = TestIdentities.unique("scale");
        key = TestIdentities.userWithKey(user);
        project = user + "/p";
        logSlowStatements();
        for (String trigger : WITHOUT_TRIGGERS) {
            try (Connection db = database(); Statement statement = db.createStatement()) {
                statement.execute("ALTER TABLE tracing.calls DISABLE TRIGGER " + trigger);
            }
        }
        if (!SEARCH_INDEXES.equals("as shipped")) {
            try (Connection db = database(); Statement statement = db.createStatement()) {
                statement.execute(switch (SEARCH_INDEXES) {
                    case "v16" -> "SET search_path = tracing;\n" + searchIndexes();
                    case "none" -> "DROP INDEX tracing.call_search_terms_text";
                    default -> throw new IllegalArgumentException("bench.searchIndexes: v16 or none");
                });
            }
        }
        long requests = (long) Math.ceil(CALLS / (TRACES_PER_REQUEST * AVERAGE_TRACE_CALLS));
        totalTraces = requests * TRACES_PER_REQUEST;
        origin = Instant.now().minus(Duration.ofDays(DAYS));

        String page = ROOTS + ", \"limit\": 50, \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"desc\"}]";
        AtomicLong sent = new AtomicLong();
        CpuSeconds cpuBefore = CpuSeconds.now();
        Wal walBefore = Wal.now();
        long began = System.nanoTime();
        // A ten-million-call ingest runs for more than an hour: say how far it got every five minutes.
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor();
        progress.scheduleAtFixedRate(() -> System.out.printf("BENCH ingest so far: %,d calls in %.0f s%n", sent.get(),
                (System.nanoTime() - began) / 1e9), 5, 5, TimeUnit.MINUTES);
        ConcurrentLinkedQueue<Long> pages = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> counts = new ConcurrentLinkedQueue<>();
        AtomicLong unanswered = new AtomicLong();
        if (CONSOLE_SECONDS > 0) {
            progress.scheduleWithFixedDelay(() -> {
                try {
                    askFirstPageAndCount(page, pages, counts);
                } catch (Exception e) {
                    unanswered.incrementAndGet();
                }
            }, CONSOLE_SECONDS, CONSOLE_SECONDS, TimeUnit.SECONDS);
        }
        try {
            runClients(CLIENTS, () -> false, request -> request < requests ? request : -1, sent, null);
        } finally {
            progress.shutdownNow();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        long calls = sent.get();
        System.out.printf("BENCH ingest: %,d calls (%,d traces of 5-20 calls, 0.5-2 KB chat messages and answers, usage,"
                + " threads, feedback on 1 trace in 20) by calls/complete from %d clients in %.0f s: %,.0f calls/s%n",
                calls, totalTraces, CLIENTS, seconds, calls / seconds);
        if (CONSOLE_SECONDS > 0) {
            double[] pageTimes = percentiles(pages);
            double[] countTimes = percentiles(counts);
            System.out.printf("BENCH during the ingest, every %d s the first page p50 %.0f ms, p95 %.0f ms and"
                    + " query_stats p50 %.0f ms, p95 %.0f ms (%d times, %d unanswered)%n", CONSOLE_SECONDS, pageTimes[0],
                    pageTimes[1], countTimes[0], countTimes[1], pages.size(), unanswered.get());
        }
        CpuSeconds cpu = CpuSeconds.now().since(cpuBefore);
        System.out.printf("BENCH ingest CPU per call (search indexes: %s; triggers disabled: %s): service %.0f µs,"
                + " PostgreSQL %.0f µs, the clients and Kafka %.0f µs%n", SEARCH_INDEXES, WITHOUT_TRIGGERS,
                cpu.service() * 1e6 / calls, cpu.postgres() * 1e6 / calls,
                cpu.clients() * 1e6 / calls);
        Wal wal = Wal.now();
        System.out.printf("BENCH ingest WAL per call: %,.0f bytes, %.2f full-page images%n",
                (wal.bytes() - walBefore.bytes()) / (double) calls,
                (wal.fullPageImages() - walBefore.fullPageImages()) / (double) calls);
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute("ANALYZE");
            printDisk(statement, calls);
        }

        double dayStart = origin.plus(Duration.ofDays(12)).getEpochSecond();
        String timeRange = ("\"query\": {\"$expr\": {\"$and\": [{\"$gt\": [{\"$getField\": \"started_at\"}, {\"$literal\": %s}]},"
                + " {\"$not\": [{\"$gt\": [{\"$getField\": \"started_at\"}, {\"$literal\": %s}]}]}]}}")
                .formatted(dayStart, dayStart + 86_400);
        String search = "\"query\": {\"$expr\": {\"$or\": [" + contains("inputs", "dragon") + ", " + contains("output", "dragon")
                + "]}}";
        long trace = totalTraces / 2;
        String metrics = "\"start\": \"%s\", \"end\": \"%s\", \"granularity\": 3600,".formatted(origin.truncatedTo(
                ChronoUnit.HOURS), origin.truncatedTo(ChronoUnit.HOURS)
                .plus(Duration.ofDays(DAYS)))
                + " \"call_metrics\": [{\"metric\": \"latency_ms\", \"aggregations\": [\"avg\"], \"percentiles\": [50, 95]},"
                + " {\"metric\": \"call_count\"}, {\"metric\": \"error_count\"}],"
                + " \"usage_metrics\": [{\"metric\": \"input_tokens\"}, {\"metric\": \"output_tokens\"},"
                + " {\"metric\": \"total_tokens\"}, {\"metric\": \"total_cost\"}]";
        measure("calls table, first page (roots, started_at desc, 50)", "calls/stream_query", page);
        measure("  filtered by op (chat completions, any depth)", "calls/stream_query", page.replace(
                "{\"trace_roots_only\": true}", "{\"op_names\": [\"" + opRef("openai.chat.completions.create") + ":*\"]}"));
        measure("  by time range (one day)", "calls/stream_query", page + ", " + timeRange);
        measure("  by search ('dragon' in inputs or output, 1 trace in 1000)", "calls/stream_query", page + ", " + search);
        measure("  by search ('griffin', 1 trace in 50)", "calls/stream_query", page + ", " + search.replace("dragon", "griffin"));
        measure("  by search ('weather', most calls)", "calls/stream_query", page + ", " + search.replace("dragon", "weather"));
        measure("calls/query_stats (roots)", "calls/query_stats", ROOTS);
        // The baseline: a limit past every call makes the same count from the calls rather than from the rollup.
        measure("  the same counted from the calls (a limit of 10^12)", "calls/query_stats",
                ROOTS + ", \"limit\": 1000000000000");
        measure("calls/stats, 30 days hourly", "calls/stats", metrics);
        measure("one trace's tree", "calls/stream_query", "\"filter\": {\"trace_ids\": [\"" + traceId(trace) + "\"]},"
                + " \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"asc\"}]");
        measure("a thread's turns", "calls/stream_query", "\"filter\": {\"thread_ids\": [\"" + threadId(trace) + "\"],"
                + " \"trace_roots_only\": true}, \"sort_by\": [{\"field\": \"started_at\", \"direction\": \"asc\"}]");
        measure("threads list, first page", "threads/stream_query", "\"limit\": 50");

        retention(page);
        if (BACKFILL) {
            backfill(page + ", " + search);
        }
    }

    /**
     * The words of a database upgraded to V28 ({@code SearchTermsBackfill}): the traces' words forgotten and the
     * service started again, as after the upgrade, then timed until every call's words are filed, with the
     * console's search asked beside it (exact throughout: it reads the calls until the words are complete).
     */
    private void backfill(String search) throws Exception {
        long calls;
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute("TRUNCATE tracing.call_search_terms");
            statement.execute("UPDATE tracing.call_search_terms_backfill SET after_project_id = NULL, after_id = NULL,"
                    + " done = false");
            try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM tracing.calls WHERE trace_id IS NOT NULL")) {
                rows.next();
                calls = rows.getLong(1);
            }
        }
        restartService();
        CpuSeconds before = CpuSeconds.now();
        long began = System.nanoTime();
        ConcurrentLinkedQueue<Long> searches = new ConcurrentLinkedQueue<>();
        while (!backfillDone()) {
            searches.add(timed("calls/stream_query", search));
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        CpuSeconds cpu = CpuSeconds.now().since(before);
        double[] p = percentiles(searches);
        System.out.printf("BENCH backfill of an upgraded database's words: %,d calls in %.0f s (%,.0f calls/s); CPU per"
                + " call: service %.0f µs, PostgreSQL %.0f µs; the search ('dragon') meanwhile p50 %.0f ms, p95 %.0f ms"
                + " (%d runs)%n", calls, seconds, calls / seconds, cpu.service() * 1e6 / calls,
                cpu.postgres() * 1e6 / calls, p[0], p[1], searches.size());
    }

    private static boolean backfillDone() throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT done FROM tracing.call_search_terms_backfill")) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    /** Ingest and the calls table's first page for a while; then the same while the retention deletes a tenth. */
    private void retention(String page) throws Exception {
        Live before = live(page, null);
        System.out.printf("BENCH before retention, %d s: ingest %,.0f calls/s; first page p50 %.0f ms, p95 %.0f ms;"
                + " query_stats p50 %.0f ms, p95 %.0f ms%n", LIVE_SECONDS, before.callsPerSecond, before.page[0],
                before.page[1], before.stats[0], before.stats[1]);
        long expired = expired();
        Live during = live(page, () -> {
            send("project/ttl_settings/update", "{\"project_id\": \"" + project + "\", \"retention_days\": "
                    + RETENTION_DAYS + "}");
            return null;
        });
        System.out.printf("BENCH while the retention (%d days) deleted %,d calls in %.0f s (%,.0f calls/s): ingest %,.0f"
                + " calls/s; first page p50 %.0f ms, p95 %.0f ms; query_stats p50 %.0f ms, p95 %.0f ms; %,d expired calls"
                + " left%n", RETENTION_DAYS, expired, during.seconds, expired / during.seconds, during.callsPerSecond,
                during.page[0], during.page[1], during.stats[0], during.stats[1], expired());
    }

    private record Live(double seconds, double callsPerSecond, double[] page, double[] stats) {
    }

    /**
     * Ingest of new traces from {@link #CLIENTS} clients and, beside it, one client asking for the first page and the
     * query stats in turn: for {@link #LIVE_SECONDS}, or, with {@code start}, from it until no call is expired.
     */
    private Live live(String page, Callable<Void> start) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong sent = new AtomicLong();
        ConcurrentLinkedQueue<Long> pages = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> stats = new ConcurrentLinkedQueue<>();
        long firstNew = totalTraces / TRACES_PER_REQUEST + 1_000_000L * (start == null ? 1 : 2);
        ExecutorService background = Executors.newFixedThreadPool(2);
        long began = System.nanoTime();
        Future<?> ingest = background.submit(() -> {
            runClients(CLIENTS, stop::get, request -> request, sent, firstNew);
            return null;
        });
        Future<?> queries = background.submit(() -> {
            while (!stop.get()) {
                askFirstPageAndCount(page, pages, stats);
            }
            return null;
        });
        if (start == null) {
            Thread.sleep(LIVE_SECONDS * 1000L);
        } else {
            start.call();
            long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
            while (expired() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(2_000);
            }
        }
        stop.set(true);
        double seconds = (System.nanoTime() - began) / 1e9;
        ingest.get();
        queries.get();
        background.shutdown();
        return new Live(seconds, sent.get() / seconds, percentiles(pages), percentiles(stats));
    }

    /** PostgreSQL's full-page images and bytes of WAL written so far (pg_stat_wal). */
    private record Wal(long fullPageImages, long bytes) {

        static Wal now() throws Exception {
            try (Connection db = database(); Statement statement = db.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT wal_fpi, wal_bytes FROM pg_stat_wal")) {
                rows.next();
                return new Wal(rows.getLong(1), rows.getLong(2));
            }
        }
    }

    private long expired() throws Exception {
        try (Connection db = database(); PreparedStatement statement = db.prepareStatement("SELECT count(*) FROM"
                + " tracing.calls WHERE project_id = ? AND started_at < now() - make_interval(days => ?) AND deleted_at IS NULL")) {
            statement.setString(1, project);
            statement.setInt(2, RETENTION_DAYS);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * Sends requests from {@code clients} threads until {@code next} answers -1 or {@code stop} holds: request n holds
     * {@link #TRACES_PER_REQUEST} traces; with {@code liveFrom}, new traces started now, numbered from it.
     */
    private void runClients(int clients, BooleanSupplier stop, LongUnaryOperator next,
            AtomicLong sent, Long liveFrom) throws Exception {
        AtomicLong counter = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    for (long r = next.applyAsLong(counter.getAndIncrement()); r >= 0 && !stop.getAsBoolean();
                            r = next.applyAsLong(counter.getAndIncrement())) {
                        long request = liveFrom == null ? r : liveFrom + r;
                        StringBuilder feedback = new StringBuilder();
                        int[] count = new int[1];
                        String body = batch(request, liveFrom != null, feedback, count);
                        send("v2/" + project + "/calls/complete", body);
                        if (!feedback.isEmpty()) {
                            send("feedback/batch/create", "{\"batch\": [" + feedback + "]}");
                        }
                        sent.addAndGet(count[0]);
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** The calls/complete body of request {@code request}; its feedback items go to {@code feedback}. */
    private String batch(long request, boolean now, StringBuilder feedback, int[] count) {
        StringBuilder body = new StringBuilder(TRACES_PER_REQUEST * 20_000).append("{\"batch\": [");
        Random random = new Random(request);
        for (int t = 0; t < TRACES_PER_REQUEST; t++) {
            long trace = request * TRACES_PER_REQUEST + t;
            Instant start = now ? Instant.now() : origin.plusMillis((long) (trace * (DAYS * 86_400_000.0 / totalTraces)));
            int calls = 5 + random.nextInt(16);
            String root = "r" + trace;
            long at = start.toEpochMilli();
            String thread = threadId(trace);
            for (int c = 0; c < calls; c++) {
                String id = c == 0 ? root : root + "-" + c;
                String parent = c == 0 ? null : (c > 2 && random.nextBoolean() ? root + "-" + (c - 1) : root);
                long took = 50 + random.nextInt(c == 0 ? 20_000 : 3_000);
                String op = c == 0 ? "agent.run" : c == 1 ? "agent.plan" : switch (random.nextInt(3)) {
                    case 0 -> "retriever.search";
                    case 1 -> "tool.call";
                    default -> "openai.chat.completions.create";
                };
                body.append(count[0] == 0 ? "" : ", ").append("{\"project_id\": \"").append(project).append("\", \"id\": \"")
                        .append(id).append("\", \"trace_id\": \"").append(traceId(trace)).append("\", \"op_name\": \"")
                        .append(opRef(op)).append(":LWzcOUlsRnmRBPaJhnE7bTW1fxdzJUkOpvMiCcCIVR8").append("\", \"started_at\": \"").append(Instant.ofEpochMilli(at + c * 10L))
                        .append("\", \"ended_at\": \"").append(Instant.ofEpochMilli(at + c * 10L + took)).append('"')
                        .append(parent == null ? "" : ", \"parent_id\": \"" + parent + "\"")
                        .append(", \"thread_id\": \"").append(thread).append("\", \"turn_id\": \"").append(root).append('"')
                        .append(", \"attributes\": {\"weave\": {\"client_version\": \"0.51.0\", \"source\": \"python-sdk\"}}, ");
                content(body, op, random, trace);
                if (random.nextInt(100) == 0) {
                    body.append(", \"exception\": \"TimeoutError: upstream did not answer\"");
                }
                body.append('}');
                count[0]++;
            }
            if (trace % 20 == 0) {
                feedback.append(feedback.isEmpty() ? "" : ", ").append("{\"project_id\": \"").append(project)
                        .append("\", \"weave_ref\": \"weave:///").append(project).append("/call/").append(root)
                        .append("\", \"feedback_type\": \"wandb.reaction.1\", \"payload\": {\"emoji\": \"")
                        .append(random.nextBoolean() ? "👍" : "👎").append("\"}}");
            }
        }
        return body.append("]}").toString();
    }

    /** Inputs, output and summary of a call of {@code op}. */
    private static void content(StringBuilder body, String op, Random random, long trace) {
        switch (op) {
            case "openai.chat.completions.create" -> {
                String model = MODELS[random.nextInt(MODELS.length)];
                int prompt = 120 + random.nextInt(400);
                int completion = 120 + random.nextInt(400);
                body.append("\"inputs\": {\"model\": \"").append(model).append("\", \"messages\": [{\"role\": \"system\","
                        + " \"content\": \"You are a helpful assistant.\"}, {\"role\": \"user\", \"content\": \"");
                words(body, random, 500 + random.nextInt(1500), null);
                body.append("\"}]}, \"output\": {\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"");
                words(body, random, 500 + random.nextInt(1500), null);
                body.append("\"}, \"finish_reason\": \"stop\"}], \"model\": \"").append(model).append("\"}, \"summary\": {\"usage\":"
                        + " {\"").append(model).append("\": {\"requests\": 1, \"prompt_tokens\": ").append(prompt)
                        .append(", \"completion_tokens\": ").append(completion).append(", \"total_tokens\": ")
                        .append(prompt + completion).append("}}}");
            }
            case "agent.run" -> {
                body.append("\"inputs\": {\"question\": \"");
                words(body, random, 500 + random.nextInt(1500), trace % 1000 == 7 ? "dragon" : trace % 50 == 3 ? "griffin" : null);
                body.append("\"}, \"output\": {\"answer\": \"");
                words(body, random, 500 + random.nextInt(1500), null);
                body.append("\"}, \"summary\": {}");
            }
            default -> {
                body.append("\"inputs\": {\"query\": \"");
                words(body, random, 40 + random.nextInt(80), null);
                body.append("\"}, \"output\": {\"result\": \"");
                words(body, random, 200 + random.nextInt(600), null);
                body.append("\"}, \"summary\": {}");
            }
        }
    }

    /**
     * About {@code length} characters of words, with {@code rare} among them where given: a slice of {@link #TEXT} from a
     * random word on, so that the clients, on the same cores as the service, copy their texts rather than draw each
     * word (about 2 µs of their CPU a call).
     */
    private static void words(StringBuilder body, Random random, int length, String rare) {
        if (rare == null) {
            slice(body, random, length);
            return;
        }
        int before = random.nextInt(length);
        slice(body, random, before);
        body.append(rare).append(' ');
        slice(body, random, length - before);
    }

    /** The words of {@link #TEXT} from a random one on, {@code length} characters or a word more, each with a space. */
    private static void slice(StringBuilder body, Random random, int length) {
        if (length <= 0) {
            return;
        }
        int from = TEXT.indexOf(' ', random.nextInt(TEXT.length() - 2 * MOST_TEXT)) + 1;
        body.append(TEXT, from, TEXT.indexOf(' ', from + length - 1) + 1);
    }

    /** {@code length} characters or more of {@link #WORDS} drawn at random, each followed by a space. */
    private static String drawText(Random random, int length) {
        StringBuilder text = new StringBuilder(length + 20);
        while (text.length() < length) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return text.toString();
    }

    private String opRef(String op) {
        return "weave:///" + project + "/op/" + op;
    }

    private static String traceId(long trace) {
        return "t" + trace;
    }

    /** Threads of 8 turns: 8 traces in a row. */
    private static String threadId(long trace) {
        return "thread-" + trace / 8;
    }

    private static String contains(String field, String word) {
        return "{\"$contains\": {\"input\": {\"$getField\": \"" + field + "\"}, \"substr\": {\"$literal\": \"" + word
                + "\"}, \"case_insensitive\": true}}";
    }

    private static void printDisk(Statement statement, long calls) throws Exception {
        try (ResultSet rows = statement.executeQuery("""
                SELECT sum(pg_total_relation_size(c.oid)) AS everything,
                    sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'calls') AS calls,
                    sum(pg_relation_size(c.oid)) FILTER (WHERE c.relname = 'calls') AS calls_heap,
                    sum(pg_indexes_size(c.oid)) FILTER (WHERE c.relname = 'calls') AS calls_indexes
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'tracing' AND c.relkind = 'r'""")) {
            rows.next();
            System.out.printf("BENCH disk: %,.0f bytes per call over every tracing table (%,.1f GB); tracing.calls %,.0f"
                    + " bytes per call (heap %,.0f, TOAST %,.0f, indexes %,.0f)%n", rows.getDouble(1) / calls,
                    rows.getDouble(1) / 1e9, rows.getDouble(2) / calls, rows.getDouble(3) / calls,
                    (rows.getDouble(2) - rows.getDouble(3) - rows.getDouble(4)) / calls, rows.getDouble(4) / calls);
        }
    }

    /** Slow statements (over 300 ms) go to the PostgreSQL log, in this benchmark's log file, to be EXPLAINed. */
    private static void logSlowStatements() throws Exception {
        try (Connection db = database(); Statement statement = db.createStatement()) {
            statement.execute("ALTER SYSTEM SET log_min_duration_statement = 300");
            statement.execute("SELECT pg_reload_conf()");
        }
    }

    /** p50/p95 of {@link #RUNS} requests after two unmeasured ones. */
    private void measure(String label, String path, String fields) throws Exception {
        ConcurrentLinkedQueue<Long> times = new ConcurrentLinkedQueue<>();
        String answer = send(path, "{\"project_id\": \"" + project + "\", " + fields + "}");
        timed(path, fields);
        for (int i = 0; i < RUNS; i++) {
            times.add(timed(path, fields));
        }
        double[] p = percentiles(times);
        long rows = answer.lines().count();
        System.out.printf("BENCH %-62s p50 %5.0f ms, p95 %5.0f ms (%d runs; %s)%n", label, p[0], p[1], RUNS,
                path.equals("calls/stream_query") || path.equals("threads/stream_query") ? rows + " rows"
                        : answer.length() + " bytes");
    }

    /** What the console's calls table asks: its first page, then the count of the project's traces; each timed. */
    private void askFirstPageAndCount(String page, Queue<Long> pages, Queue<Long> counts) throws Exception {
        pages.add(timed("calls/stream_query", page));
        counts.add(timed("calls/query_stats", ROOTS));
    }

    private long timed(String path, String fields) throws Exception {
        long began = System.nanoTime();
        send(path, "{\"project_id\": \"" + project + "\", " + fields + "}");
        return System.nanoTime() - began;
    }

    private static double[] percentiles(ConcurrentLinkedQueue<Long> nanos) {
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        if (sorted.length == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        IntFunction<Double> at = percentile -> sorted[(int) Math.ceil(percentile / 100.0 * sorted.length) - 1] / 1e6;
        return new double[] {at.apply(50), at.apply(95)};
    }

    private String send(String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(5)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": "
                    + response.body().substring(0, Math.min(500, response.body().length())));
        }
        return response.body();
    }
}
