package io.webhookbuffer.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
    private static final Map<String, String> HINTS = Map.of(
            "stale_timestamp", "this machine's clock and the buffer's differ by more than the accepted window "
                    + "(300 s either way); fix the clock (NTP) and retry",
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
        CommandLine cli = new CommandLine(new BufferCtl(context))
                .addSubcommand("tenant", TenantCommands.group(context))
                .addSubcommand("activate", TenantCommands.steer(context, "activate", "Turn ingest on (PUT active: true)."))
                .addSubcommand("deactivate", TenantCommands.steer(context, "deactivate",
                        "Turn ingest off: 404 to senders; queued events still drain (pause to hold them)."))
                .addSubcommand("pause", TenantCommands.steer(context, "pause",
                        "Stop delivery on every replica; ingest keeps buffering."))
                .addSubcommand("resume", TenantCommands.steer(context, "resume", "Resume delivery."))
                .addSubcommand("rotate-secret", new TenantCommands.RotateSecret(context))
                .addSubcommand("backlog", new TenantCommands.Backlog(context))
                .addSubcommand("find", new TenantCommands.Find(context))
                .addSubcommand("refusals", new TenantCommands.Refusals(context))
                .addSubcommand("handshake", new TenantCommands.Handshake(context))
                .addSubcommand("secrets", SecretsCommands.group(context))
                .addSubcommand("dead-letters", DeadLetterCommands.group(context));
        cli.setOut(out);
        cli.setErr(err);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The explanation printed for a 401's reason. */
    static String explain(String reason) {
        return HINTS.getOrDefault(reason, "the buffer refused the command");
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
}
