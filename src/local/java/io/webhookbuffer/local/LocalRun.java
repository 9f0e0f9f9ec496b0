package io.webhookbuffer.local;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the local build's service for {@code mvn -B -Plocal package} (exec:java, inside Maven's JVM), so that Ctrl-C
 * stops the service and then Maven, which ends with BUILD SUCCESS.
 * <p>
 * Run as a child of Maven directly (exec:exec), the terminal's SIGINT reached Maven's JVM, the service and its
 * embedded Redis at once: Maven either died before the service had shut down (its shutdown unseen, the prompt back
 * while it still ran) or lived long enough to report the service's exit status 130 as a BUILD FAILURE, and Redis was
 * gone before the service's graceful shutdown needed it. Here Maven's JVM takes SIGINT itself and turns it into one
 * SIGTERM for the service (a second Ctrl-C kills it), which shuts down gracefully, stops its embedded servers and
 * exits; then this returns. Where {@code setsid} exists (Linux) the service runs in a session of its own, so the
 * terminal's SIGINT does not reach it or Redis; elsewhere they get it too, which still stops them.
 */
public final class LocalRun {

    private static final long KILL_AFTER_SECONDS = 60;

    private LocalRun() {
    }

    /** @param args the path of the local build's quarkus-run.jar */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: LocalRun <quarkus-run.jar>");
        }
        List<String> command = new ArrayList<>();
        if (onPath("setsid")) {
            command.add("setsid");
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.profile=local", "-jar", args[0]));
        Process service = new ProcessBuilder(command).inheritIO().start();
        AtomicInteger interrupts = new AtomicInteger();
        Thread stopWithMaven = new Thread(() -> stop(service), "local-run-stop");
        Runtime.getRuntime().addShutdownHook(stopWithMaven); // Maven killed: the service does not outlive it
        Runnable restore = takeInterrupts(() -> {
            if (interrupts.incrementAndGet() == 1) {
                System.out.println("\nlocal mode: stopping the service (Ctrl-C again to kill it)");
                service.destroy();
            } else {
                service.destroyForcibly();
            }
        });
        int status;
        try {
            status = service.waitFor();
        } finally {
            restore.run();
            Runtime.getRuntime().removeShutdownHook(stopWithMaven);
        }
        if (interrupts.get() == 0 && status != 0) {
            throw new IllegalStateException("the service exited with status " + status + " (its log is above)");
        }
        System.out.println("local mode: the service stopped" + (interrupts.get() > 0 ? " (Ctrl-C)" : ""));
    }

    /**
     * Takes SIGINT in this JVM instead of its default (exit) and returns what restores the previous handler; a no-op
     * when it cannot (the signal ignored, as in a background job, or no sun.misc). No supported API takes a signal;
     * sun.misc.Signal (module jdk.unsupported) is what JLine and Gradle use. Through reflection, so that javac does
     * not warn of an internal API on every build.
     */
    private static Runnable takeInterrupts(Runnable onInterrupt) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Object interrupt = signalClass.getConstructor(String.class).newInstance("INT");
            Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
                    (proxy, method, arguments) -> switch (method.getName()) {
                        case "handle" -> {
                            onInterrupt.run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == arguments[0];
                        default -> "LocalRun interrupt handler";
                    });
            Object previous = handle.invoke(null, interrupt, handler);
            return () -> {
                try {
                    handle.invoke(null, interrupt, previous);
                } catch (ReflectiveOperationException e) {
                    // the JVM is on its way out: nothing to restore for
                }
            };
        } catch (ReflectiveOperationException | RuntimeException e) {
            return () -> { };
        }
    }

    private static void stop(Process service) {
        service.destroy();
        try {
            if (!service.waitFor(KILL_AFTER_SECONDS, TimeUnit.SECONDS)) {
                service.destroyForcibly();
            }
        } catch (InterruptedException e) {
            service.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && List.of(path.split(File.pathSeparator)).stream()
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
    }
}
