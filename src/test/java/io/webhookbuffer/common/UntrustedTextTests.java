package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** What stored and shown error text keeps of an origin's words. */
class UntrustedTextTests {

    @Test
    void controlCharactersAndBidiControlsGoLineBreaksBecomeOneSpace() {
        assertEquals("[31mred[0m text", UntrustedText.clean("\u001b[31mred\u001b[0m text"), "the escape itself goes");
        assertEquals("a b c", UntrustedText.clean("a\r\nb\tc"));
        assertEquals("forged line", UntrustedText.clean("forged\u2028line"));
        assertEquals("evil.txt", UntrustedText.clean("evil\u202e.txt"));
        assertEquals("abc", UntrustedText.clean("a\u2066b\u2069c\u200f"));
        assertEquals("nul", UntrustedText.clean("n\u0000u\u007fl\u009b"));
        assertNull(UntrustedText.clean(null));
    }

    @Test
    void cleanTextIsReturnedAsIs() {
        String text = "HTTP 500: {\"error\":\"überlastet\"} 日本";
        assertSame(text, UntrustedText.clean(text));
    }

    @Test
    void capCountsCodePointsAndNeverSplitsAPair() {
        assertEquals("abc...", UntrustedText.cap("abcdef", 3));
        assertEquals("abc", UntrustedText.cap("abc", 3));
        String emoji = "\uD83D\uDE00".repeat(5);
        assertEquals("\uD83D\uDE00".repeat(2) + "...", UntrustedText.cap(emoji, 2));
        assertEquals(200 + 3, UntrustedText.cap("x".repeat(5000), UntrustedText.ORIGIN_TEXT_CAP).length());
    }
}
