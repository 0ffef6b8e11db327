package org.llmplatform.llama.lora;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The safetensors format: 8-byte little-endian header length, a JSON header naming each tensor's dtype,
 * shape and byte range, then the raw little-endian data. Writes F32 with names sorted (so equal tensors give
 * equal bytes); reads F32, F16 and BF16 into floats.
 */
final class Safetensors {

    record Tensor(int[] shape, float[] data) {
    }

    private static final int MAX_HEADER_BYTES = 100 * 1024 * 1024;

    private Safetensors() {
    }

    static byte[] write(Map<String, Tensor> tensors) {
        Map<String, Tensor> sorted = new TreeMap<>(tensors);
        ObjectNode headerJson = Json.object();
        headerJson.putObject("__metadata__").put("format", "pt");
        long offset = 0;
        for (Map.Entry<String, Tensor> entry : sorted.entrySet()) {
            long bytes = (long) entry.getValue().data().length * Float.BYTES;
            ObjectNode tensor = headerJson.putObject(entry.getKey()).put("dtype", "F32");
            ArrayNode shape = tensor.putArray("shape");
            for (int dimension : entry.getValue().shape()) {
                shape.add(dimension);
            }
            tensor.putArray("data_offsets").add(offset).add(offset + bytes);
            offset += bytes;
        }
        StringBuilder header = new StringBuilder(Json.write(headerJson));
        while ((header.length() + 8) % 8 != 0) {
            header.append(' ');
        }
        byte[] headerBytes = header.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(8 + headerBytes.length + offset)).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(headerBytes.length).put(headerBytes);
        for (Tensor tensor : sorted.values()) {
            for (float v : tensor.data()) {
                out.putFloat(v);
            }
        }
        return out.array();
    }

    static Map<String, Tensor> read(byte[] file) {
        if (file == null || file.length < 8) {
            throw invalid("it is shorter than the 8-byte header length");
        }
        ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long headerLength = in.getLong();
        if (headerLength < 2 || headerLength > MAX_HEADER_BYTES || headerLength > file.length - 8L) {
            throw invalid("its header length " + headerLength + " does not fit the " + file.length + " bytes");
        }
        JsonNode header = Json.parse(Arrays.copyOfRange(file, 8, 8 + (int) headerLength), "the safetensors header");
        if (!header.isObject()) {
            throw invalid("its header is not a JSON object");
        }
        int dataStart = 8 + (int) headerLength;
        long dataLength = file.length - (long) dataStart;
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : header.properties()) {
            String name = entry.getKey();
            if (name.equals("__metadata__")) {
                continue;
            }
            JsonNode info = entry.getValue();
            if (!info.isObject()) {
                throw invalid("tensor " + name + " is not described by an object");
            }
            String dtype = info.path("dtype").isTextual() ? info.get("dtype").textValue() : null;
            int width = switch (dtype == null ? "" : dtype) {
                case "F32" -> 4;
                case "F16", "BF16" -> 2;
                default -> throw invalid("tensor " + name + " has dtype " + dtype + " (F32, F16 or BF16 expected)");
            };
            int[] shape = integers(info.get("shape"), name, "shape");
            long[] offsets = longs(info.get("data_offsets"), name);
            long elements = 1;
            for (int dimension : shape) {
                elements *= dimension;
                if (elements > Integer.MAX_VALUE) {
                    throw invalid("tensor " + name + " is too large");
                }
            }
            if (offsets[0] < 0 || offsets[1] < offsets[0] || offsets[1] > dataLength) {
                throw invalid("tensor " + name + " has data offsets outside the " + dataLength + " data bytes");
            }
            if (offsets[1] - offsets[0] != elements * width) {
                throw invalid("tensor " + name + " has " + (offsets[1] - offsets[0]) + " bytes for " + elements
                        + " elements of " + dtype);
            }
            float[] data = new float[(int) elements];
            int at = dataStart + (int) offsets[0];
            for (int i = 0; i < data.length; i++) {
                data[i] = switch (dtype) {
                    case "F32" -> in.getFloat(at + 4 * i);
                    case "BF16" -> Float.intBitsToFloat((in.getShort(at + 2 * i) & 0xffff) << 16);
                    default -> halfToFloat(in.getShort(at + 2 * i));
                };
            }
            tensors.put(name, new Tensor(shape, data));
        }
        return tensors;
    }

    /** IEEE 754 binary16 to float (Java 17 has no Float.float16ToFloat). */
    static float halfToFloat(short half) {
        int bits = half & 0xffff;
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mantissa << 13));
        }
        if (exponent == 0) {
            float value = mantissa * 0x1p-24f;
            return sign == 0 ? value : -value;
        }
        return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }

    private static int[] integers(JsonNode list, String name, String field) {
        if (list == null || !list.isArray()) {
            throw invalid("tensor " + name + " has no " + field + " list");
        }
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = nonNegative(list.get(i), name, field).intValueExact();
        }
        return out;
    }

    private static long[] longs(JsonNode list, String name) {
        if (list == null || !list.isArray() || list.size() != 2) {
            throw invalid("tensor " + name + " needs data_offsets [begin, end]");
        }
        return new long[] {nonNegative(list.get(0), name, "data_offsets").longValueExact(),
            nonNegative(list.get(1), name, "data_offsets").longValueExact()};
    }

    private static BigDecimal nonNegative(JsonNode value, String name, String field) {
        BigDecimal number = Json.number(value);
        if (number == null || number.signum() < 0 || number.stripTrailingZeros().scale() > 0
                || number.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw invalid("tensor " + name + " has a " + field + " entry that is not a small non-negative integer: "
                    + value);
        }
        return number;
    }

    private static IllegalArgumentException invalid(String why) {
        return new IllegalArgumentException("adapter_model.safetensors is invalid: " + why);
    }
}
