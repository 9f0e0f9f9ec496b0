package io.webhookbuffer.testsupport;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/**
 * The application's log records of level ERROR (SEVERE) and above, as they are logged, from {@link #start()} until
 * {@link #close()}: a test asserts on what an alerting pipeline would page on, without parsing the log file that
 * every test of the run appends to. Attach it after the app started (a start reconfigures the root handlers).
 * {@link #start(Level, Class...)} captures chosen classes' records at a lower level instead (the test profile must
 * enable that level for them), each with the thread that logged it.
 */
public final class CapturedLog implements AutoCloseable {

    /**
     * The test application's JSON log file ({@code %test.quarkus.log.file.path}; each half of the application tests sets
     * its own, as the halves run at once).
     */
    public static final Path FILE = Path.of(System.getProperty("quarkus.log.file.path", "target/webhook-buffer-test.log"));

    /** One record: its logger, the thread that logged it, and its message as formatted. */
    public record Entry(String logger, String thread, String message) {
    }

    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    private final Level minimum;
    private final List<Logger> loggers;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= minimum.intValue()) {
                Throwable thrown = record.getThrown();
                String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
                errors.add(record.getLoggerName() + ": " + message
                        + (thrown == null ? "" : " [" + thrown + " at " + firstFrame(thrown) + "]"));
                String thread = record instanceof ExtLogRecord ext ? ext.getThreadName() : "";
                entries.add(new Entry(record.getLoggerName(), thread, message));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(Level minimum, List<Logger> loggers) {
        this.minimum = minimum;
        this.loggers = loggers;
        loggers.forEach(logger -> logger.addHandler(handler));
    }

    public static CapturedLog start() {
        return start(Level.SEVERE);
    }

    /** The records of {@code minimum} and above (WARN is {@link Level#WARNING}) instead of ERROR's. */
    public static CapturedLog start(Level minimum) {
        return new CapturedLog(minimum, List.of(Logger.getLogger("")));
    }

    /** The records of {@code minimum} and above (DEBUG is {@link Level#FINE}) that these classes log. */
    public static CapturedLog start(Level minimum, Class<?>... sources) {
        return new CapturedLog(minimum, Arrays.stream(sources).map(c -> Logger.getLogger(c.getName())).toList());
    }

    /** Each record so far (ERROR unless started otherwise): logger, message, and the exception with its frames. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    /** Each record so far, with the thread that logged it. */
    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    @Override
    public void close() {
        loggers.forEach(logger -> logger.removeHandler(handler));
    }

    private static String firstFrame(Throwable thrown) {
        StackTraceElement[] stack = thrown.getStackTrace();
        StringBuilder frames = new StringBuilder();
        for (int i = 0; i < Math.min(3, stack.length); i++) {
            frames.append(i == 0 ? "" : " < ").append(stack[i]);
        }
        return frames.toString();
    }
}
