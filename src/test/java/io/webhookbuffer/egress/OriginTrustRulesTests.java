package io.webhookbuffer.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The host allow-list and the address rules as a command sees them (plain JUnit). */
class OriginTrustRulesTests {

    private static OriginTrust trust(String base, List<String> hosts, List<String> networks) {
        return new OriginTrust(Optional.ofNullable(base), hosts, networks);
    }

    @Test
    void byDefaultOnlyTheGlobalOriginsHostIsAllowed() {
        OriginTrust trust = trust("https://api.example.com", List.of(), List.of());
        assertNull(trust.originUrlRefusal("https://api.example.com/v2"));
        assertNull(trust.originUrlRefusal("https://API.Example.com.:8443"), "case, a trailing dot and the port");
        assertTrue(trust.originUrlRefusal("https://tenant.example.com").contains("buffer.origin.allowed-hosts"));
        assertTrue(trust.originUrlRefusal("https://example.com").contains("not allowed"));
        assertTrue(trust(null, List.of(), List.of()).originUrlRefusal("https://api.example.com")
                .contains("not allowed"), "no global origin: nothing is allowed until allowed-hosts says so");
    }

    @Test
    void patternsMatchExactNamesSuffixesAddressesOrAnything() {
        OriginTrust trust = trust("https://api.example.com",
                List.of("hooks.partner.io", "*.customers.example.net", "203.0.113.7", "[2001:db8::7]"), List.of());
        assertNull(trust.originUrlRefusal("https://hooks.partner.io"));
        assertNull(trust.originUrlRefusal("https://acme.customers.example.net"));
        assertNull(trust.originUrlRefusal("https://a.b.customers.example.net"));
        assertNull(trust.originUrlRefusal("http://203.0.113.7:8080"));
        assertNull(trust.originUrlRefusal("http://[2001:db8:0:0::7]"));
        assertTrue(trust.originUrlRefusal("https://customers.example.net").contains("not allowed"), "a suffix is strict");
        assertTrue(trust.originUrlRefusal("https://evilcustomers.example.net").contains("not allowed"));
        assertTrue(trust.originUrlRefusal("https://hooks.partner.io.evil.com").contains("not allowed"));
        assertTrue(trust.originUrlRefusal("http://203.0.113.8").contains("not allowed"));
        assertNull(trust("https://api.example.com", List.of("*"), List.of()).originUrlRefusal("https://any.where"));
    }

    @Test
    void literalAddressesAndLocalhostAreJudgedByTheAddressRulesEvenWhenAHostPatternAllowsAnything() {
        OriginTrust trust = trust("https://api.example.com", List.of("*"), List.of());
        assertTrue(trust.originUrlRefusal("http://169.254.169.254/latest").contains("cloud metadata"));
        assertTrue(trust.originUrlRefusal("http://[::ffff:169.254.169.254]").contains("cloud metadata"));
        assertTrue(trust.originUrlRefusal("http://[::ffff:a9fe:a9fe]").contains("cloud metadata"));
        assertTrue(trust.originUrlRefusal("http://10.1.2.3").contains("private"));
        assertTrue(trust.originUrlRefusal("http://[fd00:ec2::254]").contains("unique local"));
        assertTrue(trust.originUrlRefusal("http://0.0.0.0:8080").contains("unspecified"));
        assertTrue(trust.originUrlRefusal("http://localhost:8080").contains("loopback"));
        assertTrue(trust.originUrlRefusal("http://api.localhost").contains("loopback"));
        assertTrue(trust.originUrlRefusal("http://2130706433").contains("usual form"), "127.0.0.1 to some parsers");
        assertTrue(trust.originUrlRefusal("ftp://example.com").contains("http"));

        OriginTrust local = trust("http://127.0.0.1:9000", List.of("*"), List.of("127.0.0.1/32"));
        assertNull(local.originUrlRefusal("http://127.0.0.1:9100"));
        assertTrue(local.originUrlRefusal("http://127.0.0.2").contains("loopback"));
        assertTrue(local.originUrlRefusal("http://localhost:9000").contains("both"), "::1 is not allowed");
        assertNull(trust("http://127.0.0.1", List.of("localhost"), List.of("127.0.0.1", "::1"))
                .originUrlRefusal("http://localhost:9000"));
    }

    @Test
    void theAddressRuleAllowsOnlyWhatTheNetworksContain() {
        OriginTrust trust = trust("https://api.example.com", List.of(), List.of("10.0.0.0/8", "fd00::/8"));
        assertNull(trust.addressRefusal(Cidr.literal("10.1.2.3")));
        assertNull(trust.addressRefusal(Cidr.literal("::ffff:10.1.2.3")));
        assertNull(trust.addressRefusal(Cidr.literal("fd00::5")));
        assertNull(trust.addressRefusal(Cidr.literal("93.184.216.34")), "public: always");
        assertEquals("private (RFC 1918)", trust.addressRefusal(Cidr.literal("192.168.0.1")));
        assertEquals("link-local (cloud metadata)", trust.addressRefusal(Cidr.literal("169.254.169.254")));
    }

    @Test
    void malformedSettingsStopTheStartNamingEachKey() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new OriginTrust(Optional.empty(),
                List.of("bad host!"), List.of("10.0.0.0/99", "internal.example")));
        assertTrue(e.getMessage().contains("buffer.origin.allowed-hosts: 'bad host!'"), e.getMessage());
        assertTrue(e.getMessage().contains("'10.0.0.0/99'"), e.getMessage());
        assertTrue(e.getMessage().contains("'internal.example' is not an IP address"), e.getMessage());
    }
}
