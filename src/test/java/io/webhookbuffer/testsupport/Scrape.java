package io.webhookbuffer.testsupport;

import static io.restassured.RestAssured.given;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** One read of /q/metrics (the Prometheus text format), as a test looks values up in it. */
public final class Scrape {

    private final List<String> lines = new ArrayList<>();

    private Scrape(String text) {
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                lines.add(line.strip());
            }
        }
    }

    public static Scrape now() {
        return new Scrape(given().accept("text/plain").get("/q/metrics").then().statusCode(200).extract().asString());
    }

    /** The value of the series {@code name} carrying every {@code label="value"} given, or null when absent. */
    public Double value(String name, String... labels) {
        for (String line : lines) {
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            String series = brace >= 0 ? line.substring(0, brace) : line.substring(0, space);
            if (!series.equals(name)) {
                continue;
            }
            String labelPart = brace >= 0 ? line.substring(brace, line.lastIndexOf('}') + 1) : "";
            boolean all = true;
            for (int i = 0; i + 1 < labels.length; i += 2) {
                all &= labelPart.contains(labels[i] + "=\"" + labels[i + 1] + "\"");
            }
            if (all) {
                return Double.parseDouble(line.substring(space + 1));
            }
        }
        return null;
    }

    /** {@link #value} with 0 for an absent series (a counter not yet incremented). */
    public double count(String name, String... labels) {
        Double v = value(name, labels);
        return v == null ? 0 : v;
    }

    /** Every series name exported (without labels). */
    public Set<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (String line : lines) {
            int brace = line.indexOf('{');
            names.add(brace >= 0 ? line.substring(0, brace) : line.substring(0, line.indexOf(' ')));
        }
        return names;
    }
}
