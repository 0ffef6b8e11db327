package org.llmplatform.tracing.calls;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.llmplatform.tracing.query.JsonText;

/**
 * The distinct words of a text, in the order first met ({@link SearchTerms}' rule: split at the ASCII characters other
 * than letters and digits, words of 3 characters or more). Kept as characters in one buffer, each word followed by a
 * space, so that a repeated word costs a hash probe rather than a String, and the words joined by spaces, as
 * {@code tracing.call_search_terms} keeps them, are one copy of that buffer. The calls of a trace repeat one another's
 * words (each model call sends the conversation again), and cutting them was 4 in 10 of the service's CPU on ingest.
 */
final class WordSet {

    private static final int SHORTEST = 3;
    /** The ASCII letters and digits: every other ASCII character (NUL aside, which no text holds) separates words. */
    private static final boolean[] WORD_CHARACTER = new boolean[0x80];

    static {
        for (char c = 0; c < 0x80; c++) {
            WORD_CHARACTER[c] = c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
        }
    }

    /** The words, each followed by a space. */
    private char[] chars = new char[256];
    private int length;
    private int[] starts = new int[32];
    private int[] lengths = new int[32];
    private int[] hashes = new int[32];
    private int count;
    /** Open addressing: a word's index plus one, 0 for an empty slot; never more than half full. */
    private int[] slots = new int[64];

    /** A string with characters JSON escapes, escaped. */
    private char[] escaped = new char[0];

    /** Adds the words of {@code text} as it stands. */
    void addText(String text) {
        char[] characters = text.toCharArray();
        cut(characters, 0, characters.length);
    }

    /**
     * Adds the words of a string as PostgreSQL prints it inside a jsonb value (its {@code escape_json}, as
     * {@code JsonText.escaped}): a newline is {@code \n}, so "one⏎line" has the words {@code one} and {@code nline}.
     */
    void addJsonString(char[] text, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            char next = text[i];
            if (next < 0x20 || next == '"' || next == '\\') {
                if (escaped.length < JsonText.MAX_GROWTH * length) {
                    escaped = new char[JsonText.MAX_GROWTH * length];
                }
                cut(escaped, 0, JsonText.escape(text, offset, length, escaped));
                return;
            }
        }
        cut(text, offset, offset + length);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The words joined by single spaces. */
    String joined() {
        return count == 0 ? "" : new String(chars, 0, length - 1);
    }

    Set<String> toSet() {
        Set<String> words = new LinkedHashSet<>();
        for (int i = 0; i < count; i++) {
            words.add(new String(chars, starts[i], lengths[i]));
        }
        return words;
    }

    /**
     * Adds the words of {@code text[from, to)}; the hash of each is taken on the way, in locals, and whether it is all
     * ASCII, where its length is its count of code points.
     */
    private void cut(char[] text, int from, int to) {
        int start = from;
        int hash = 0;
        boolean ascii = true;
        for (int i = from; i < to; i++) {
            char next = text[i];
            if (next >= 0x80) {
                ascii = false;
                hash = 31 * hash + next;
            } else if (WORD_CHARACTER[next]) {
                hash = 31 * hash + next;
            } else {
                add(text, start, i - start, hash, ascii);
                start = i + 1;
                hash = 0;
                ascii = true;
            }
        }
        add(text, start, to - start, hash, ascii);
    }

    private void add(char[] text, int start, int wordLength, int hash, boolean ascii) {
        if (!isLongEnough(text, start, wordLength, ascii) || contains(text, start, wordLength, hash)) {
            return;
        }
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
            hashes = Arrays.copyOf(hashes, count * 2);
        }
        if (length + wordLength + 1 > chars.length) {
            chars = Arrays.copyOf(chars, Math.max(length + wordLength + 1, chars.length * 2));
        }
        System.arraycopy(text, start, chars, length, wordLength);
        starts[count] = length;
        lengths[count] = wordLength;
        hashes[count] = hash;
        count++;
        length += wordLength;
        chars[length++] = ' ';
        if (count * 2 > slots.length) {
            slots = new int[slots.length * 2];
            for (int word = 0; word < count; word++) {
                place(word);
            }
        } else {
            place(count - 1);
        }
    }

    /** Whether a word has {@link #SHORTEST} code points: a code point is one or two chars, one where ASCII. */
    private static boolean isLongEnough(char[] text, int start, int wordLength, boolean ascii) {
        if (ascii || wordLength >= 2 * SHORTEST || wordLength < SHORTEST) {
            return wordLength >= SHORTEST;
        }
        return Character.codePointCount(text, start, wordLength) >= SHORTEST;
    }

    private boolean contains(char[] text, int start, int wordLength, int hash) {
        int mask = slots.length - 1;
        for (int slot = spread(hash) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int word = slots[slot] - 1;
            if (hashes[word] == hash && lengths[word] == wordLength
                    && Arrays.equals(chars, starts[word], starts[word] + wordLength, text, start, start + wordLength)) {
                return true;
            }
        }
        return false;
    }

    private void place(int word) {
        int mask = slots.length - 1;
        int slot = spread(hashes[word]) & mask;
        while (slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = word + 1;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
