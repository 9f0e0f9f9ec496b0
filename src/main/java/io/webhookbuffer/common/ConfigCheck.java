package io.webhookbuffer.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Collects configuration problems, each naming the key, the bound and the value, to report them all at once. */
public final class ConfigCheck {

    private final List<String> problems = new ArrayList<>();

    public ConfigCheck range(String key, long value, long min, long max) {
        if (value < min || value > max) {
            problems.add(key + " must be between " + min + " and " + max + ", was " + value);
        }
        return this;
    }

    public ConfigCheck positive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            problems.add(key + " must be a positive duration, was " + value);
        }
        return this;
    }

    public ConfigCheck atLeast(String key, Duration value, Duration min, String why) {
        if (value.compareTo(min) < 0) {
            problems.add(key + " must be at least " + min + " (" + why + "), was " + value);
        }
        return this;
    }

    /** Records {@code problem} (naming the key, the rule and the value) unless {@code ok}. */
    public ConfigCheck require(boolean ok, String problem) {
        if (!ok) {
            problems.add(problem);
        }
        return this;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Fails start-up with every problem in one message, so an operator fixes them in one round. */
    public void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new IllegalStateException("Invalid configuration:\n  - " + String.join("\n  - ", problems));
        }
    }
}
