package io.webhookbuffer.testsupport;

import java.lang.annotation.Annotation;
import java.util.Set;

import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * The fast loop (docs/testing.md): with {@code -Dbuffer.tests=fast}, the tests that boot the application
 * ({@code @QuarkusTest}, {@code @QuarkusIntegrationTest}) are left out at discovery, so only the plain JUnit tests
 * run: the pure logic, the vectors, the docs' own checks. Without the property every test runs, as CI runs them.
 * Registered through {@code META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter}.
 *
 * <p>The backstop: the same property turns on the {@code fast} Maven profile, whose Surefire {@code excludesFile}
 * ({@code src/test/boots-the-app.txt}, kept by {@link FastLoopTests}) keeps those classes from being loaded at all.
 * This filter only sees a class the list misses, and by then Quarkus has built that class's test profile.
 */
public class FastLoop implements PostDiscoveryFilter {

    static final String PROPERTY = "buffer.tests";
    /**
     * By name: Quarkus loads test classes in a class loader of its own, where {@code QuarkusTest.class} is another
     * class than the one this filter sees.
     */
    private static final Set<String> BOOTS = Set.of("io.quarkus.test.junit.QuarkusTest",
            "io.quarkus.test.junit.QuarkusIntegrationTest", "io.quarkus.test.junit.main.QuarkusMainTest");

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (!"fast".equals(System.getProperty(PROPERTY))) {
            return FilterResult.included("every tier");
        }
        Class<?> type = descriptor.getSource().map(FastLoop::classOf).orElse(null);
        return type != null && boots(type) ? FilterResult.excluded("boots the application: not in the fast loop")
                : FilterResult.included("plain JUnit");
    }

    static boolean boots(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            for (Annotation a : c.getAnnotations()) {
                if (BOOTS.contains(a.annotationType().getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Class<?> classOf(Object source) {
        if (source instanceof ClassSource cls) {
            return cls.getJavaClass();
        }
        return source instanceof MethodSource method ? method.getJavaClass() : null;
    }
}
