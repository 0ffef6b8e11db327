package org.llmplatform.automation.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UrlGuardTest {

    private final UrlGuard strict = new UrlGuard(false, List.of());

    @ParameterizedTest
    @ValueSource(strings = {"0.1.2.3", "10.0.0.1", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.5.4", "172.31.255.255",
            "192.0.0.8", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.1", "198.51.100.7", "203.0.113.9",
            "224.0.0.1", "240.0.0.1", "255.255.255.255", "::", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a00:1",
            "100::1", "2001::1", "2001:db8::1", "2002:7f00:1::", "fc00::1", "fd00:ec2::254", "fe80::1", "ff02::1"})
    void everyBlockedRangeIsRefused(String address) throws Exception {
        assertNotNull(strict.blockedBecause(InetAddress.getByName(address)), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111"})
    void publicAddressesPass(String address) throws Exception {
        assertNull(strict.blockedBecause(InetAddress.getByName(address)), address);
    }

    @Test
    void anAddressLiteralIsCheckedWithoutAResolverAndANameIsLeftForOne() {
        UrlGuard loopback = new UrlGuard(true, List.of("127.0.0.1/32"));
        UrlGuard.Target literal = loopback.checkLiteral("http://127.0.0.1:8080/hook").orElseThrow();
        assertEquals("127.0.0.1", literal.address().getHostAddress());
        assertEquals(8080, literal.port());
        assertTrue(strict.checkLiteral("https://[2606:4700:4700::1111]/hook").isPresent());
        assertTrue(loopback.checkLiteral("http://localhost:8080/hook").isEmpty());
        assertThrows(UnsafeUrl.class, () -> loopback.checkLiteral("http://10.0.0.1/hook"));
        assertThrows(UnsafeUrl.class, () -> strict.checkLiteral("https://[::1]/hook"));
        assertThrows(UnsafeUrl.class, () -> strict.checkLiteral("https://0x7f.1/hook"));
    }

    @Test
    void anAllowedNetworkOpensOnlyItself() throws Exception {
        UrlGuard loopback = new UrlGuard(true, List.of("127.0.0.1/32"));
        assertNull(loopback.blockedBecause(InetAddress.getByName("127.0.0.1")));
        assertNotNull(loopback.blockedBecause(InetAddress.getByName("127.0.0.2")));
        assertNotNull(loopback.blockedBecause(InetAddress.getByName("10.0.0.1")));
        UrlGuard.Target target = loopback.check("http://127.0.0.1:8080/hook?x=1");
        assertEquals("127.0.0.1", target.address().getHostAddress());
        assertEquals("/hook?x=1", target.requestUri());
        assertEquals(8080, target.port());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://example.com/hook", "ftp://example.com/", "https://user:pass@example.com/",
            "https://example.com/#frag", "https://0x7f.1/", "https://2130706433/", "https://017700000001/", "https://127.1/",
            "https://[::1]/", "https://10.0.0.1/", "https://169.254.169.254/latest/meta-data", "not a url", "https:///nohost"})
    void unsafeOrMalformedUrlsAreRefused(String url) {
        UnsafeUrl refused = assertThrows(UnsafeUrl.class, () -> strict.check(url));
        assertTrue(!refused.getMessage().isBlank());
    }
}
