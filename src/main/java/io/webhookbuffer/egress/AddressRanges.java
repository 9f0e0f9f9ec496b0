package io.webhookbuffer.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The address ranges an origin is never connected to unless an operator allows them: everything that is not a public
 * unicast address. Pure (the JDK, and Netty's literal parser through {@link Cidr}): {@link #refusedRange} names the
 * range, or says null for a public address.
 *
 * <p>IPv4: 0.0.0.0/8 (unspecified, "this network"), 10/8, 172.16/12, 192.168/16 (private, RFC 1918), 100.64/10
 * (carrier-grade NAT, RFC 6598; Alibaba Cloud's metadata is at 100.100.100.200), 127/8 (loopback), 169.254/16
 * (link-local; 169.254.169.254 is the cloud metadata service), 192.0.0.0/24 (IETF protocol assignments), 198.18/15
 * (benchmarking), 224/4 (multicast), 240/4 (reserved, and 255.255.255.255). IPv6: :: (unspecified), ::1 (loopback),
 * fc00::/7 (unique local; AWS's IPv6 metadata is fd00:ec2::254), fe80::/10 (link-local), fec0::/10 (site-local,
 * deprecated), ff00::/8 (multicast); and the forms that carry an IPv4 address inside, judged by that address:
 * IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 6to4 2002::/16.
 */
public final class AddressRanges {

    /** A refused range and its name; the first that contains an address names it. */
    private record Range(Cidr cidr, String name) {
    }

    /** An IPv6 range that carries an IPv4 address at {@code offset}: judged by that address. */
    private record Carrier(Cidr cidr, int offset, String form) {
    }

    private static final List<Range> RANGES = List.of(
            range("0.0.0.0/8", "unspecified"),
            range("10.0.0.0/8", "private (RFC 1918)"),
            range("172.16.0.0/12", "private (RFC 1918)"),
            range("192.168.0.0/16", "private (RFC 1918)"),
            range("100.64.0.0/10", "carrier-grade NAT (RFC 6598)"),
            range("127.0.0.0/8", "loopback"),
            range("169.254.169.254/32", "link-local (cloud metadata)"),
            range("169.254.0.0/16", "link-local"),
            range("192.0.0.0/24", "special-purpose (RFC 6890)"),
            range("198.18.0.0/15", "special-purpose (RFC 6890)"),
            range("224.0.0.0/4", "multicast"),
            range("240.0.0.0/4", "reserved"),
            range("::/128", "unspecified"),
            range("::1/128", "loopback"),
            range("fc00::/7", "unique local (fc00::/7)"),
            range("fe80::/10", "link-local"),
            range("fec0::/10", "site-local (deprecated)"),
            range("ff00::/8", "multicast"));

    private static final List<Carrier> CARRIERS = List.of(
            new Carrier(Cidr.parse("::/96"), 12, "IPv4-compatible"),
            new Carrier(Cidr.parse("64:ff9b::/96"), 12, "NAT64"),
            new Carrier(Cidr.parse("2002::/16"), 2, "6to4"));

    private AddressRanges() {
    }

    /** The refused range {@code address} is in ("loopback", "private (RFC 1918)" ...), or null when it is public. */
    public static String refusedRange(InetAddress address) {
        InetAddress a = normalized(address);
        for (Range r : RANGES) {
            if (r.cidr().contains(a)) {
                return r.name();
            }
        }
        for (Carrier c : CARRIERS) {
            if (c.cidr().contains(a)) {
                InetAddress v4 = v4(a.getAddress(), c.offset());
                String range = refusedRange(v4);
                return range == null ? null : range + ", " + c.form() + " form of " + v4.getHostAddress();
            }
        }
        return null;
    }

    /** The address itself, or the IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) stands for. */
    public static InetAddress normalized(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length != 16) {
            return address;
        }
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return address;
            }
        }
        return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff ? v4(b, 12) : address;
    }

    private static Range range(String cidr, String name) {
        return new Range(Cidr.parse(cidr), name);
    }

    private static InetAddress v4(byte[] b, int offset) {
        try {
            return InetAddress.getByAddress(new byte[] { b[offset], b[offset + 1], b[offset + 2], b[offset + 3] });
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are an IPv4 address", e);
        }
    }
}
