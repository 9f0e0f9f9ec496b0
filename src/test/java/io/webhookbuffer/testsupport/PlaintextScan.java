package io.webhookbuffer.testsupport;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import javax.sql.DataSource;

/**
 * Looks for values in every column of every table of the database's current schema, as a dump or a read replica
 * would show them: each value as text (arrays and JSON included), and bytea by its bytes; each needle in UTF-8, as
 * hex and as base64, so an encoded copy counts as a copy in clear.
 */
public final class PlaintextScan {

    /** Where a needle was found. */
    public record Hit(String table, String column, String form) {
    }

    private static final String COLUMNS = """
            SELECT c.table_name, c.column_name, c.data_type
            FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            ORDER BY c.table_name, c.ordinal_position""";

    private PlaintextScan() {
    }

    /** Every (table, column, form) holding one of the needles; empty when none does. */
    public static List<Hit> find(DataSource source, List<String> needles) {
        List<Hit> hits = new ArrayList<>();
        try (Connection c = source.getConnection()) {
            List<String[]> columns = new ArrayList<>();
            try (PreparedStatement st = c.prepareStatement(COLUMNS); ResultSet r = st.executeQuery()) {
                while (r.next()) {
                    columns.add(new String[] {r.getString(1), r.getString(2), r.getString(3)});
                }
            }
            if (columns.isEmpty()) {
                throw new IllegalStateException("no columns found: the scan would prove nothing");
            }
            for (String[] column : columns) {
                for (String needle : needles) {
                    scan(c, column, needle, hits);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return hits;
    }

    /** How many columns the scan reads (so a test can say it looked at the whole schema). */
    public static int columns(DataSource source) {
        return (int) Db.count(source, "SELECT count(*) FROM (" + COLUMNS + ") c");
    }

    private static void scan(Connection c, String[] column, String needle, List<Hit> hits) throws SQLException {
        byte[] raw = needle.getBytes(StandardCharsets.UTF_8);
        List<String[]> forms = List.of(new String[] {"utf-8", needle},
                new String[] {"hex", HexFormat.of().formatHex(raw)},
                new String[] {"base64", Base64.getEncoder().withoutPadding().encodeToString(raw)},
                new String[] {"base64url", Base64.getUrlEncoder().withoutPadding().encodeToString(raw)});
        String table = quote(column[0]);
        String name = quote(column[1]);
        for (String[] form : forms) {
            String sql = "bytea".equals(column[2])
                    ? "SELECT count(*) FROM " + table + " WHERE position(convert_to(?, 'UTF8') IN " + name + ") > 0"
                    : "SELECT count(*) FROM " + table + " WHERE strpos(lower(" + name + "::text), lower(?)) > 0";
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setString(1, form[1]);
                try (ResultSet r = st.executeQuery()) {
                    r.next();
                    if (r.getLong(1) > 0) {
                        hits.add(new Hit(column[0], column[1], form[0]));
                    }
                }
            }
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
