package io.webhookbuffer.cli;

import static io.webhookbuffer.cli.BufferCtl.USAGE;
import static io.webhookbuffer.cli.SignedCommand.encode;
import static io.webhookbuffer.cli.SignedCommand.json;
import static io.webhookbuffer.cli.SignedCommand.tenantPath;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.webhookbuffer.cli.BufferCtl.Context;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bufferctl dead-letters list|get|replay|purge}: a tenant's dead letters.
 */
final class DeadLetterCommands {

    private DeadLetterCommands() {
    }

    static CommandLine group(Context context) {
        return new CommandLine(new DeadLetterGroup())
                .addSubcommand("list", new DeadLetterList(context))
                .addSubcommand("get", new DeadLetterGet(context))
                .addSubcommand("replay", new DeadLetterSelect(context, "replay"))
                .addSubcommand("purge", new DeadLetterSelect(context, "purge"));
    }

    @Command(name = "dead-letters", description = "List, show, replay or purge a tenant's dead letters.")
    static final class DeadLetterGroup {
    }

    @Command(description = "List dead letters, oldest first (page with --after = the previous nextAfter).")
    static final class DeadLetterList extends SignedCommand {
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
    static final class DeadLetterGet extends SignedCommand {
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
    static final class DeadLetterSelect extends SignedCommand {
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
