package org.llmplatform.console.routing;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.llmplatform.console.config.ConsoleConfig;

/** Which service answers a request path: the upstream of the longest configured prefix that matches it. */
public final class ApiRoutes {

    /** Paths the console serves itself; no API prefix may claim them. */
    static final List<String> CONSOLE_PATHS = List.of("/assets", "/webjars", "/q", "/index.html");

    /** One prefix and the service behind it: the base URLs of its replicas. */
    public record Route(String prefix, String service, List<URI> urls, ConsoleConfig.ErrorBody errorBody) {

        boolean matches(String path) {
            return path.equals(prefix) || path.startsWith(prefix + "/");
        }
    }

    private final List<Route> routes;

    private ApiRoutes(List<Route> routes) {
        this.routes = routes;
    }

    public static ApiRoutes of(Map<String, ConsoleConfig.Upstream> upstreams) {
        List<Route> routes = new ArrayList<>();
        upstreams.forEach((service, upstream) -> upstream.prefixes().forEach(prefix -> {
            String normalized = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            if (!normalized.startsWith("/") || normalized.length() < 2) {
                throw new IllegalArgumentException("console.upstreams." + service
                        + ".prefixes: '" + prefix + "' must be a path like /calls");
            }
            if (hidesConsolePage(normalized)) {
                throw new IllegalArgumentException("console.upstreams." + service + ".prefixes: '" + prefix
                        + "' would hide the console's own pages under " + CONSOLE_PATHS);
            }
            routes.stream().filter(route -> route.prefix().equals(normalized)).findFirst().ifPresent(taken -> {
                throw new IllegalArgumentException("console.upstreams: '" + normalized + "' is given to both "
                        + taken.service() + " and " + service);
            });
            routes.add(new Route(normalized, service, upstream.url(), upstream.errorBody()));
        }));
        routes.sort(Comparator.comparingInt((Route route) -> route.prefix().length()).reversed());
        return new ApiRoutes(List.copyOf(routes));
    }

    private static boolean hidesConsolePage(String prefix) {
        return CONSOLE_PATHS.stream().anyMatch(own -> prefix.equals(own) || prefix.startsWith(own + "/") || own.startsWith(prefix + "/"));
    }

    /** Every route, longest prefix first. */
    public List<Route> all() {
        return routes;
    }

    /** The route for a request path, or empty when the console serves it. */
    public Optional<Route> find(String path) {
        return routes.stream().filter(route -> route.matches(path)).findFirst();
    }
}
