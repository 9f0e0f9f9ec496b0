package db.migration;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.jboss.logging.Logger;

import io.webhookbuffer.secrets.Keyring;
import io.webhookbuffer.secrets.SecretCipher;
import io.webhookbuffer.secrets.SecretCipher.Field;

/**
 * Tenant secrets at rest: the clear {@code tenants.secrets} column becomes {@code secrets_encrypted}, each value
 * sealed with AES-256-GCM under {@code buffer.secrets.active-key} (see {@link SecretCipher}), with room for the
 * tenant's own origin credentials, sealed the same way.
 *
 * <p>A Java migration, not SQL: SQL cannot see the key. One transaction adds the sealed columns, seals every row, drops
 * the clear column and rewrites the table, so there is no moment, and no code path, with a secret both sealed and in
 * clear, and no later migration has to remember to drop anything. The rewrite ({@code CLUSTER}, allowed inside a
 * transaction for one table) leaves no earlier row version and no value of the dropped column in the table's files;
 * WAL written before and backups taken before still hold the clear values (docs/operations.md, "Secrets at rest").
 * The key is read here from the same settings as the service's ({@code buffer.secrets.*}; local mode supplies its own
 * file); a database without tenant rows needs none, so a fresh install fails later, with the service's own message.
 */
public class V13__Seal_tenant_secrets extends BaseJavaMigration {

    private static final Logger LOG = Logger.getLogger(V13__Seal_tenant_secrets.class);
    /** The value format {@link SecretCipher} writes; the checks keep anything in clear out of these columns. */
    private static final String SEALED = "v1:[A-Za-z0-9_-]{1,32}:[A-Za-z0-9_-]+";

    private static final String ADD_COLUMNS = """
            ALTER TABLE tenants
                ADD COLUMN secrets_encrypted               text[],
                ADD COLUMN origin_token_encrypted          text,
                ADD COLUMN origin_signing_secret_encrypted text""";

    private static final String FINISH = """
            ALTER TABLE tenants
                ALTER COLUMN secrets_encrypted SET NOT NULL,
                DROP COLUMN secrets,
                ADD CONSTRAINT tenants_secrets_sealed CHECK (cardinality(secrets_encrypted) > 0
                    AND array_to_string(secrets_encrypted, ',') ~ '^%1$s(,%1$s)*$'),
                ADD CONSTRAINT tenants_origin_token_sealed CHECK (origin_token_encrypted ~ '^%1$s$'),
                ADD CONSTRAINT tenants_origin_signing_secret_sealed CHECK (origin_signing_secret_encrypted ~ '^%1$s$');
            COMMENT ON COLUMN tenants.secrets_encrypted IS
                'Active provider signing secrets, current first, each sealed (AES-256-GCM, v1:<key id>:<base64url>; '
                'tenant id and field bound as associated data). Opened only in memory.';
            COMMENT ON COLUMN tenants.origin_token_encrypted IS
                'Bearer token for the tenant''s own origin (origin_url), sealed; NULL: none.';
            COMMENT ON COLUMN tenants.origin_signing_secret_encrypted IS
                'Batch signing secret for the tenant''s own origin (origin_url), sealed; NULL: none.';
            CLUSTER tenants USING tenants_pkey""".formatted(SEALED);

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        try (Statement st = connection.createStatement()) {
            st.execute(ADD_COLUMNS);
        }
        int sealed = sealEveryRow(connection);
        try (Statement st = connection.createStatement()) {
            st.execute(FINISH);
        }
        LOG.infof("V13: sealed the secrets of %d tenant(s); no secret is stored in clear", sealed);
    }

    private static int sealEveryRow(Connection connection) throws SQLException {
        List<ClearRow> rows = new ArrayList<>();
        try (Statement st = connection.createStatement();
                ResultSet r = st.executeQuery("SELECT tenant_id, secrets FROM tenants ORDER BY tenant_id FOR UPDATE")) {
            while (r.next()) {
                rows.add(new ClearRow(r.getString("tenant_id"), List.of((String[]) r.getArray("secrets").getArray())));
            }
        }
        if (rows.isEmpty()) {
            return 0;
        }
        SecretCipher cipher = new SecretCipher(keyring());
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE tenants SET secrets_encrypted = ? WHERE tenant_id = ?")) {
            for (ClearRow row : rows) {
                Array sealed = connection.createArrayOf("text",
                        cipher.sealAll(row.secrets(), row.tenantId(), Field.PROVIDER_SECRET).toArray());
                update.setArray(1, sealed);
                update.setString(2, row.tenantId());
                update.addBatch();
            }
            update.executeBatch();
        }
        return rows.size();
    }

    private record ClearRow(String tenantId, List<String> secrets) {
        @Override
        public String toString() {
            return "ClearRow[" + tenantId + ", secrets hidden]";
        }
    }

    /** The service's keys, from its configuration (the same settings and message as at start-up). */
    private static Keyring keyring() {
        Config config = ConfigProvider.getConfig();
        List<String> keys = config.getOptionalValues("buffer.secrets.keys", String.class).orElse(List.of());
        Optional<String> active = config.getOptionalValue("buffer.secrets.active-key", String.class);
        return Keyring.parse(keys, active);
    }
}
