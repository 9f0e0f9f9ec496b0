package io.webhookbuffer.ingress;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The Kubernetes manifests' proxy settings (k8s/configmap.yaml): the peer is a proxy on a private address (here
 * loopback, the tests' own), trusted to name the client in {@code X-Forwarded-For}.
 */
public class ForwardedClientProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.proxy.proxy-address-forwarding", "true",
                "quarkus.http.proxy.allow-x-forwarded", "true",
                "quarkus.http.proxy.trusted-proxies", "127.0.0.0/8");
    }
}
