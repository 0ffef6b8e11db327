package org.llmplatform.tracing.calls;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The distinct words of a text, in the order first met ({@link SearchTerms}' rule: split at the ASCII characters other
 * than letters and digits, words of 3 characters or more). Kept as characters in one buffer, each word followed by a
 * space, so that a repeated word costs a hash probe rather than a String, and the words joined by spaces, as
 * {@code tracing.call_search_terms} keeps them, are one copy of that buffer. The calls of a trace repeat one another's
 * words (each model call sends the conversation again), and cutting them was 4 in 10 of the service's CPU on ingest.
 */
final class WordSet {

    private static final int SHORTEST = 3;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The words, each followed by a space; a word being cut lies past {@link #length}. */
    private char[] chars = new char[256];
    private int length;
    private int[] starts = new int[32];
    private int[] lengths = new int[32];
    private int[] hashes = new int[32];
    private int count;
    /** Open addressing: a word's index plus one, 0 for an empty slot; never more than half full. */
    private int[] slots = new int[64];

    private int cutLength;
    private int cutHash;
    private int cutCodePoints;

    /** Adds the words of {@code text} as it stands. */
    void addText(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            add(text.charAt(i));
        }
        endWord();
    }

    /**
     * Adds the words of a string as PostgreSQL prints it inside a jsonb value (its {@code escape_json}, as
     * {@code JsonText.escaped}): a newline is {@code \n}, so "one⏎line" has the words {@code one} and {@code nline}.
     */
    void addJsonString(char[] text, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            char next = text[i];
            if (next >= 0x20 && next != '"' && next != '\\') {
                add(next);
                continue;
            }
            endWord(); // the escape's backslash
            switch (next) {
                case '"', '\\' -> {
                    // a separator as well
                }
                case '\b' -> add('b');
                case '\f' -> add('f');
                case '\n' -> add('n');
                case '\r' -> add('r');
                case '\t' -> add('t');
                default -> {
                    add('u');
                    add('0');
                    add('0');
                    add(HEX[next >> 4]);
                    add(HEX[next & 0xf]);
                }
            }
        }
        endWord();
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

    private void add(char next) {
        if (separates(next)) {
            endWord();
            return;
        }
        if (length + cutLength + 1 >= chars.length) {
            chars = Arrays.copyOf(chars, chars.length * 2);
        }
        chars[length + cutLength++] = next;
        cutHash = 31 * cutHash + next;
        if (!Character.isLowSurrogate(next)) {
            cutCodePoints++;
        }
    }

    private void endWord() {
        if (cutCodePoints >= SHORTEST && !contains()) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                lengths = Arrays.copyOf(lengths, count * 2);
                hashes = Arrays.copyOf(hashes, count * 2);
            }
            starts[count] = length;
            lengths[count] = cutLength;
            hashes[count] = cutHash;
            count++;
            length += cutLength;
            chars[length++] = ' ';
            if (count * 2 > slots.length) {
                rehash();
            } else {
                place(count - 1);
            }
        }
        cutLength = 0;
        cutHash = 0;
        cutCodePoints = 0;
    }

    /** Whether the word being cut is already a word. */
    private boolean contains() {
        int mask = slots.length - 1;
        for (int slot = spread(cutHash) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
            int word = slots[slot] - 1;
            if (hashes[word] == cutHash && lengths[word] == cutLength
                    && Arrays.equals(chars, starts[word], starts[word] + cutLength, chars, length, length + cutLength)) {
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

    private void rehash() {
        slots = new int[slots.length * 2];
        for (int word = 0; word < count; word++) {
            place(word);
        }
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    /** The separators of words: the ASCII characters (NUL excepted, which no text holds) other than letters and digits. */
    static boolean separates(char c) {
        return c < 0x80 && !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z');
    }
}
