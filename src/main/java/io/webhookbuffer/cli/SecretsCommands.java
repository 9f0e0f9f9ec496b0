package io.webhookbuffer.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bufferctl secrets status} and {@code bufferctl secrets reencrypt}: key rotation for secrets at rest
 * (docs/runbook.md, "Rotating the secrets key").
 */
final class SecretsCommands {

    private SecretsCommands() {
    }

    static CommandLine group(BufferCtl.Context context) {
        return new CommandLine(new Group())
                .addSubcommand("status", new Status(context))
                .addSubcommand("reencrypt", new Reencrypt(context));
    }

    @Command(name = "secrets", description = "Keys of the secrets at rest: which ones the stored values need, and "
            + "sealing every value again under the active key.")
    static final class Group {
    }

    @Command(name = "status", description = "Stored values and tenants per key id, the active key, keys nothing needs.")
    static final class Status extends SignedCommand {
        Status(BufferCtl.Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", "/control/secrets", "");
        }
    }

    @Command(name = "reencrypt", description = "Seal every tenant's secrets again under the active key, batch by batch "
            + "with progress; idempotent (run it again: it re-encrypts nothing).")
    static final class Reencrypt extends SignedCommand {
        @Option(names = "--batch-size", paramLabel = "N", defaultValue = "100",
                description = "tenants per batch, 1 to 1000 (default ${DEFAULT-VALUE})")
        int batchSize;

        Reencrypt(BufferCtl.Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            String after = null;
            long done = 0;
            List<String> unreadable = new ArrayList<>();
            JsonNode pass;
            do {
                Map<String, Object> body = new LinkedHashMap<>();
                if (after != null) {
                    body.put("after", after);
                }
                body.put("limit", batchSize);
                Exchange exchange = exchange("POST", "/control/secrets/reencrypt", SignedCommand.json(body));
                if (exchange.answer() == null || exchange.answer().status() / 100 != 2) {
                    return exchange.answer() == null ? exchange.code() : report(exchange.answer());
                }
                pass = parse(exchange.answer().body());
                done += pass.path("reencrypted").asLong();
                pass.path("unreadable").forEach(u -> unreadable.add(u.path("tenantId").asText() + ": "
                        + u.path("reason").asText()));
                context.out().println(jsonOutput() ? exchange.answer().body() : "re-encrypted " + pass.path("reencrypted")
                        + " of " + pass.path("examined") + " examined; " + pass.path("remaining")
                        + " tenant(s) not yet under key '" + pass.path("activeKey").asText() + "'");
                after = pass.path("nextAfter").asText(null);
            } while (pass.path("more").asBoolean() && after != null);
            context.out().println("done: " + done + " tenant(s) re-encrypted under key '"
                    + pass.path("activeKey").asText() + "', " + pass.path("remaining") + " not under it");
            unreadable.forEach(line -> context.err().println("bufferctl: does not open: " + line));
            return unreadable.isEmpty() ? BufferCtl.OK : BufferCtl.ERROR_ANSWER;
        }
    }
}
