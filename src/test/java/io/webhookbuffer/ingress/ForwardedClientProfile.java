package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The Kubernetes manifests' proxy settings (k8s/configmap.yaml): the peer is a proxy on a private address (here
 * loopback, the tests' own), trusted to name the client in {@code X-Forwarded-For}; private peers are not counted
 * (the default). A failed-verification budget of 3 per address and tenant, so a test reaches it in a few requests.
 */
public class ForwardedClientProfile implements QuarkusTestProfile {

    public static final int PER_ADDRESS = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("buffer.ingress.verification.max-failures-per-address", Integer.toString(PER_ADDRESS),
                "quarkus.http.proxy.proxy-address-forwarding", "true",
                "quarkus.http.proxy.allow-x-forwarded", "true",
                "quarkus.http.proxy.trusted-proxies", "127.0.0.0/8");
    }
}
