package io.webhookbuffer.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * docs/providers.md's table of what each provider does after a refusal (issue 43) lists every provider this build
 * ships, each once, with the {@code senderRetries} the code gives it ({@link Providers#retries}): the table is where
 * an operator reads whether a tenant's events over its limit are stored or refused, so it must not drift from the code.
 */
class ProviderRetriesTableTests {

    private static final Path DOC = Path.of("docs/providers.md");
    private static final String HEADER = "| `provider` | behaviour (`senderRetries`) |";
    private static final Pattern ROW = Pattern.compile("^\\| (`[^|]+`) \\| `(never|briefly|long)` \\|");
    private static final Pattern NAME = Pattern.compile("`([a-z0-9-]+)`");

    @Test
    void theTableListsEveryProviderOnceWithTheValueTheCodeGivesIt() throws IOException {
        Map<String, String> documented = table();
        Map<String, String> shipped = new TreeMap<>();
        for (String provider : Providers.names()) {
            shipped.put(provider, Providers.retries(provider).label());
        }
        assertEquals(shipped, new TreeMap<>(documented), "docs/providers.md, \"What a sender does after a refusal\"");
    }

    @Test
    void anUnknownProviderIsTheCautiousNever() {
        assertEquals(SenderRetries.NEVER, Providers.retries("no-such-provider"));
        assertEquals(SenderRetries.NEVER, Providers.retries(null));
    }

    private static Map<String, String> table() throws IOException {
        Map<String, String> rows = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith(HEADER)) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (inTable && row.find()) {
                Matcher name = NAME.matcher(row.group(1));
                while (name.find()) {
                    String previous = rows.put(name.group(1), row.group(2));
                    assertTrue(previous == null, name.group(1) + " is listed twice");
                }
            }
        }
        assertTrue(!rows.isEmpty(), "the table under '" + HEADER + "' was not found in " + DOC);
        return rows;
    }
}
