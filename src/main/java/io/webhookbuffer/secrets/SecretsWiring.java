package io.webhookbuffer.secrets;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

/**
 * The one {@link SecretCipher} of the service, built at start-up: with no key, or keys that do not parse, the service
 * refuses to start with a message naming the setting (local mode supplies a key file of its own).
 */
@ApplicationScoped
public class SecretsWiring {

    private static final Logger LOG = Logger.getLogger(SecretsWiring.class);

    @Produces
    @Singleton
    @Startup
    SecretCipher cipher(SecretsConfig config) {
        Keyring keyring = Keyring.of(config);
        LOG.infof("secrets at rest: AES-256-GCM, keys %s, sealing under '%s'", keyring.ids(), keyring.activeId());
        return new SecretCipher(keyring);
    }
}
