package io.webhookbuffer.cli;

import static io.webhookbuffer.cli.BufferCtl.USAGE;
import static io.webhookbuffer.cli.SignedCommand.encode;
import static io.webhookbuffer.cli.SignedCommand.json;
import static io.webhookbuffer.cli.SignedCommand.tenantPath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.cli.BufferCtl.Context;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The commands about one tenant: provision and read it ({@code tenant put|get}), steer ingest and delivery, rotate
 * its signing secret, and ask about its backlog, an event, its refusals and a provider handshake.
 */
final class TenantCommands {

    private TenantCommands() {
    }

    static CommandLine group(Context context) {
        return new CommandLine(new TenantGroup())
                .addSubcommand("put", new TenantPut(context))
                .addSubcommand("get", new TenantGet(context));
    }

    /** activate / deactivate (ingest) and pause / resume (delivery), each with its own description. */
    static CommandLine steer(Context context, String action, String description) {
        CommandLine command = new CommandLine(new Steer(context, action));
        command.getCommandSpec().usageMessage().description(description);
        return command;
    }

    @Command(name = "tenant", description = "Provision and read tenants.")
    static final class TenantGroup {
    }

    @Command(name = "put", description = "Create or update a tenant (idempotent; omitted fields keep their value).")
    static final class TenantPut extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Option(names = "--body", paramLabel = "JSON|@FILE", description = "the whole command body, or @file")
        String body;

        @Option(names = "--secret", paramLabel = "SECRET", description = "a signing secret, current first (repeat)")
        List<String> secrets;

        @Option(names = "--provider")
        String provider;

        @Option(names = "--rate-limit", paramLabel = "N")
        Integer rateLimit;

        @Option(names = "--rate-window-seconds", paramLabel = "N")
        Integer rateWindowSeconds;

        @Option(names = "--origin-url", paramLabel = "URL")
        String originUrl;

        @Option(names = "--origin-token", paramLabel = "TOKEN",
                description = "bearer token for the tenant's own origin (prefer --body @file: arguments show in ps)")
        String originToken;

        @Option(names = "--origin-signing-secret", paramLabel = "SECRET",
                description = "batch signing secret for the tenant's own origin")
        String originSigningSecret;

        @Option(names = "--billing-anchor", paramLabel = "ISO", description = "start of a billing period (whole hour)")
        String billingAnchor;

        @Option(names = "--billing-cadence", paramLabel = "CADENCE", description = "monthly, weekly or daily")
        String billingCadence;

        @Option(names = "--trust-trace-context", paramLabel = "true|false", arity = "1",
                description = "whether the sender's traceparent parents its ingest span (default false)")
        Boolean trustTraceContext;

        TenantPut(Context context) {
            super(context);
        }

        @Override
        public Integer call() throws IOException {
            Map<String, Object> fields = new LinkedHashMap<>();
            put(fields, "provider", provider);
            put(fields, "secrets", secrets);
            put(fields, "rateLimit", rateLimit);
            put(fields, "rateWindowSeconds", rateWindowSeconds);
            put(fields, "originUrl", originUrl);
            put(fields, "originToken", originToken);
            put(fields, "originSigningSecret", originSigningSecret);
            put(fields, "billingAnchor", billingAnchor);
            put(fields, "billingCadence", billingCadence);
            put(fields, "trustTraceContext", trustTraceContext);
            if (body != null && !fields.isEmpty()) {
                context.err().println("bufferctl: give either --body or field options, not both");
                return USAGE;
            }
            String payload = body == null ? json(fields)
                    : body.startsWith("@") ? Files.readString(Path.of(body.substring(1))) : body;
            return send("PUT", tenantPath(tenantId), payload);
        }

        private static void put(Map<String, Object> fields, String name, Object value) {
            if (value != null) {
                fields.put(name, value);
            }
        }
    }

    @Command(name = "get", description = "Show a tenant (secrets and origin credentials as fingerprints).")
    static final class TenantGet extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        TenantGet(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", tenantPath(tenantId), "");
        }
    }

    /** activate / deactivate (ingest) and pause / resume (delivery). */
    @Command
    static final class Steer extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        private final String action;

        Steer(Context context, String action) {
            super(context);
            this.action = action;
        }

        @Override
        public Integer call() {
            return switch (action) {
                case "activate" -> send("PUT", tenantPath(tenantId), "{\"active\":true}");
                case "deactivate" -> send("PUT", tenantPath(tenantId), "{\"active\":false}");
                default -> send("POST", tenantPath(tenantId) + "/" + action, "");
            };
        }
    }

    @Command(name = "rotate-secret", description = "Add a new current signing secret, or retire one by fingerprint.")
    static final class RotateSecret extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Change change;

        static final class Change {
            @Option(names = "--add", paramLabel = "SECRET", description = "the new secret (becomes current)")
            String add;

            @Option(names = "--retire", paramLabel = "FINGERPRINT", description = "stop accepting this secret")
            String retire;
        }

        RotateSecret(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            String body = change.add != null ? json(Map.of("add", change.add)) : json(Map.of("retire", change.retire));
            return send("POST", tenantPath(tenantId) + "/secrets", body);
        }
    }

    @Command(name = "backlog", description = "Depth, oldest age, next attempt, state and lease holder of a tenant.")
    static final class Backlog extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        Backlog(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", tenantPath(tenantId) + "/backlog", "");
        }
    }

    @Command(name = "find", description = { "Where is an event? Received when; queued (position, attempts, next "
            + "attempt, last error), dead-lettered (id, reason), delivered (accepted and no longer queued), or "
            + "unknown.", "EVENT is the provider's id (e.g. a GitHub delivery GUID) or the id the origin received." })
    static final class Find extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Parameters(index = "1", paramLabel = "EVENT")
        String eventId;

        Find(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", tenantPath(tenantId) + "/events/" + encode(eventId).replace("+", "%20"), "");
        }
    }

    @Command(name = "refusals", description = "A tenant's latest refused requests from every replica, newest first: "
            + "time, status, reason, signature-like header names present, body size, client address, and what the "
            + "sender does after a refusal (senderRetries: never, briefly, long).")
    static final class Refusals extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        Refusals(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", tenantPath(tenantId) + "/refusals", "");
        }
    }

    @Command(name = "handshake", description = { "Open the window in which the provider's secret handshake (Asana's "
            + "X-Hook-Secret) may set the tenant's secret: create the webhook at the provider while it is open. The "
            + "first handshake stores the secret and closes it.", "PROVIDER is the tenant's provider: asana." })
    static final class Handshake extends SignedCommand {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Parameters(index = "1", paramLabel = "PROVIDER")
        String provider;

        @Option(names = "--seconds", paramLabel = "N", description = "how long it stays open (default 600, at most 3600)")
        Integer seconds;

        Handshake(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            String body = seconds == null ? "{}" : json(Map.of("seconds", seconds));
            return send("POST", tenantPath(tenantId) + "/handshake/" + encode(provider).replace("+", "%20"), body);
        }
    }
}
