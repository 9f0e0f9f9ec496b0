package io.webhookbuffer.egress;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code buffer.origin.allowed-hosts}: which hosts a tenant's {@code originUrl} may name. Each entry is one of
 * <ul>
 * <li>a host name, matched exactly ({@code api.example.com}; case and a trailing dot do not matter);</li>
 * <li>{@code *.example.com}: any name under {@code example.com}, at any depth ({@code a.example.com},
 * {@code a.b.example.com}), but not {@code example.com} itself;</li>
 * <li>an IP address ({@code 203.0.113.7}, {@code 2001:db8::7} or {@code [2001:db8::7]}), matched as an address;</li>
 * <li>{@code *}: any host. The address checks still apply to every connection.</li>
 * </ul>
 * Ports are not part of a pattern. Pure: no lookups.
 */
public final class HostPatterns {

    private static final Pattern NAME = Pattern.compile("[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*");

    private final boolean any;
    private final List<String> names;
    private final List<String> suffixes;
    private final List<InetAddress> addresses;

    private HostPatterns(boolean any, List<String> names, List<String> suffixes, List<InetAddress> addresses) {
        this.any = any;
        this.names = names;
        this.suffixes = suffixes;
        this.addresses = addresses;
    }

    /** The patterns, or an IllegalArgumentException naming the first entry that is none. */
    public static HostPatterns parse(List<String> entries) {
        boolean any = false;
        List<String> names = new ArrayList<>();
        List<String> suffixes = new ArrayList<>();
        List<InetAddress> addresses = new ArrayList<>();
        for (String raw : entries) {
            String entry = canonical(raw);
            InetAddress address = Cidr.literal(entry);
            if (entry.equals("*")) {
                any = true;
            } else if (address != null) {
                addresses.add(AddressRanges.normalized(address));
            } else if (entry.startsWith("*.") && NAME.matcher(entry.substring(2)).matches()) {
                suffixes.add(entry.substring(1));
            } else if (NAME.matcher(entry).matches()) {
                names.add(entry);
            } else {
                throw new IllegalArgumentException("'" + raw + "' is not a host name, *.domain, an IP address or *");
            }
        }
        return new HostPatterns(any, List.copyOf(names), List.copyOf(suffixes), List.copyOf(addresses));
    }

    /** Lower case, without a trailing dot or the brackets of an IPv6 literal. */
    public static String canonical(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.endsWith(".") && h.length() > 1) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h;
    }

    /** Whether {@code host} (as a URL carries it) matches one of the patterns. */
    public boolean matches(String host) {
        if (any) {
            return true;
        }
        String h = canonical(host);
        InetAddress address = Cidr.literal(h);
        if (address != null) {
            return addresses.contains(AddressRanges.normalized(address));
        }
        return names.contains(h) || suffixes.stream().anyMatch(h::endsWith);
    }

    public boolean isEmpty() {
        return !any && names.isEmpty() && suffixes.isEmpty() && addresses.isEmpty();
    }
}
