package org.llmplatform.localstack;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * One {@code --upstream ID=URL[,model=NAME][,key-env=VAR]}: an OpenAI-compatible server (Ollama, vLLM, a hosted API)
 * whose model the gateway serves under the public id {@code ID}, asking the server for {@code NAME} (default:
 * {@code ID}) with the key in the environment variable {@code VAR}. The gateway's upstream catalog
 * ({@code gateway.upstreams.<ID>.*}) gives it the retries of every upstream.
 */
record UpstreamOption(String id, URI url, Optional<String> model, Optional<String> keyVariable, Optional<String> key) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** {@code value} as given after {@code --upstream}; {@code environment} reads the key's variable (null: unset). */
    static UpstreamOption parse(String value, UnaryOperator<String> environment) {
        String[] parts = value.split(",");
        int equals = parts[0].indexOf('=');
        if (equals < 0) {
            throw usage(value, "is ID=URL[,model=NAME][,key-env=VAR]");
        }
        String id = parts[0].substring(0, equals);
        if (!ID.matcher(id).matches()) {
            throw usage(value, "needs an id of letters, digits, '.', '_', ':' or '-' before '=', got '" + id + "'");
        }
        URI url = url(value, parts[0].substring(equals + 1));
        Optional<String> model = Optional.empty();
        Optional<String> keyVariable = Optional.empty();
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i];
            if (part.startsWith("model=") && part.length() > "model=".length()) {
                model = Optional.of(part.substring("model=".length()));
            } else if (part.startsWith("key-env=") && VARIABLE.matcher(part.substring("key-env=".length())).matches()) {
                keyVariable = Optional.of(part.substring("key-env=".length()));
            } else {
                throw usage(value, "takes model=NAME and key-env=VAR (an environment variable's name) after the URL, got '"
                        + part + "'");
            }
        }
        Optional<String> key = keyVariable.map(environment);
        if (keyVariable.isPresent() && (key.isEmpty() || key.get().isBlank())) {
            throw usage(value, "reads its key from " + keyVariable.get() + ", which is not set");
        }
        return new UpstreamOption(id, url, model, keyVariable, key);
    }

    private static URI url(String value, String url) {
        try {
            URI parsed = new URI(url);
            if (("http".equals(parsed.getScheme()) || "https".equals(parsed.getScheme())) && parsed.getHost() != null) {
                return parsed;
            }
        } catch (URISyntaxException malformed) {
            // refused below
        }
        throw usage(value, "needs the server's http(s) base URL with its /v1, e.g. http://localhost:11434/v1, got '"
                + url + "'");
    }

    private static StackOptions.UsageException usage(String value, String problem) {
        return new StackOptions.UsageException("--upstream " + value + " " + problem);
    }

    /**
     * The gateway's configuration of this upstream, as system properties (ids keep their case only there, and an id
     * with a dot is quoted). The key is not among them: its property names the variable, which the gateway's
     * environment carries ({@link #environment}), so no process list shows it.
     */
    List<String> gatewayProperties() {
        String prefix = "-Dgateway.upstreams.\"" + id + "\".";
        List<String> properties = new ArrayList<>();
        properties.add(prefix + "url=" + url);
        model.ifPresent(name -> properties.add(prefix + "model=" + name));
        keyVariable.ifPresent(variable -> properties.add(prefix + "api-key=${" + variable + "}"));
        return properties;
    }

    /** What the gateway's environment needs for this upstream: its key's variable. */
    void environment(Map<String, String> environment) {
        keyVariable.ifPresent(variable -> environment.put(variable, key.orElseThrow()));
    }

    /** One line of the launcher's summary: never the key. */
    String describe() {
        return id + " → " + url + model.map(name -> " (model " + name + ")").orElse("")
                + keyVariable.map(variable -> ", key from $" + variable).orElse("");
    }

    @Override
    public String toString() {
        return "UpstreamOption[" + describe() + "]";
    }
}
