package org.llmplatform.llama;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The llama2.c sentencepiece-style tokenizer: byte-fallback tokens {@code <0xHH>} at ids 3..258 and
 * greedy highest-score pair merges.
 */
public final class Tokenizer {

    public static final int UNKNOWN = 0;
    public static final int BOS = 1;
    public static final int EOS = 2;
    private static final int FIRST_BYTE_TOKEN = 3;

    private final String[] pieces;
    private final byte[][] pieceBytes;
    private final float[] scores;
    private final Map<String, Integer> ids;

    private Tokenizer(String[] pieces, byte[][] pieceBytes, float[] scores) {
        this.pieces = pieces;
        this.pieceBytes = pieceBytes;
        this.scores = scores;
        this.ids = new HashMap<>(pieces.length * 2);
        for (int id = 0; id < pieces.length; id++) {
            ids.putIfAbsent(pieces[id], id);
        }
    }

    /** Reads {@code vocabSize} entries (the checkpoint's vocab size) from a llama2.c tokenizer file. */
    public static Tokenizer load(Path file, int vocabSize) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        String[] pieces = new String[vocabSize];
        byte[][] bytes = new byte[vocabSize][];
        float[] scores = new float[vocabSize];
        try {
            in.getInt(); // max_token_length: only a buffer-size hint for C
            for (int id = 0; id < vocabSize; id++) {
                scores[id] = in.getFloat();
                int length = in.getInt();
                if (length < 0 || length > in.remaining()) {
                    throw new IOException(file + ": token " + id + " has an impossible length " + length);
                }
                bytes[id] = new byte[length];
                in.get(bytes[id]);
                pieces[id] = new String(bytes[id], StandardCharsets.UTF_8);
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException(file + " holds fewer than " + vocabSize + " tokens", e);
        }
        return new Tokenizer(pieces, bytes, scores);
    }

    public int vocabSize() {
        return pieces.length;
    }

    /** Encodes {@code text} with the dummy-prefix space, optionally after BOS. */
    public int[] encode(String text, boolean bos) {
        return encode(text, bos, true);
    }

    /** Encodes {@code text}, optionally after BOS, with or without sentencepiece's dummy-prefix space. */
    public int[] encode(String text, boolean bos, boolean dummyPrefix) {
        List<Integer> tokens = new ArrayList<>();
        if (bos) {
            tokens.add(BOS);
        }
        if (!text.isEmpty()) {
            Integer space = ids.get(" ");
            if (dummyPrefix && space != null) {
                tokens.add(space);
            }
            text.codePoints().forEach(codePoint -> {
                String character = new String(Character.toChars(codePoint));
                Integer id = ids.get(character);
                if (id != null) {
                    tokens.add(id);
                } else {
                    for (byte b : character.getBytes(StandardCharsets.UTF_8)) {
                        tokens.add((b & 0xff) + FIRST_BYTE_TOKEN);
                    }
                }
            });
        }
        mergePairs(tokens, bos ? 1 : 0);
        return tokens.stream().mapToInt(Integer::intValue).toArray();
    }

    private void mergePairs(List<Integer> tokens, int from) {
        while (true) {
            float bestScore = Float.NEGATIVE_INFINITY;
            int bestId = -1;
            int bestAt = -1;
            for (int i = from; i < tokens.size() - 1; i++) {
                Integer merged = ids.get(pieces[tokens.get(i)] + pieces[tokens.get(i + 1)]);
                if (merged != null && scores[merged] > bestScore) {
                    bestScore = scores[merged];
                    bestId = merged;
                    bestAt = i;
                }
            }
            if (bestAt < 0) {
                return;
            }
            tokens.set(bestAt, bestId);
            tokens.remove(bestAt + 1);
        }
    }

    /**
     * The bytes {@code token} stands for when it follows {@code previous}: byte tokens become their
     * byte, and the dummy-prefix space after BOS is dropped.
     */
    public byte[] decode(int previous, int token) {
        byte[] piece = pieceBytes[token];
        if (token >= FIRST_BYTE_TOKEN && token < FIRST_BYTE_TOKEN + 256 && isByteToken(piece)) {
            return new byte[] {(byte) (token - FIRST_BYTE_TOKEN)};
        }
        if (previous == BOS && piece.length > 0 && piece[0] == ' ') {
            return java.util.Arrays.copyOfRange(piece, 1, piece.length);
        }
        return piece;
    }

    /** The vocabulary entry itself, as text (byte tokens read {@code <0xHH>}). */
    public String piece(int token) {
        return pieces[token];
    }

    /** Decodes a whole token sequence to text, as {@link Utf8Accumulator} would piece by piece. */
    public String decodeAll(int previous, int[] tokens) {
        Utf8Accumulator text = new Utf8Accumulator();
        StringBuilder out = new StringBuilder();
        for (int token : tokens) {
            out.append(text.append(decode(previous, token)));
            previous = token;
        }
        return out.append(text.flush()).toString();
    }

    private static boolean isByteToken(byte[] piece) {
        return piece.length == 6 && piece[0] == '<' && piece[1] == '0' && piece[2] == 'x' && piece[5] == '>';
    }
}
