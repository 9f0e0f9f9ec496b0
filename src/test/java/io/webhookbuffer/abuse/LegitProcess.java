package io.webhookbuffer.abuse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.webhookbuffer.torture.SignedLoad;

/** Starts {@link LegitSender} in its own JVM (this test JVM's class path) and reads its answers back when stopped. */
final class LegitProcess implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;

    private LegitProcess(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts the sender and returns once it has begun sending. Its collector's pauses and safepoints are logged beside
     * {@code log} ({@code legit-jvm.log}): a slow answer that coincides with one was the sender's, not the buffer's.
     */
    static LegitProcess start(String baseUrl, String tenant, String secret, int rate, Path log) throws IOException {
        String jvmLog = "-Xlog:gc,safepoint:file=" + log.resolveSibling("legit-jvm.log") + ":uptime,time";
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", jvmLog, "-cp", System.getProperty("java.class.path"), LegitSender.class.getName(), baseUrl,
                tenant, secret, Integer.toString(rate));
        pb.redirectError(log.toFile());
        LegitProcess legit = new LegitProcess(pb.start());
        String first = legit.out.readLine();
        if (!"started".equals(first)) {
            legit.close();
            throw new IOException("the legitimate sender did not start (" + first + "); see " + log);
        }
        return legit;
    }

    /** Stops sending (the answers still due are waited for) and returns every answer. */
    List<SignedLoad.Answer> stop() throws IOException, InterruptedException {
        try (Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
            in.write("stop\n");
        }
        List<SignedLoad.Answer> answers = new ArrayList<>();
        for (String line = out.readLine(); line != null && !"end".equals(line); line = out.readLine()) {
            String[] f = line.split(" ");
            if (f.length == 6 && "answer".equals(f[0])) {
                answers.add(new SignedLoad.Answer(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
                        Integer.parseInt(f[5])));
            }
        }
        process.waitFor(30, TimeUnit.SECONDS);
        return answers;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
