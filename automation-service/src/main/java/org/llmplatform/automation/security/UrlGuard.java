package org.llmplatform.automation.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.IDN;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.llmplatform.automation.config.AutomationConfig;

/**
 * The SSRF defence for webhook URLs: a strict parse, then every resolved address checked against the
 * blocked ranges (unless inside a configured allowed network). Callers connect to the returned
 * address, never to the name again, so a second DNS answer cannot redirect the request. Resolution
 * blocks: call it off the event loop.
 */
@ApplicationScoped
public class UrlGuard {

    static final List<AddressRange> BLOCKED = List.of(
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
            "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
            "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
            "::/128", "::1/128", "::ffff:0:0/96", "64:ff9b::/96", "100::/64", "2001::/32", "2001:db8::/32",
            "2002::/16", "fc00::/7", "fe80::/10", "ff00::/8")
            .stream().map(AddressRange::parse).toList();

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

    private static final Pattern NUMERIC = Pattern.compile("[0-9a-fA-FxX.]+");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9.-]*");

    private final boolean allowHttp;
    private final List<AddressRange> allowed;

    @Inject
    public UrlGuard(AutomationConfig config) {
        this(config.delivery().allowHttp(), config.delivery().allowedNetworks().orElse(List.of()));
    }

    public UrlGuard(boolean allowHttp, List<String> allowedNetworks) {
        this.allowHttp = allowHttp;
        this.allowed = allowedNetworks.stream().filter(cidr -> !cidr.isBlank()).map(AddressRange::parse).toList();
    }

    /** The URL's parts and the one address to connect to; {@link UnsafeUrl} says why a URL is refused. */
    public Target check(String url) {
        URI uri = parse(url);
        return check(uri, host(uri));
    }

    /**
     * {@link #check} without blocking, for a URL whose host is an IP address literal (nothing to resolve);
     * empty when the host is a name, which only {@link #check} may resolve.
     */
    public Optional<Target> checkLiteral(String url) {
        URI uri = parse(url);
        String host = host(uri);
        boolean literal = uri.getHost().startsWith("[") || IPV4.matcher(host).matches();
        return literal ? Optional.of(check(uri, host)) : Optional.empty();
    }

    private Target check(URI uri, String host) {
        InetAddress[] addresses = resolve(host);
        for (InetAddress address : addresses) {
            String why = blockedBecause(address);
            if (why != null) {
                throw new UnsafeUrl("The host '" + host + "' resolves to " + address.getHostAddress() + ", " + why);
            }
        }
        boolean ssl = "https".equals(uri.getScheme());
        int port = uri.getPort() == -1 ? (ssl ? 443 : 80) : uri.getPort();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String requestUri = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        return new Target(host, port, ssl, requestUri, addresses[0]);
    }

    /** Null when the address may be reached, else why not. */
    public String blockedBecause(InetAddress address) {
        for (AddressRange range : allowed) {
            if (range.contains(address)) {
                return null;
            }
        }
        for (AddressRange range : BLOCKED) {
            if (range.contains(address)) {
                return "inside the blocked range " + range.text() + " (private, loopback, link-local or reserved)";
            }
        }
        return null;
    }

    private URI parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException | NullPointerException e) {
            throw new UnsafeUrl("The URL is not valid");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
            throw new UnsafeUrl(allowHttp ? "The URL must use http or https" : "The URL must use https");
        }
        if (uri.getRawUserInfo() != null) {
            throw new UnsafeUrl("The URL must not carry a user name or password");
        }
        if (uri.getRawFragment() != null) {
            throw new UnsafeUrl("The URL must not have a fragment");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new UnsafeUrl("The URL has no valid host");
        }
        return uri;
    }

    private static String host(URI uri) {
        String host = uri.getHost();
        if (host.startsWith("[")) {
            return host.substring(1, host.length() - 1);
        }
        if (NUMERIC.matcher(host).matches() && !NAME.matcher(host).matches()) {
            // Digits and dots only (or hex): it is an IPv4 literal and must be the plain dotted-quad form,
            // so 0x7f.1, 017700000001 or 2130706433 never slip past as "names".
            if (!IPV4.matcher(host).matches()) {
                throw new UnsafeUrl("The host '" + host + "' is not a valid IPv4 address");
            }
            return host;
        }
        try {
            return IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new UnsafeUrl("The host '" + host + "' is not a valid name");
        }
    }

    private static InetAddress[] resolve(String host) {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) {
                if (!(address instanceof Inet4Address) && !(address instanceof Inet6Address)) {
                    throw new UnsafeUrl("The host '" + host + "' has an unknown address family");
                }
            }
            return addresses;
        } catch (UnknownHostException e) {
            throw new UnsafeUrl("The host '" + host + "' does not resolve");
        }
    }

    /** Where to send: the original host (for Host and TLS) and the checked address to connect to. */
    public record Target(String host, int port, boolean ssl, String requestUri, InetAddress address) {
    }
}
