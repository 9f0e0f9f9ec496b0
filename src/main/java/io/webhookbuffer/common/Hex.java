package io.webhookbuffer.common;

/** Lowercase hex encoding and a strict decoder that never throws on hostile input. */
public final class Hex {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {
    }

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[i * 2] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[i * 2 + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * Decodes hex (either case). Returns {@code null} for an odd length or any non-hex character,
     * so a malformed header becomes a refusal, never an exception.
     */
    public static byte[] decode(CharSequence hex) {
        if (hex == null || (hex.length() & 1) != 0) {
            return null;
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = digit(hex.charAt(i * 2));
            int lo = digit(hex.charAt(i * 2 + 1));
            if (hi < 0 || lo < 0) {
                return null;
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    /** ASCII hex digits only: {@link Character#digit} would also accept other scripts' digits. */
    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
