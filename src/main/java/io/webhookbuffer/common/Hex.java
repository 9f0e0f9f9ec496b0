package io.webhookbuffer.common;

import java.util.HexFormat;

/**
 * A strict hex decoder that never throws on hostile input (encoding is {@code HexFormat.of().formatHex}). The JDK's
 * {@link HexFormat#parseHex} throws on a malformed string; a signature header is attacker-controlled, so a malformed
 * one must be a cheap refusal, not an exception with its stack trace.
 */
public final class Hex {

    private static final HexFormat HEX = HexFormat.of();

    private Hex() {
    }

    /**
     * Decodes hex (either case). Returns {@code null} for an odd length or any character outside ASCII 0-9, a-f and
     * A-F ({@link HexFormat#isHexDigit}), so a malformed header becomes a refusal, never an exception.
     */
    public static byte[] decode(CharSequence hex) {
        if (hex == null || (hex.length() & 1) != 0) {
            return null;
        }
        for (int i = 0; i < hex.length(); i++) {
            if (!HexFormat.isHexDigit(hex.charAt(i))) {
                return null;
            }
        }
        return HEX.parseHex(hex);
    }
}
