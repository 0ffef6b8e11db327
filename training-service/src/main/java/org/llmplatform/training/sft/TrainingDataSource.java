package org.llmplatform.training.sft;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.llmplatform.support.auth.CurrentPrincipal;
import org.llmplatform.support.blob.BlobStore;
import org.llmplatform.support.error.ApiException;

/**
 * The bytes a {@code training_data_url} names: a {@code data:} URL (base64 or percent-encoded), an uploaded file
 * ({@code training-file:<id>}, the caller's own), or a document fetched over the network (https; the schemes in
 * {@code training.sft.fetch-schemes}), redirects followed, at most {@code training.sft.max-file-bytes} within
 * {@code training.sft.fetch-timeout}. Anything else is a 422 naming {@code training_data_url}, W&B artifact URLs
 * included: reading those takes W&B's artifact API (docs/training-service.md#supervised-fine-tuning).
 */
@ApplicationScoped
class TrainingDataSource {

    static final List<Object> FIELD = List.of("body", "training_data_url");

    private final SftConfig config;
    private final TrainingFileStore files;
    private final BlobStore blobs;
    private final CurrentPrincipal caller;
    private final HttpClient http;

    TrainingDataSource(SftConfig config, TrainingFileStore files, BlobStore blobs, CurrentPrincipal caller, Vertx vertx) {
        this.config = config;
        this.files = files;
        this.blobs = blobs;
        this.caller = caller;
        this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) config.fetchTimeout().toMillis()));
    }

    Uni<byte[]> read(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("data:")) {
            return Uni.createFrom().item(() -> limited(dataUrl(url)));
        }
        if (lower.startsWith(TrainingFile.URL_SCHEME)) {
            return uploaded(url.substring(TrainingFile.URL_SCHEME.length()));
        }
        if (lower.startsWith("wandb-artifact:")) {
            return Uni.createFrom().failure(invalid("Value error, W&B artifacts cannot be read here: upload the file (POST /v1/preview/files)"
                    + " and pass the url it answers, or pass an https or data: URL", url));
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException malformed) {
            return Uni.createFrom().failure(invalid("Value error, not a URL: " + malformed.getMessage(), url));
        }
        if (uri.getScheme() == null || !config.fetchSchemes().contains(uri.getScheme().toLowerCase(Locale.ROOT)) || uri.getHost() == null) {
            return Uni.createFrom().failure(invalid("Value error, the training data URL must be " + String.join(", ", config.fetchSchemes().stream()
                    .sorted().map(scheme -> scheme + "://").toList()) + ", data: or " + TrainingFile.URL_SCHEME + "<id>", url));
        }
        return fetch(url);
    }

    private Uni<byte[]> uploaded(String id) {
        UUID fileId;
        try {
            fileId = UUID.fromString(id);
        } catch (IllegalArgumentException notAnId) {
            return Uni.createFrom().failure(invalid("Value error, training file '" + id + "' not found", TrainingFile.URL_SCHEME + id));
        }
        String owner = caller.get().userName();
        return files.find(fileId).chain(file -> file.filter(found -> found.owner().equals(owner))
                .map(found -> blobs.get(found.blob()))
                .orElseGet(() -> Uni.createFrom().failure(invalid("Value error, training file '" + id + "' not found", TrainingFile.URL_SCHEME + id))));
    }

    private Uni<byte[]> fetch(String url) {
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url).setFollowRedirects(true);
        return http.request(request)
                .chain(sent -> sent.send())
                .chain(response -> body(response, url))
                .ifNoItem().after(config.fetchTimeout()).failWith(() -> invalid("Value error, fetching the training data took longer than "
                        + config.fetchTimeout().toSeconds() + " s", url))
                .onFailure(failure -> !(failure instanceof ApiException))
                .transform(failure -> invalid("Value error, the training data could not be fetched: " + failure.getMessage(), url));
    }

    private Uni<byte[]> body(HttpClientResponse response, String url) {
        if (response.statusCode() != 200) {
            return Uni.createFrom().failure(invalid("Value error, fetching the training data answered HTTP " + response.statusCode(), url));
        }
        String length = response.getHeader("content-length");
        if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > config.maxFileBytes()) {
            return Uni.createFrom().failure(tooLarge(url));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        return response.toMulti().onItem().invoke(chunk -> {
            if (body.size() + chunk.length() > config.maxFileBytes()) {
                throw tooLarge(url);
            }
            body.writeBytes(chunk.getBytes());
        }).collect().last().map(ignored -> body.toByteArray());
    }

    private byte[] dataUrl(String url) {
        int comma = url.indexOf(',');
        if (comma < 0) {
            throw invalid("Value error, a data: URL needs a comma before its data", abbreviated(url));
        }
        String header = url.substring("data:".length(), comma).toLowerCase(Locale.ROOT);
        String data = url.substring(comma + 1);
        try {
            return header.endsWith(";base64") ? Base64.getMimeDecoder().decode(data)
                    : URLDecoder.decode(data.replace("+", "%2B"), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            throw invalid("Value error, the data: URL's data does not decode: " + malformed.getMessage(), abbreviated(url));
        }
    }

    private byte[] limited(byte[] content) {
        if (content.length > config.maxFileBytes()) {
            throw tooLarge("data:");
        }
        return content;
    }

    private ApiException tooLarge(String url) {
        return invalid("Value error, the training data exceeds " + config.maxFileBytes() + " bytes (training.sft.max-file-bytes)", abbreviated(url));
    }

    static ApiException invalid(String message, String input) {
        return ApiException.invalidField("value_error", FIELD, message, input);
    }

    private static String abbreviated(String url) {
        return url.length() > 200 ? url.substring(0, 200) + "…" : url;
    }

    @PreDestroy
    void close() {
        http.closeAndForget();
    }
}
