package io.webhookbuffer.testsupport;

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
 */
public final class CapturedLog implements AutoCloseable {

    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final Level minimum;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= minimum.intValue()) {
                Throwable thrown = record.getThrown();
                String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
                errors.add(record.getLoggerName() + ": " + message
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

    private CapturedLog(Level minimum) {
        this.minimum = minimum;
    }

    public static CapturedLog start() {
        return start(Level.SEVERE);
    }

    /** The records of {@code minimum} and above (WARN is {@link Level#WARNING}) instead of ERROR's. */
    public static CapturedLog start(Level minimum) {
        CapturedLog log = new CapturedLog(minimum);
        Logger.getLogger("").addHandler(log.handler);
        return log;
    }

    /** Each record so far (ERROR unless started otherwise): logger, message, and the exception with its frames. */
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
