package io.webhookbuffer.abuse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.webhookbuffer.torture.SignedLoad;

/**
 * The legitimate sender as a process of its own ({@link LegitProcess} starts it): {@link SignedLoad} at a steady rate
 * to one tenant until a line {@code stop} (or the end of standard input) arrives, then every answer as a line
 * {@code answer <tenant> <eventId> <sentAt> <answeredAt> <status>} and {@code end}. Its own process, so that what it
 * measures is the buffer's answer time, not the pauses of the JVM that runs the hostile clients.
 *
 * <p>usage: {@code LegitSender <baseUrl> <tenant> <secret> <rate>}
 */
public final class LegitSender {

    private LegitSender() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: LegitSender <baseUrl> <tenant> <secret> <rate>");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (SignedLoad load = new SignedLoad(args[0], Map.of(args[1], args[2]), Integer.parseInt(args[3]), 0)) {
            load.start();
            out.println("started");
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !"stop".equals(line.strip()); line = in.readLine()) {
                // only "stop" means anything
            }
            load.stop();
            for (SignedLoad.Answer a : load.answers()) {
                out.println("answer " + a.tenant() + " " + a.eventId() + " " + a.sentAt() + " " + a.answeredAt() + " "
                        + a.status());
            }
            out.println("end");
            out.flush();
        }
    }
}
