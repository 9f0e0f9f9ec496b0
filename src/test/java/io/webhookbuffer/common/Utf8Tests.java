package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8Tests {

    @ParameterizedTest
    @ValueSource(strings = { "", "evt_123", "évt-日本", "emoji \uD83D\uDE00 pair", "tab\tand\u0001control", "?" })
    void validTextWithoutNulIsStorableAndItsLosslessBytesAreItsUtf8(String s) {
        assertTrue(Utf8.storableAsText(s), s);
        assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), Utf8.losslessBytes(s), s);
    }

    @ParameterizedTest
    @ValueSource(strings = { "\u0000", "evt_\u0000x", "lone high \uD800", "\uD800x", "lone low \uDC00",
            "reversed \uDE00\uD83D" })
    void nulAndUnpairedSurrogatesAreNotStorable(String s) {
        assertFalse(Utf8.storableAsText(s), s);
    }

    @Test
    void stringsThatUtf8WouldMergeKeepDistinctLosslessBytes() {
        // String.getBytes turns every unpaired surrogate into '?': these five would be one key.
        List<String> ids = List.of("evt_?", "evt_\uD800", "evt_\uDBFF", "evt_\uDC00", "evt_\uDFFF");
        Set<String> seen = new HashSet<>();
        for (String id : ids) {
            assertTrue(seen.add(HexFormat.of().formatHex(Utf8.losslessBytes(id))), id);
        }
        assertArrayEquals(new byte[] { 'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80 }, Utf8.losslessBytes("a\uD800"),
                "a lone surrogate as its own three bytes, as WTF-8 encodes it");
    }
}
