package org.llmplatform.tracing.otel;

import java.nio.charset.StandardCharsets;

/**
 * Reads the protobuf wire format over a slice of a byte array: tags, varints, fixed-width numbers and
 * length-delimited fields, each checked against the slice's end, so a truncated or garbage body fails
 * with {@link MalformedOtlpException} instead of reading past it. Unknown fields are skipped.
 */
final class ProtoReader {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] buffer;
    private final int limit;
    private int position;
    private int wireType;

    ProtoReader(byte[] buffer) {
        this(buffer, 0, buffer.length);
    }

    private ProtoReader(byte[] buffer, int position, int limit) {
        this.buffer = buffer;
        this.position = position;
        this.limit = limit;
    }

    boolean hasMore() {
        return position < limit;
    }

    /** The next field number; its wire type is then {@link #wireType()}. */
    int nextField() {
        long tag = readVarint();
        int field = (int) (tag >>> 3);
        wireType = (int) (tag & 7);
        if (field <= 0 || tag >>> 3 > 0x1FFFFFFFL) {
            throw malformed("invalid field number " + (tag >>> 3));
        }
        return field;
    }

    int wireType() {
        return wireType;
    }

    long varint(int field) {
        expect(VARINT, field);
        return readVarint();
    }

    long fixed64(int field) {
        expect(FIXED64, field);
        require(8);
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = (value << 8) | (buffer[position + i] & 0xFFL);
        }
        position += 8;
        return value;
    }

    double doubleValue(int field) {
        return Double.longBitsToDouble(fixed64(field));
    }

    byte[] bytes(int field) {
        int length = length(field);
        byte[] value = new byte[length];
        System.arraycopy(buffer, position, value, 0, length);
        position += length;
        return value;
    }

    String string(int field) {
        int length = length(field);
        String value = new String(buffer, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    ProtoReader message(int field) {
        int length = length(field);
        ProtoReader nested = new ProtoReader(buffer, position, position + length);
        position += length;
        return nested;
    }

    /** Skips the value of the field just read, whatever its (non-group) wire type. */
    void skip() {
        switch (wireType) {
            case VARINT -> readVarint();
            case FIXED64 -> skipBytes(8);
            case LENGTH_DELIMITED -> skipBytes(readLength());
            case FIXED32 -> skipBytes(4);
            default -> throw malformed("unsupported wire type " + wireType);
        }
    }

    private int length(int field) {
        expect(LENGTH_DELIMITED, field);
        return readLength();
    }

    private int readLength() {
        long length = readVarint();
        if (length < 0 || length > limit - position) {
            throw malformed("a field of " + length + " bytes runs past the end of its message");
        }
        return (int) length;
    }

    private void skipBytes(int count) {
        require(count);
        position += count;
    }

    private void require(int count) {
        if (limit - position < count) {
            throw malformed("the body ends inside a field");
        }
    }

    private void expect(int expected, int field) {
        if (wireType != expected) {
            throw malformed("field " + field + " has wire type " + wireType + ", expected " + expected);
        }
    }

    private long readVarint() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= limit) {
                throw malformed("the body ends inside a varint");
            }
            byte b = buffer[position++];
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw malformed("a varint is longer than 10 bytes");
    }

    private static MalformedOtlpException malformed(String problem) {
        return new MalformedOtlpException("Invalid OTLP protobuf body: " + problem);
    }
}
