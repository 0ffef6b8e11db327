import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The blob bench's client, run from outside the platform: puts and gets the same objects through the
 * tracing-service's file API (which keeps them in the platform's blob store, here S3) and straight to the S3
 * server with the AWS SDK, in one run, and samples the tracing-service's RSS during the large transfers.
 * Arguments: tracingUrl apiKey project s3Endpoint accessKey secretKey tracingPid workDir smallCount smallKb largeCount largeMb concurrency
 */
public final class BlobBench {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public static void main(String[] args) throws Exception {
        URI tracing = URI.create(args[0]);
        String key = args[1];
        String project = args[2];
        S3Client s3 = S3Client.builder().endpointOverride(URI.create(args[3])).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(args[4], args[5])))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
        long pid = Long.parseLong(args[6]);
        Path work = Path.of(args[7]);
        int smallCount = Integer.parseInt(args[8]);
        int smallBytes = Integer.parseInt(args[9]) * 1024;
        int largeCount = Integer.parseInt(args[10]);
        long largeBytes = Long.parseLong(args[11]) * 1024 * 1024;
        int concurrency = Integer.parseInt(args[12]);
        int warmUpSeconds = Integer.parseInt(args[13]);
        String bucket = "bench-direct-" + UUID.randomUUID().toString().substring(0, 8);
        s3.createBucket(request -> request.bucket(bucket));

        List<Path> small = objects(work.resolve("small"), smallCount, smallBytes, 1);
        List<Path> large = objects(work.resolve("large"), largeCount, largeBytes, 2);
        Platform platform = new Platform(tracing, key, project);
        Direct direct = new Direct(s3, bucket);

        System.out.printf("BENCH blob objects: %d x %d KB, %d x %d MB, %d at once for the small ones%n",
                smallCount, smallBytes / 1024, largeCount, largeBytes >> 20, concurrency);
        // Both paths first move other small objects back and forth, not timed, for warmUpSeconds: the figures are
        // of a service that has been running (a fresh tracing-service ran its first thousand requests at about
        // half its later speed while the JIT compiled them).
        List<Path> warmUp = objects(work.resolve("warm-up"), smallCount, smallBytes, 3);
        long warmUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmUpSeconds);
        do {
            for (Transfer transfer : List.<Transfer>of(platform::put, platform::get, direct::put, direct::get)) {
                timed(warmUp, concurrency, transfer, null);
            }
        } while (System.nanoTime() < warmUntil);
        compare("put " + smallCount + " x " + smallBytes / 1024 + " KB", small, concurrency, platform::put, direct::put, null);
        compare("get " + smallCount + " x " + smallBytes / 1024 + " KB", small, concurrency, platform::get, direct::get, null);
        compare("put " + largeCount + " x " + (largeBytes >> 20) + " MB", large, 1, platform::put, direct::put, pid);
        compare("get " + largeCount + " x " + (largeBytes >> 20) + " MB", large, 1, platform::get, direct::get, pid);
    }

    interface Transfer {
        void run(Path object) throws Exception;
    }

    private static void compare(String what, List<Path> objects, int concurrency, Transfer platform, Transfer direct, Long pid) throws Exception {
        long bytes = objects.stream().mapToLong(BlobBench::size).sum();
        double directSeconds = timed(objects, concurrency, direct, null).seconds;
        Timed viaPlatform = timed(objects, concurrency, platform, pid);
        double ratio = directSeconds / viaPlatform.seconds;
        System.out.printf("BENCH blob %-22s platform %8.1f MB/s   direct S3 %8.1f MB/s   ratio %.2fx%s%n", what,
                bytes / 1e6 / viaPlatform.seconds, bytes / 1e6 / directSeconds, ratio,
                pid == null ? "" : String.format("   tracing-service RSS %d..%d MB", viaPlatform.minRss >> 20, viaPlatform.maxRss >> 20));
    }

    record Timed(double seconds, long minRss, long maxRss) {
    }

    private static Timed timed(List<Path> objects, int concurrency, Transfer transfer, Long pid) throws Exception {
        AtomicLong minRss = new AtomicLong(Long.MAX_VALUE);
        AtomicLong maxRss = new AtomicLong(0);
        Thread sampler = null;
        if (pid != null) {
            sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    long rss = rss(pid);
                    minRss.accumulateAndGet(rss, Math::min);
                    maxRss.accumulateAndGet(rss, Math::max);
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.start();
        }
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long started = System.nanoTime();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Path object : objects) {
                running.add(pool.submit(() -> {
                    transfer.run(object);
                    return null;
                }));
            }
            for (Future<?> done : running) {
                done.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (sampler != null) {
            sampler.interrupt();
            sampler.join();
        }
        return new Timed(seconds, minRss.get(), maxRss.get());
    }

    /** Through the tracing-service: POST /file/create (multipart) and POST /file/content; the digest is remembered per object. */
    static final class Platform {
        private final URI tracing;
        private final String key;
        private final String project;
        private final java.util.Map<Path, String> digests = new java.util.concurrent.ConcurrentHashMap<>();

        Platform(URI tracing, String key, String project) {
            this.tracing = tracing;
            this.key = key;
            this.project = project;
        }

        void put(Path object) throws Exception {
            String boundary = "bench" + UUID.randomUUID();
            String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"project_id\"\r\n\r\n" + project + "\r\n"
                    + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + object.getFileName()
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
            String tail = "\r\n--" + boundary + "--\r\n";
            HttpRequest request = HttpRequest.newBuilder(tracing.resolve("/file/create"))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.concat(HttpRequest.BodyPublishers.ofString(head),
                            HttpRequest.BodyPublishers.ofFile(object), HttpRequest.BodyPublishers.ofString(tail)))
                    .build();
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("file/create answered " + response.statusCode() + ": " + response.body());
            }
            String body = response.body();
            int at = body.indexOf("\"digest\"");
            int start = body.indexOf('"', body.indexOf(':', at) + 1) + 1;
            digests.put(object, body.substring(start, body.indexOf('"', start)));
        }

        void get(Path object) throws Exception {
            String body = "{\"project_id\":\"" + project + "\",\"digest\":\"" + digests.get(object) + "\"}";
            HttpRequest request = HttpRequest.newBuilder(tracing.resolve("/file/content"))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                    .build();
            HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream content = response.body()) {
                long read = content.transferTo(OutputStream.nullOutputStream());
                if (response.statusCode() != 200 || read != size(object)) {
                    throw new IllegalStateException("file/content answered " + response.statusCode() + " with " + read + " bytes");
                }
            }
        }
    }

    /** Straight to the S3 server with the AWS SDK: one PUT from the file, one GET read to the end. */
    record Direct(S3Client s3, String bucket) {
        void put(Path object) {
            s3.putObject(request -> request.bucket(bucket).key(object.getFileName().toString()), RequestBody.fromFile(object));
        }

        void get(Path object) throws IOException {
            try (InputStream content = s3.getObject(request -> request.bucket(bucket).key(object.getFileName().toString()))) {
                content.transferTo(OutputStream.nullOutputStream());
            }
        }
    }

    /** Distinct random objects as files (the platform stores by content: equal objects would be stored once). */
    private static List<Path> objects(Path folder, int count, long bytes, long seed) throws IOException {
        Files.createDirectories(folder);
        SplittableRandom random = new SplittableRandom(seed);
        byte[] block = new byte[1 << 20];
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path file = folder.resolve("object-" + i + ".bin");
            try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
                for (long written = 0; written < bytes; written += block.length) {
                    random.nextBytes(block);
                    out.write(block, 0, (int) Math.min(block.length, bytes - written));
                }
            }
            files.add(file);
        }
        return files;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long rss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException gone) {
            // the process ended
        }
        return 0;
    }
}
