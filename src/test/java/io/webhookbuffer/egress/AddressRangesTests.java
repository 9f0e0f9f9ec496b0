package io.webhookbuffer.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.junit.jupiter.api.Test;

/** Which addresses are refused, by name of range, and how CIDR entries read (plain JUnit: no lookups anywhere). */
class AddressRangesTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0.0.0.0 | unspecified",
            "0.1.2.3 | unspecified",
            "10.20.30.40 | private (RFC 1918)",
            "172.16.0.1 | private (RFC 1918)",
            "172.31.255.255 | private (RFC 1918)",
            "192.168.1.1 | private (RFC 1918)",
            "100.64.0.1 | carrier-grade NAT (RFC 6598)",
            "100.100.100.200 | carrier-grade NAT (RFC 6598)",
            "127.0.0.1 | loopback",
            "127.1.2.3 | loopback",
            "169.254.169.254 | link-local (cloud metadata)",
            "169.254.1.1 | link-local",
            "192.0.0.192 | special-purpose (RFC 6890)",
            "198.18.0.1 | special-purpose (RFC 6890)",
            "224.0.0.1 | multicast",
            "239.255.255.250 | multicast",
            "240.0.0.1 | reserved",
            "255.255.255.255 | reserved",
            ":: | unspecified",
            "::1 | loopback",
            "fc00::1 | unique local (fc00::/7)",
            "fd00:ec2::254 | unique local (fc00::/7)",
            "fe80::1 | link-local",
            "fec0::1 | site-local (deprecated)",
            "ff02::1 | multicast",
            "::ffff:127.0.0.1 | loopback",
            "::ffff:169.254.169.254 | link-local (cloud metadata)",
            "::ffff:a9fe:a9fe | link-local (cloud metadata)",
            "::ffff:10.0.0.1 | private (RFC 1918)",
            "::7f00:2 | loopback, IPv4-compatible form of 127.0.0.2",
            "64:ff9b::a9fe:a9fe | link-local (cloud metadata), NAT64 form of 169.254.169.254",
            "2002:a9fe:a9fe::1 | link-local (cloud metadata), 6to4 form of 169.254.169.254",
            "2002:0a00:0001::1 | private (RFC 1918), 6to4 form of 10.0.0.1" })
    void refusedAddressesNameTheirRange(String address, String range) {
        assertEquals(range, AddressRanges.refusedRange(Cidr.literal(address)), address);
    }

    @ParameterizedTest
    @ValueSource(strings = { "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.63.255.255",
            "100.128.0.1", "169.253.0.1", "192.0.1.1", "198.20.0.1", "223.255.255.255", "2001:4860:4860::8888",
            "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1" })
    void publicAddressesAreNotRefused(String address) {
        assertNull(AddressRanges.refusedRange(Cidr.literal(address)), address);
    }

    @Test
    void cidrRangesContainTheirAddressesAndMappedFormsAreTheIpv4Ones() {
        Cidr tenEight = Cidr.parse("10.0.0.0/8");
        assertTrue(tenEight.contains(Cidr.literal("10.255.0.1")));
        assertTrue(tenEight.contains(Cidr.literal("::ffff:10.1.2.3")), "mapped form of an address in the range");
        assertEquals(false, tenEight.contains(Cidr.literal("11.0.0.1")));
        assertTrue(Cidr.parse("127.0.0.1").contains(Cidr.literal("127.0.0.1")));
        assertEquals(false, Cidr.parse("127.0.0.1").contains(Cidr.literal("127.0.0.2")));
        assertTrue(Cidr.parse("fd00::/8").contains(Cidr.literal("fd12:3456::1")));
        assertEquals(false, Cidr.parse("fd00::/8").contains(Cidr.literal("fc00::1")));
        assertTrue(Cidr.parse("172.16.0.0/12").contains(Cidr.literal("172.31.1.1")));
        assertEquals(false, Cidr.parse("172.16.0.0/12").contains(Cidr.literal("172.32.1.1")));
        assertTrue(Cidr.parse("::ffff:10.0.0.0/104").contains(Cidr.literal("10.9.9.9")));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(Cidr.literal("8.8.8.8")));
    }

    @ParameterizedTest
    @ValueSource(strings = { "example.com", "localhost", "10.0.0.0/33", "10.0.0.0/x", "::/129", "10.0.0", "127.1", "" })
    void aCidrEntryIsALiteralNeverAName(String entry) {
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse(entry));
    }
}
