package org.llmplatform.tracing.digest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every test vector of docs/tracing-service.md#digests, plus Python's float and escape formatting. */
class DigestsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode parse(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static String row(String text) throws Exception {
        return Digests.objectDigest(parse(text));
    }

    @Test
    void objectDigestsMatchTheReferenceVectors() throws Exception {
        assertEquals("X9JzV19XGsTuoYkllRKAipPm3SFXfSO3ce8QJUxep1k", row("{\"i\": 1}"));
        assertEquals("zlxib7QDB0J88yO1wwej6iMIVvpLrWduqqJXe1qFeoU", row("{\"a\": 1, \"b\": \"x\"}"));
        assertEquals("2El9nYJ3CnBykmEJWqmPfvUVTXr0mfgDe2yiUClnhaY", row("{\"b\": 2, \"a\": 1}"));
        assertEquals("o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM", row("[1, 2, 3]"));
        assertEquals("WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno", row("\"hello\""));
        assertEquals("up72y3L7zf7dNi56jV9MPHa3SvBaXl9xBo4OrZCSwYk", row("{\"x\": 1.0, \"u\": \"é\"}"));
    }

    @Test
    void theOldInsertionOrderVectorIsTheDigestOfItsUnsortedText() {
        assertEquals("1biu0mUlbIk4UNMWCaiEzZEKRS3wkONM5NMYye9b13E", Digests.strDigest("{\"b\": 2, \"a\": 1}"));
    }

    @Test
    void canonicalJsonIsPythonsSortedDump() throws Exception {
        assertEquals("{\"a\": 1, \"b\": 2}", PythonJson.dumps(parse("{\"b\":2,\"a\":1}")));
        assertEquals("{\"u\": \"\\u00e9\", \"x\": 1.0}", PythonJson.dumps(parse("{\"x\":1.0,\"u\":\"é\"}")));
        assertEquals("[\"\\ud83d\\ude00\", \"\\u007f\\n\\\"\\\\\", null, true, false]",
                PythonJson.dumps(parse("[\"😀\",\"\\u007f\\n\\\"\\\\\",null,true,false]")));
        assertEquals("{\"a\": {\"c\": [], \"d\": {}}, \"b\": 12345678901234567890123}",
                PythonJson.dumps(parse("{\"b\":12345678901234567890123,\"a\":{\"d\":{},\"c\":[]}}")));
    }

    @Test
    void integersAndFloatsKeepTheirKind() throws Exception {
        assertEquals("[1, 1.0, -0.0, 0, 100.0, 100000.0]", PythonJson.dumps(parse("[1, 1.0, -0.0, -0, 1e2, 1E5]")));
        assertEquals(false, row("{\"i\": 1}").equals(row("{\"i\": 1.0}")));
    }

    @Test
    void floatsArePrintedAsPythonRepr() {
        assertEquals("1e-05", PythonJson.floatRepr(1e-5));
        assertEquals("0.0001", PythonJson.floatRepr(1e-4));
        assertEquals("1e+16", PythonJson.floatRepr(1e16));
        assertEquals("1000000000000000.0", PythonJson.floatRepr(1e15));
        assertEquals("0.1", PythonJson.floatRepr(0.1));
        assertEquals("0.30000000000000004", PythonJson.floatRepr(0.1 + 0.2));
        assertEquals("-1.5e-07", PythonJson.floatRepr(-1.5e-7));
        assertEquals("1.7976931348623157e+308", PythonJson.floatRepr(Double.MAX_VALUE));
        assertEquals("5e-324", PythonJson.floatRepr(Double.MIN_VALUE));
        assertEquals("1e+23", PythonJson.floatRepr(1e23));
        assertEquals("2e-07", PythonJson.floatRepr(2e-7));
        assertEquals("123.456", PythonJson.floatRepr(123.456));
        assertEquals("NaN", PythonJson.floatRepr(Double.NaN));
        assertEquals("-Infinity", PythonJson.floatRepr(Double.NEGATIVE_INFINITY));
    }

    @Test
    void rowAndTableDigestsMatchTheReferenceVectors() throws Exception {
        String a1 = row("{\"a\": 1}");
        String a2 = row("{\"a\": 2}");
        String a3 = row("{\"a\": 3}");
        assertEquals("XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA", a1);
        assertEquals("5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4", a2);
        assertEquals("d5WZrervY13uKxMJ88Ee4v7ooyl6XWllJrroyQKctAg", a3);
        assertEquals("1c95cdc46a75d6e7e971986a80adfcd676dd22f2222a3405c7743f3db8df6785", Digests.tableDigest(List.of(a1, a2)));
        assertEquals("78802ba91492cc4e372040905787ee4f9d3693167b56a93c9e64a728c3f0eadc", Digests.tableDigest(List.of(a1, a2, a3)));
        assertEquals("b3250d6949db5bc0d8fdd92131ed6366cc6beb14d22ad8a56dde741dd6a27069", Digests.tableDigest(List.of(a1, a3)));
        assertEquals("9a12a68d2ac49af097df55dd44efd61c6695a57a9e8f7a0c14bd6b049a33e6fb", Digests.tableDigest(List.of(a3, a1, a2)));
        String first = row("{\"input\": \"1 + 2\", \"target\": 3}");
        String second = row("{\"input\": \"2**4\", \"target\": 15}");
        assertEquals("aku0Kj4UGxzvbAaM5v2LHdTkv1XnomBKYX1GtX4neTg", first);
        assertEquals("KkD13RGlAKzzs34nCr25aG3NGreapDsqumRTWrAYHIU", second);
        assertEquals("54328e3432373373f6fd088bbdb6f173f5707aaba74a9850ca8c73a67166b99b", Digests.tableDigest(List.of(first, second)));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Digests.tableDigest(List.of()));
    }

    @Test
    void fileDigestsMatchTheReferenceVectors() {
        assertEquals("uU0nuZNNPgilLlLX2n2rXsSE7XN6U4DukIj3rOLvzek", Digests.bytesDigest("hello world".getBytes(StandardCharsets.UTF_8)));
        assertEquals("47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU", Digests.bytesDigest(new byte[0]));
        assertEquals("zEIVUIj8pXMHWNtysqW8ozESqUHfqi1DCY7EIs5OohM", Digests.bytesDigest("print(1)\n".getBytes(StandardCharsets.UTF_8)));
    }
}
