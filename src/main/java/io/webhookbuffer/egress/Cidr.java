package io.webhookbuffer.egress;

import java.net.InetAddress;

import io.netty.util.NetUtil;

/**
 * An address range, {@code 10.0.0.0/8}, {@code fd00::/8}, or one address ({@code 127.0.0.1} = {@code 127.0.0.1/32}).
 * Only literals are read (never a name: parsing a setting must not look anything up). An IPv4-mapped IPv6 address
 * is the IPv4 address it stands for, on either side.
 */
public record Cidr(byte[] prefix, int bits, String text) {

    /** The range, or an IllegalArgumentException naming what is wrong with {@code text}. */
    public static Cidr parse(String text) {
        String spec = text.strip();
        int slash = spec.indexOf('/');
        String literal = slash < 0 ? spec : spec.substring(0, slash);
        InetAddress address = literal(literal);
        if (address == null) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR range (a.b.c.d/n, x:y::/n)");
        }
        byte[] bytes = AddressRanges.normalized(address).getAddress();
        int max = bytes.length * 8;
        int bits = slash < 0 ? max : bits(spec.substring(slash + 1));
        // An IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 range it stands for.
        if (bits > 32 && literal.indexOf(':') >= 0 && bytes.length == 4) {
            bits -= 96;
        }
        if (bits < 0 || bits > max) {
            throw new IllegalArgumentException("'" + text + "': the prefix length must be 0 to " + max);
        }
        return new Cidr(bytes, bits, spec);
    }

    private static int bits(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** An IP literal ({@code [::1]} with or without brackets), or null: never a name lookup. */
    public static InetAddress literal(String host) {
        if (host == null || host.isEmpty()) {
            return null;
        }
        return NetUtil.createInetAddressFromIpAddressString(host);
    }

    public boolean contains(InetAddress address) {
        byte[] b = AddressRanges.normalized(address).getAddress();
        if (b.length != prefix.length) {
            return false;
        }
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (b[i] != prefix[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (b[full] & mask) == (prefix[full] & mask);
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
