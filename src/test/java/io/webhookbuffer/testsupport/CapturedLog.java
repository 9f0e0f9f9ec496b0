package io.webhookbuffer.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The application's log records of level ERROR (SEVERE) and above, as they are logged, from {@link #start()} until
 * {@link #close()}: a test asserts on what an alerting pipeline would page on, without parsing the log file that
 * every test of the run appends to. Attach it after the app started (a start reconfigures the root handlers).
 */
public final class CapturedLog implements AutoCloseable {

    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Level level;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= level.intValue()) {
                Throwable thrown = record.getThrown();
                errors.add(record.getLoggerName() + ": " + record.getMessage()
                        + (thrown == null ? "" : " [" + thrown + " at " + firstFrame(thrown) + "]"));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(Level level) {
        this.level = level;
    }

    public static CapturedLog start() {
        return atLeast(Level.SEVERE);
    }

    /** Captures the records of {@code level} (WARNING: WARN) and above instead of ERROR and above. */
    public static CapturedLog atLeast(Level level) {
        CapturedLog log = new CapturedLog(level);
        Logger.getLogger("").addHandler(log.handler);
        return log;
    }

    /** Each ERROR record so far (or of the level given to {@link #atLeast}): logger, message, and the exception. */
    public List<String> errors() {
        return List.copyOf(errors);
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(handler);
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
