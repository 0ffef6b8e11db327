package org.llmplatform.support.error;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Hands the check of the request URI from Quarkus to {@link HttpLayerErrors}, which makes the same check but
 * answers in the service's JSON error shape where Quarkus answers an empty 400.
 *
 * <p>Quarkus reads its switch, the JVM system property {@code vertx.disableURIValidation}, once, when its
 * HTTP recorder is first loaded, and offers no configuration property for it. Configuration sources are
 * built before any recorder runs, so this one, which holds no properties, sets the switch as it is built;
 * that way no launcher needs a JVM flag.
 */
public class UriValidation implements ConfigSource {

    public UriValidation() {
        // In the constructor, not a static block: a native image builds its configuration again at run time.
        System.setProperty("vertx.disableURIValidation", "true");
    }

    @Override
    public Set<String> getPropertyNames() {
        return Set.of();
    }

    @Override
    public Map<String, String> getProperties() {
        return Map.of();
    }

    @Override
    public String getValue(String propertyName) {
        return null;
    }

    @Override
    public String getName() {
        return "uri-validation-by-HttpLayerErrors";
    }
}
