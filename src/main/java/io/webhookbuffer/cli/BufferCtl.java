package io.webhookbuffer.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.common.ShownText;

import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bin/bufferctl <command> [options]}: signs and sends every control command. Connection: {@code --url} (env
 * {@code BUFFERCTL_URL}, default {@code http://127.0.0.1:8080}) and the control secret (env {@code BUFFERCTL_SECRET},
 * or {@code --control-secret}). Exit codes: 0 done, 1 the buffer answered an error, 2 usage, 3 the command was refused
 * (401: the reason says which check failed), 4 the buffer could not be reached. Output goes to the writers passed in,
 * so tests run it in-process.
 */
@Command(name = "bufferctl", mixinStandardHelpOptions = true, version = "bufferctl 0.1.0",
        description = "Operate webhook-buffer through its signed control API.",
        footer = { "", "Exit codes: 0 done, 1 error answer, 2 usage, 3 refused (401), 4 buffer unreachable." })
public final class BufferCtl implements Callable<Integer> {

    public static final int OK = 0;
    public static final int ERROR_ANSWER = 1;
    public static final int USAGE = 2;
    public static final int REFUSED = 3;
    public static final int UNREACHABLE = 4;
    static final String DEFAULT_URL = "http://127.0.0.1:8080";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> HINTS = Map.of(
            "stale_timestamp", "this machine's clock and the buffer's differ by more than the accepted window "
                    + "(buffer.control.timestamp-tolerance, 300 s by default); fix the clock (NTP) and retry",
            "bad_signature", "the control secret (BUFFERCTL_SECRET or --control-secret) is not the buffer's "
                    + "buffer.control.secret or buffer.control.previous-secret (or a proxy on the way rewrote the "
                    + "method or the path, which the v2 signature covers)",
            "replayed_nonce", "the buffer has already seen this nonce; retry (bufferctl uses a fresh nonce each time)",
            "missing_headers", "the request lacked well-formed x-timestamp, x-nonce or x-signature headers (a buffer "
                    + "older than this bufferctl reads its v2 signature as malformed: upgrade the buffer)",
            "not_configured", "the buffer has no buffer.control.secret set, so it refuses every command");

    private final Context context;

    /** Options given before the command ({@code bufferctl --url U backlog acme}); the command's own win. */
    @Mixin
    Connection connection;

    private BufferCtl(Context context) {
        this.context = context;
        this.connection = context.global();
    }

    @Override
    public Integer call() {
        context.out.println(new CommandLine(this).getUsageMessage());
        return USAGE;
    }

    public static void main(String[] args) {
        // The CLI's output is its product: it writes to the process's standard streams through writers it passes in.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err),
                StandardCharsets.UTF_8), true);
        int code = run(args, out, err, System.getenv());
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs one command line; returns the exit code. {@code env} supplies BUFFERCTL_URL and BUFFERCTL_SECRET. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        Context context = new Context(out, err, env, new Connection());
        CommandLine tenant = new CommandLine(new TenantGroup())
                .addSubcommand("put", new TenantPut(context))
                .addSubcommand("get", new TenantGet(context));
        CommandLine deadLetters = new CommandLine(new DeadLetterGroup())
                .addSubcommand("list", new DeadLetterList(context))
                .addSubcommand("get", new DeadLetterGet(context))
                .addSubcommand("replay", new DeadLetterSelect(context, "replay"))
                .addSubcommand("purge", new DeadLetterSelect(context, "purge"));
        CommandLine cli = new CommandLine(new BufferCtl(context))
                .addSubcommand("tenant", tenant)
                .addSubcommand("activate", steer(context, "activate", "Turn ingest on (PUT active: true)."))
                .addSubcommand("deactivate", steer(context, "deactivate",
                        "Turn ingest off: 404 to senders; queued events still drain (pause to hold them)."))
                .addSubcommand("pause", steer(context, "pause", "Stop delivery on every replica; ingest keeps buffering."))
                .addSubcommand("resume", steer(context, "resume", "Resume delivery."))
                .addSubcommand("rotate-secret", new RotateSecret(context))
                .addSubcommand("backlog", new Backlog(context))
                .addSubcommand("find", new Find(context))
                .addSubcommand("refusals", new Refusals(context))
                .addSubcommand("handshake", new Handshake(context))
                .addSubcommand("secrets", SecretsCommands.group(context))
                .addSubcommand("dead-letters", deadLetters);
        cli.setOut(out);
        cli.setErr(err);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static CommandLine steer(Context context, String action, String description) {
        CommandLine command = new CommandLine(new Steer(context, action));
        command.getCommandSpec().usageMessage().description(description);
        return command;
    }

    /** The explanation printed for a 401's reason. */
    static String explain(String reason) {
        return HINTS.getOrDefault(reason, "the buffer refused the command");
    }

    /** A request's answer, or null and the exit code when there was none. */
    record Exchange(ControlApi.Answer answer, int code) {
    }

    /** Where output goes and what the environment says. */
    record Context(PrintWriter out, PrintWriter err, Map<String, String> env, Connection global) {
    }

    /** Connection and output options every command takes. */
    static final class Connection {
        @Option(names = "--url", paramLabel = "URL",
                description = "the buffer's base URL (env BUFFERCTL_URL; default " + DEFAULT_URL + ")")
        String url;

        @Option(names = "--control-secret", paramLabel = "SECRET",
                description = "the control secret (prefer env BUFFERCTL_SECRET: arguments show in ps)")
        String secret;

        @Option(names = "--json", description = "print the buffer's JSON answer as is")
        boolean json;
    }

    /** A command that sends one request and prints its answer. */
    abstract static class Leaf implements Callable<Integer> {
        @Mixin
        Connection connection;

        final Context context;
        private boolean json;

        Leaf(Context context) {
            this.context = context;
        }

        int send(String method, String path, String body) {
            Exchange exchange = exchange(method, path, body);
            return exchange.answer() == null ? exchange.code() : report(exchange.answer());
        }

        /** One signed request; its answer, or none and the exit code saying why (no secret, unreachable). */
        Exchange exchange(String method, String path, String body) {
            Connection global = context.global();
            String url = first(first(connection.url, global.url, null), context.env().get("BUFFERCTL_URL"), DEFAULT_URL);
            String secret = first(first(connection.secret, global.secret, null), context.env().get("BUFFERCTL_SECRET"),
                    null);
            json = connection.json || global.json;
            if (secret == null || secret.isBlank()) {
                context.err().println("bufferctl: no control secret: set BUFFERCTL_SECRET (or --control-secret)");
                return new Exchange(null, USAGE);
            }
            try {
                return new Exchange(new ControlApi(url, secret, Duration.ofSeconds(10)).send(method, path, body), OK);
            } catch (IOException | IllegalArgumentException e) {
                context.err().println("bufferctl: cannot reach the buffer at " + url + ": " + e);
                return new Exchange(null, UNREACHABLE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Exchange(null, UNREACHABLE);
            }
        }

        /** Prints the answer (or its error) and returns the exit code it means. */
        int report(ControlApi.Answer answer) {
            JsonNode body = parse(answer.body());
            if (answer.status() / 100 == 2) {
                if (json || body == null) {
                    context.out().println(answer.body());
                } else {
                    print(body, "");
                }
                return OK;
            }
            if (json) {
                context.out().println(answer.body());
            }
            String reason = body == null ? "" : body.path("reason").asText("");
            String detail = body == null ? answer.body() : body.path("detail").asText("");
            if (answer.status() == 401) {
                context.err().println("bufferctl: refused (" + reason + "): " + explain(reason));
                return REFUSED;
            }
            context.err().println("bufferctl: the buffer answered " + answer.status()
                    + (reason.isEmpty() ? "" : " (" + reason + ")") + (detail.isEmpty() ? "" : ": " + detail));
            return ERROR_ANSWER;
        }

        /**
         * One "key: value" line per field; lists of objects one line per item. Values are shown without control
         * characters or bidi controls ({@link ShownText}): an origin's error text must not drive the terminal.
         */
        private void print(JsonNode node, String indent) {
            if (!node.isObject()) {
                context.out().println(indent + ShownText.clean(node.toString()));
                return;
            }
            node.fields().forEachRemaining(field -> {
                JsonNode value = field.getValue();
                if (value.isArray() && !value.isEmpty() && value.get(0).isObject()) {
                    context.out().println(indent + field.getKey() + ":");
                    value.forEach(item -> context.out().println(indent + "  - " + ShownText.clean(item.toString())));
                } else {
                    String text = value.isTextual() ? value.asText() : value.toString();
                    context.out().println(indent + field.getKey() + ": " + ShownText.clean(text));
                }
            });
        }

        /** Whether --json was given (known once {@link #exchange} ran). */
        boolean jsonOutput() {
            return json;
        }

        static JsonNode parse(String body) {
            try {
                return body == null || body.isBlank() ? null : JSON.readTree(body);
            } catch (IOException e) {
                return null;
            }
        }
    }

    static String tenantPath(String tenantId) {
        return "/control/tenants/" + encode(tenantId);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String first(String a, String b, String fallback) {
        if (a != null && !a.isBlank()) {
            return a;
        }
        return b != null && !b.isBlank() ? b : fallback;
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Command(name = "tenant", description = "Provision and read tenants.")
    static final class TenantGroup {
    }

    @Command(name = "put", description = "Create or update a tenant (idempotent; omitted fields keep their value).")
    static final class TenantPut extends Leaf {
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
    static final class TenantGet extends Leaf {
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
    static final class Steer extends Leaf {
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
    static final class RotateSecret extends Leaf {
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
    static final class Backlog extends Leaf {
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
    static final class Find extends Leaf {
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
    static final class Refusals extends Leaf {
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
    static final class Handshake extends Leaf {
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

    @Command(name = "dead-letters", description = "List, show, replay or purge a tenant's dead letters.")
    static final class DeadLetterGroup {
    }

    @Command(description = "List dead letters, oldest first (page with --after = the previous nextAfter).")
    static final class DeadLetterList extends Leaf {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Option(names = "--limit", paramLabel = "N")
        Integer limit;

        @Option(names = "--after", paramLabel = "ID")
        Long after;

        @Option(names = "--from", paramLabel = "ISO")
        String from;

        @Option(names = "--to", paramLabel = "ISO")
        String to;

        DeadLetterList(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            List<String> query = new ArrayList<>();
            if (limit != null) {
                query.add("limit=" + limit);
            }
            if (after != null) {
                query.add("after=" + after);
            }
            if (from != null) {
                query.add("from=" + encode(from));
            }
            if (to != null) {
                query.add("to=" + encode(to));
            }
            return send("GET", tenantPath(tenantId) + "/dead-letters" + (query.isEmpty() ? "" : "?"
                    + String.join("&", query)), "");
        }
    }

    @Command(description = "Show one dead letter with its body and headers.")
    static final class DeadLetterGet extends Leaf {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Parameters(index = "1", paramLabel = "DEAD_LETTER_ID")
        long id;

        DeadLetterGet(Context context) {
            super(context);
        }

        @Override
        public Integer call() {
            return send("GET", tenantPath(tenantId) + "/dead-letters/" + id, "");
        }
    }

    /** replay / purge with a selection in the signed body. */
    @Command(description = "Replay (back to the queue) or purge dead letters: by --id, by --from/--to, or --all.")
    static final class DeadLetterSelect extends Leaf {
        @Parameters(index = "0", paramLabel = "TENANT")
        String tenantId;

        @Option(names = "--id", paramLabel = "ID", description = "a dead-letter id (repeat)")
        List<Long> ids;

        @Option(names = "--from", paramLabel = "ISO")
        String from;

        @Option(names = "--to", paramLabel = "ISO")
        String to;

        @Option(names = "--all", description = "every dead letter of the tenant")
        boolean all;

        private final String action;

        DeadLetterSelect(Context context, String action) {
            super(context);
            this.action = action;
        }

        @Override
        public Integer call() {
            Map<String, Object> selection = new LinkedHashMap<>();
            if (ids != null) {
                selection.put("ids", ids);
            }
            if (from != null) {
                selection.put("from", from);
            }
            if (to != null) {
                selection.put("to", to);
            }
            if (selection.isEmpty() == !all) {
                context.err().println("bufferctl: select dead letters with --id/--from/--to, or say --all (not both)");
                return USAGE;
            }
            String path = tenantPath(tenantId) + "/dead-letters";
            return "replay".equals(action)
                    ? send("POST", path + "/replay", json(selection))
                    : send("DELETE", path, json(selection));
        }
    }
}
