package org.llmplatform.inference.upstream;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.llmplatform.inference.config.GatewayConfig;

/** The upstream-served models of {@code gateway.upstreams.*}, by public id. */
@Singleton
public class UpstreamCatalog {

    private final Map<String, GatewayConfig.Upstream> upstreams;

    public UpstreamCatalog(GatewayConfig config) {
        this.upstreams = new TreeMap<>(config.upstreams());
    }

    public Optional<GatewayConfig.Upstream> find(String id) {
        return Optional.ofNullable(id == null ? null : upstreams.get(id));
    }

    public Map<String, GatewayConfig.Upstream> all() {
        return upstreams;
    }
}
