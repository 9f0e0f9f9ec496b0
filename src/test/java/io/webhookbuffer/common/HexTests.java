package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The strict decoder; encoding is the JDK's {@code HexFormat}. */
class HexTests {

    @Test
    void everyByteValueRoundTrips() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String hex = HexFormat.of().formatHex(all);
        assertArrayEquals(all, Hex.decode(hex));
        assertArrayEquals(all, Hex.decode(hex.toUpperCase()), "decode accepts either case");
    }

    @Test
    void randomBytesRoundTrip() {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            byte[] bytes = new byte[random.nextInt(100)];
            random.nextBytes(bytes);
            String hex = HexFormat.of().formatHex(bytes);
            assertArrayEquals(bytes, Hex.decode(hex));
        }
    }

    @Test
    void decodesMixedCase() {
        assertArrayEquals(new byte[] { (byte) 0xab, (byte) 0xcd, (byte) 0xef }, Hex.decode("aBcDeF"));
        assertArrayEquals(new byte[0], Hex.decode(""));
    }

    @ParameterizedTest
    @ValueSource(strings = { "0", "abc", "00000", "000000000000000000000000000000000000000000000000000000000000000" })
    void oddLengthIsNull(String hex) {
        assertNull(Hex.decode(hex));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\u0663\u0663", // Arabic-Indic digit three: Character.digit would say 3
            "a\u0663", "\uff21\uff21", // fullwidth 'A'
            "\uff41b", // fullwidth 'a'
            "\uff10\uff10", // fullwidth '0'
            "\u0966\u0967", // Devanagari digits
            "gg", "0g", "g0", "zz", "0x", "  ", " a", "a ", "-1", "+1", "/0", ":0", "@A", "G0", "`a", "\u0000\u0000",
            "\u00e9\u00e9", "\ud83d\ude00" })
    void nonHexCharactersAreNullNotAnException(String hex) {
        assertNull(Hex.decode(hex));
    }

    @Test
    void nullIsNull() {
        assertNull(Hex.decode(null));
    }

    /** Every UTF-16 unit, in either position: only ASCII 0-9, a-f, A-F decode. */
    @Test
    void exactlyTheAsciiHexDigitsAreAccepted() {
        for (int c = 0; c <= 0xffff; c++) {
            boolean hexDigit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            String high = (char) c + "0";
            String low = "0" + (char) c;
            if (hexDigit) {
                int value = Character.digit(c, 16);
                assertNotNull(Hex.decode(high), high);
                assertEquals((byte) (value << 4), Hex.decode(high)[0], "U+" + Integer.toHexString(c));
                assertEquals((byte) value, Hex.decode(low)[0], "U+" + Integer.toHexString(c));
            } else {
                assertNull(Hex.decode(high), "U+" + Integer.toHexString(c));
                assertNull(Hex.decode(low), "U+" + Integer.toHexString(c));
            }
        }
    }
}
