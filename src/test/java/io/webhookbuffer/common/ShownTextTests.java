package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** What stored and shown error text keeps of an origin's words. */
class ShownTextTests {

    @Test
    void controlCharactersAndBidiControlsGoLineBreaksBecomeOneSpace() {
        assertEquals("[31mred[0m text", ShownText.clean("\u001b[31mred\u001b[0m text"), "the escape itself goes");
        assertEquals("a b c", ShownText.clean("a\r\nb\tc"));
        assertEquals("forged line", ShownText.clean("forged\u2028line"));
        assertEquals("evil.txt", ShownText.clean("evil\u202e.txt"));
        assertEquals("abc", ShownText.clean("a\u2066b\u2069c\u200f"));
        assertEquals("nul", ShownText.clean("n\u0000u\u007fl\u009b"));
        assertNull(ShownText.clean(null));
    }

    @Test
    void cleanTextIsReturnedAsIs() {
        String text = "HTTP 500: {\"error\":\"überlastet\"} 日本";
        assertSame(text, ShownText.clean(text));
    }

    @Test
    void capCountsCodePointsAndNeverSplitsAPair() {
        assertEquals("abc...", ShownText.cap("abcdef", 3));
        assertEquals("abc", ShownText.cap("abc", 3));
        String emoji = "\uD83D\uDE00".repeat(5);
        assertEquals("\uD83D\uDE00".repeat(2) + "...", ShownText.cap(emoji, 2));
        assertEquals(200 + 3, ShownText.cap("x".repeat(5000), ShownText.ORIGIN_TEXT_CAP).length());
    }
}
