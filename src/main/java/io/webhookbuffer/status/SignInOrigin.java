package io.webhookbuffer.status;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Whether a {@code POST /status/sign-in} comes from the sign-in page itself, not from another site's form (login
 * CSRF). A browser's {@code Sec-Fetch-Site} decides when it is sent (every current browser does): {@code same-origin},
 * or {@code none} for a request the user made; else its {@code Origin} must name the {@code Host} the request was sent
 * to ({@code null}, a sandboxed or file page, does not); a request with neither is not from a browser (curl), and the
 * token itself is its proof. The session cookie's {@code SameSite=Strict} guards the other direction. Pure.
 */
final class SignInOrigin {

    private SignInOrigin() {
    }

    static boolean sameOrigin(String fetchSite, String origin, String host) {
        if (fetchSite != null) {
            return fetchSite.equalsIgnoreCase("same-origin") || fetchSite.equalsIgnoreCase("none");
        }
        if (origin == null) {
            return true;
        }
        String authority = authority(origin);
        return authority != null && host != null && authority.equals(withoutDefaultPort(host.toLowerCase(Locale.ROOT)));
    }

    /** {@code host[:port]} of an origin, the port left out where it is the scheme's default; null when not one. */
    private static String authority(String origin) {
        try {
            URI uri = new URI(origin);
            if (uri.getHost() == null || uri.getScheme() == null) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port < 0 || port == 80 && uri.getScheme().equalsIgnoreCase("http")
                    || port == 443 && uri.getScheme().equalsIgnoreCase("https");
            return uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (URISyntaxException e) {
            return null;
        }
    }

    private static String withoutDefaultPort(String host) {
        if (host.endsWith(":80")) {
            return host.substring(0, host.length() - 3);
        }
        return host.endsWith(":443") ? host.substring(0, host.length() - 4) : host;
    }
}
