package io.webhookbuffer.egress;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.runtime.Startup;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.OriginConfig;

/**
 * Where batches (and origin pulls) may go. Two rules, read from {@code buffer.origin.*} at start-up (a malformed
 * entry stops the service, naming it):
 * <ul>
 * <li><b>Hosts</b>: a tenant's {@code originUrl} must name the global origin's host or match
 * {@code allowed-hosts} ({@link HostPatterns}); by default only the global origin's host. Checked when a command sets
 * it, and again before each batch (a stored origin that no longer matches is held, never sent).</li>
 * <li><b>Addresses</b>: no origin, the global one included, is connected to at an address in a refused range
 * ({@link AddressRanges}) unless {@code allowed-private-networks} contains it. Checked on the address each connection
 * is actually made to ({@link EgressClient}); literal addresses and {@code localhost} are refused at command time
 * too.</li>
 * </ul>
 */
@Startup
@ApplicationScoped
public class OriginTrust {

    private static final List<InetAddress> LOOPBACK_NAMES = List.of(Cidr.literal("127.0.0.1"), Cidr.literal("::1"));

    private final HostPatterns globalHost;
    private final String globalHostText;
    private final HostPatterns allowedHosts;
    private final List<Cidr> allowedNetworks;

    /**
     * Most bytes of an origin's answer body that are read (batches and the origin pull); past them the connection is
     * closed and the answer judged by its status only. The buffer reads an answer for its status, a few fields of a
     * tenant's config, or an error to log: 64 KiB holds every one of them, and a larger or endless answer must not
     * hold memory. Was {@code buffer.origin.max-answer-bytes}.
     */
    public static final int MAX_ANSWER_BYTES = 64 * 1024;

    @Inject
    public OriginTrust(OriginConfig config) {
        this(config.baseUrl(), config.allowedHosts().orElse(List.of()), config.allowedPrivateNetworks().orElse(List.of()));
    }

    /** The rules from plain values (tests); fails with every malformed entry named. */
    public OriginTrust(Optional<String> baseUrl, List<String> hosts, List<String> networks) {
        ConfigCheck check = new ConfigCheck();
        this.globalHostText = baseUrl.map(OriginTrust::hostOf).orElse(null);
        check.require(baseUrl.isEmpty() || globalHostText != null,
                "buffer.origin.base-url must be an absolute http(s) URL with a host, was " + baseUrl.orElse(""));
        this.globalHost = HostPatterns.parse(globalHostText == null ? List.of() : List.of(globalHostText));
        HostPatterns patterns = HostPatterns.parse(List.of());
        try {
            patterns = HostPatterns.parse(hosts.stream().filter(h -> !h.isBlank()).toList());
        } catch (IllegalArgumentException e) {
            check.require(false, "buffer.origin.allowed-hosts: " + e.getMessage());
        }
        this.allowedHosts = patterns;
        List<Cidr> cidrs = networks(networks, check);
        check.throwIfAny();
        this.allowedNetworks = List.copyOf(cidrs);
    }

    private static List<Cidr> networks(List<String> entries, ConfigCheck check) {
        List<Cidr> cidrs = new ArrayList<>();
        for (String network : entries) {
            try {
                if (!network.isBlank()) {
                    cidrs.add(Cidr.parse(network));
                }
            } catch (IllegalArgumentException e) {
                check.require(false, "buffer.origin.allowed-private-networks: " + e.getMessage());
            }
        }
        return cidrs;
    }

    /** Most bytes of an origin's answer that are read; past them the connection is closed. */
    public int maxAnswerBytes() {
        return MAX_ANSWER_BYTES;
    }

    /**
     * Why a tenant may not have {@code originUrl} (for a 400, and to hold a stored one), or null when it may. The
     * address rule is applied here only where the URL itself says the address: an IP literal or {@code localhost};
     * a name's address is judged when it is connected to.
     */
    public String originUrlRefusal(String originUrl) {
        String host = hostOf(originUrl);
        if (host == null) {
            return "'originUrl' must be an absolute http or https URL with a host.";
        }
        String canonical = HostPatterns.canonical(host);
        String problem = addressInUrl(canonical);
        if (problem != null) {
            return problem;
        }
        if (!globalHost.matches(canonical) && !allowedHosts.matches(canonical)) {
            return "'originUrl' host " + canonical + " is not allowed: it is not the global origin's host"
                    + (globalHostText == null ? "" : " (" + globalHostText + ")")
                    + " and buffer.origin.allowed-hosts does not match it.";
        }
        return null;
    }

    /** What the host itself says of the address: an IP literal, localhost, or a number that some parsers read as one. */
    private String addressInUrl(String host) {
        InetAddress literal = Cidr.literal(host);
        if (literal != null) {
            String range = addressRefusal(literal);
            return range == null ? null : "'originUrl' points at " + host + ", a " + range + " address: origins are"
                    + " not connected to there unless buffer.origin.allowed-private-networks contains it.";
        }
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return LOOPBACK_NAMES.stream().allMatch(a -> addressRefusal(a) == null) ? null
                    : "'originUrl' names " + host + ", which means this machine (127.0.0.1 or ::1, loopback):"
                            + " refused unless buffer.origin.allowed-private-networks contains both.";
        }
        if (host.matches(".*(^|\\.)([0-9]+|0x[0-9a-f]*)$")) {
            // 127.1, 2130706433, 0x7f.1: not a host name (no top-level domain is a number), and read as 127.0.0.1
            // by some resolvers.
            return "'originUrl' host " + host + " is neither a host name nor an IP address in its usual form (a.b.c.d).";
        }
        return null;
    }

    /**
     * The refused range {@code address} is in ("loopback", "link-local (cloud metadata)" ...), or null when an
     * origin may be connected to it: a public address, or one {@code allowed-private-networks} contains.
     */
    public String addressRefusal(InetAddress address) {
        String range = AddressRanges.refusedRange(address);
        if (range == null || allowedNetworks.stream().anyMatch(c -> c.contains(address))) {
            return null;
        }
        return range;
    }

    /** The host of an absolute http(s) URL (an IPv6 literal in brackets), or null. */
    static String hostOf(String url) {
        try {
            URI uri = new URI(url);
            boolean web = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
            return web && uri.getHost() != null && !uri.getHost().isEmpty() ? uri.getHost() : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
