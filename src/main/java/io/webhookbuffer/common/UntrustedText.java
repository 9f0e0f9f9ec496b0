package io.webhookbuffer.common;

/**
 * Text that came from outside (an origin's answer body, its rejection reasons, an exception's message) made fit to be
 * stored in {@code last_error} and shown on the status page and in the CLI: no control characters (a terminal would
 * obey an escape sequence, a log reader would see forged lines), no bidirectional overrides (which make text read
 * differently from what it says), no NUL (PostgreSQL text cannot hold it), and at most a given number of code points.
 * Line breaks and tabs become one space, so the words stay apart.
 */
public final class UntrustedText {

    /** The most characters of an origin's own text (an answer body, a rejection reason) that are kept. */
    public static final int ORIGIN_TEXT_CAP = 200;

    private UntrustedText() {
    }

    /** {@code text} without control characters and bidi controls; null stays null. */
    public static String clean(String text) {
        if (text == null || isClean(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isBreak(c)) {
                if (!space) {
                    out.append(' ');
                }
                space = true;
            } else if (!dropped(c)) {
                out.append(c);
                space = c == ' ';
            }
        }
        return out.toString();
    }

    /** {@link #clean} and then at most {@code max} code points, with "..." when cut. */
    public static String cap(String text, int max) {
        String clean = clean(text);
        if (clean == null || clean.codePointCount(0, clean.length()) <= max) {
            return clean;
        }
        return clean.substring(0, clean.offsetByCodePoints(0, max)) + "...";
    }

    private static boolean isClean(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isBreak(c) || dropped(c)) {
                return false;
            }
        }
        return true;
    }

    /** Tab, line feed, carriage return, line and paragraph separators: one space. */
    private static boolean isBreak(char c) {
        return c == '\t' || c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029';
    }

    /**
     * C0 and C1 controls and DEL; the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the
     * marks (U+200E, U+200F, U+061C).
     */
    private static boolean dropped(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f)
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069')
                || c == '\u200e' || c == '\u200f' || c == '\u061c';
    }
}
