package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.testing.PlatformTestResources;
import org.llmplatform.tracing.TraceClient;

/**
 * Searching inputs and outputs: {@code $contains} on a whole {@code inputs} or {@code output} column finds a
 * substring of any key or value at any depth (docs/tracing-service.md#searching-inputs-and-outputs), the
 * query the console's search box sends.
 */
@QuarkusTest
@QuarkusTestResource(PlatformTestResources.class)
class CallSearchApiTest {

    private TraceClient fourCalls() {
        TraceClient client = new TraceClient("search");
        Map<String, Object> nested = client.start("nested", "story", CallQueryApiTest.at(1));
        nested.put("inputs", Map.of("arg0", Map.of("topic", "A Dragon at sea", "pages", 4217)));
        Map<String, Object> listed = client.start("listed", "story", CallQueryApiTest.at(2));
        listed.put("inputs", Map.of("tags", List.of("red", List.of("Blue whale")), "quote", "she said \"hi\"\n"));
        Map<String, Object> answered = client.start("answered", "chat", CallQueryApiTest.at(3));
        answered.put("inputs", Map.of("model", "m"));
        Map<String, Object> elsewhere = client.start("elsewhere", "chat", CallQueryApiTest.at(4));
        elsewhere.put("attributes", Map.of("note", "dragon unicorn"));
        elsewhere.put("display_name", "dragon");
        Map<String, Object> answer = client.end("answered", CallQueryApiTest.at(5));
        answer.put("output", Map.of("choices", List.of(Map.of("message", Map.of("content", "a UNICORN appears")))));
        client.write(List.of(nested, listed, answered, elsewhere), List.of(answer));
        return client;
    }

    @Test
    void aWordIsFoundAtAnyDepthOfInputsOrOutputIgnoringCase() {
        TraceClient client = fourCalls();
        assertEquals(List.of("nested"), search(client, "dragon", Map.of()));
        assertEquals(List.of("listed"), search(client, "WHALE", Map.of()));
        assertEquals(List.of("answered"), search(client, "unicorn", Map.of()));
        assertEquals(List.of("nested"), search(client, "4217", Map.of()));
    }

    @Test
    void keysAreTextToo() {
        TraceClient client = fourCalls();
        assertEquals(List.of("nested"), search(client, "topic", Map.of()));
        assertEquals(List.of("answered"), search(client, "choices", Map.of()));
    }

    @Test
    void quotesAndNewlinesMatchAsWritten() {
        TraceClient client = fourCalls();
        assertEquals(List.of("listed"), search(client, "said \"hi\"\n", Map.of()));
        assertEquals(List.of(), search(client, "said \"hi\"\t", Map.of()));
    }

    @Test
    void likePatternCharactersAreLiteral() {
        TraceClient client = fourCalls();
        assertEquals(List.of(), search(client, "dr_gon", Map.of()));
        assertEquals(List.of(), search(client, "%", Map.of()));
    }

    @Test
    void otherColumnsAndAbsentWordsFindNothing() {
        TraceClient client = fourCalls();
        assertEquals(List.of(), search(client, "wyvern", Map.of()));
        assertEquals(List.of("nested"), search(client, "dragon", Map.of()));
    }

    @Test
    void caseSensitiveSearchKeepsCase() {
        TraceClient client = fourCalls();
        assertEquals(List.of(), client.ids(Map.of("query", Map.of("$expr", contains("inputs", "dragon", false)))));
        assertEquals(List.of("nested"), client.ids(Map.of("query", Map.of("$expr", contains("inputs", "Dragon", false)))));
    }

    @Test
    void notSearchKeepsCallsWithoutOutput() {
        TraceClient client = fourCalls();
        Map<String, Object> notInOutput = Map.of("$not", List.of(contains("output", "unicorn", true)));
        assertEquals(List.of("nested", "listed", "elsewhere"), client.ids(Map.of("query", Map.of("$expr", notInOutput))));
    }

    @Test
    void searchCombinesWithFiltersAndItsCountAgrees() {
        TraceClient client = fourCalls();
        Map<String, Object> chats = Map.of("filter", Map.of("op_names", List.of("chat")));
        assertEquals(List.of("answered"), search(client, "a", chats));
        Map<String, Object> body = new HashMap<>(searchBody("a"));
        body.put("project_id", client.project);
        int count = client.post("/calls/query_stats", body).statusCode(200).extract().path("count");
        assertEquals(search(client, "a", Map.of()).size(), count);
        assertEquals(3, count);
    }

    @Test
    void aPageFindsRareWordsBeyondTheNewestCallsAndCommonWordsAmongThem() {
        TraceClient client = new TraceClient("search-page");
        int middling = CallQueryStore.SEARCH_FEW + 50; // too many to take from the indexes first, none among the newest
        int calls = middling + CallQueryStore.SEARCH_WALK + 50;
        List<Map<String, Object>> starts = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            Map<String, Object> start = client.start("c" + i, "op", Instant.parse("2025-01-01T00:00:00Z").plusSeconds(i).toString());
            start.put("inputs", Map.of("arg0", Map.of("text", (i < 2 ? "rare griffin " : "") + (i < middling ? "old basilisk " : "")
                    + (i % 5 == 0 ? "frequent hydra " : "") + "common words " + i)));
            starts.add(start);
        }
        for (int from = 0; from < calls; from += 1000) {
            client.write(starts.subList(from, Math.min(calls, from + 1000)), List.of());
        }
        Map<String, Object> newestFirst = Map.of("sort_by", List.of(Map.of("field", "started_at", "direction", "desc")),
                "limit", 3);
        assertEquals(List.of("c1", "c0"), search(client, "griffin", newestFirst));
        int newest = calls - 1;
        assertEquals(List.of("c" + newest, "c" + (newest - 1), "c" + (newest - 2)), search(client, "common", newestFirst));
        Map<String, Object> secondPage = new HashMap<>(newestFirst);
        secondPage.put("offset", 1);
        assertEquals(List.of("c0"), search(client, "griffin", secondPage));
        int oldest = middling - 1;
        assertEquals(List.of("c" + oldest, "c" + (oldest - 1), "c" + (oldest - 2)), search(client, "BASILISK", newestFirst));
        // more than the indexes give first; a page too deep for the glance's 100, within the walk's 1,000
        int lastHydra = newest - newest % 5;
        Map<String, Object> deepPage = new HashMap<>(newestFirst);
        deepPage.put("offset", 150);
        assertEquals(List.of("c" + (lastHydra - 150 * 5), "c" + (lastHydra - 151 * 5), "c" + (lastHydra - 152 * 5)),
                search(client, "hydra", deepPage));
    }

    /**
     * The words of a trace are kept per writing statement (migration V28): a start, its end, a child and an end that came
     * before its start, each written apart, are each found, on a page (a limit) and without one.
     */
    @Test
    void wordsWrittenInLaterStatementsAreFound() {
        TraceClient client = new TraceClient("search-later");
        Map<String, Object> root = client.start("root", "agent", CallQueryApiTest.at(1));
        root.put("inputs", Map.of("question", "where do phoenixes nest"));
        client.write(List.of(root), List.of());
        Map<String, Object> rootEnd = client.end("root", CallQueryApiTest.at(9));
        rootEnd.put("output", Map.of("answer", "in the ashes of a salamander"));
        client.write(List.of(), List.of(rootEnd));
        Map<String, Object> child = childOfRoot(client, "child", CallQueryApiTest.at(2));
        child.put("inputs", Map.of("query", "kraken sightings"));
        client.write(List.of(child), List.of());
        Map<String, Object> earlyEnd = client.end("early", CallQueryApiTest.at(8));
        earlyEnd.put("output", Map.of("text", "a basilisk stares back"));
        client.write(List.of(), List.of(earlyEnd));
        client.write(List.of(childOfRoot(client, "early", CallQueryApiTest.at(3))), List.of());

        for (Map<String, Object> page : List.of(Map.<String, Object>of(), Map.<String, Object>of("limit", 10))) {
            assertEquals(List.of("root"), search(client, "PHOENIX", page));
            assertEquals(List.of("root"), search(client, "salamander", page));
            assertEquals(List.of("child"), search(client, "kraken", page));
            assertEquals(List.of("early"), search(client, "basilisk", page));
        }
    }

    /**
     * A searched substring is split into words as the stored words are (at ASCII characters other than letters and
     * digits, in the text as JSON escapes it): a substring across punctuation, an escaped newline or a word of other
     * scripts finds its call, and words of fewer than 3 characters are left to the calls' text.
     */
    @Test
    void substringsAcrossPunctuationEscapesAndOtherScriptsAreFound() {
        TraceClient client = new TraceClient("search-words");
        Map<String, Object> punctuated = client.start("punctuated", "op", CallQueryApiTest.at(1));
        punctuated.put("inputs", Map.of("text", "they lived-happily ever_after"));
        Map<String, Object> lines = client.start("lines", "op", CallQueryApiTest.at(2));
        lines.put("inputs", Map.of("text", "line one\nline two"));
        Map<String, Object> german = client.start("german", "op", CallQueryApiTest.at(3));
        german.put("inputs", Map.of("text", "Drachenflügel über Köln"));
        client.write(List.of(punctuated, lines, german), List.of());

        for (Map<String, Object> page : List.of(Map.<String, Object>of(), Map.<String, Object>of("limit", 10))) {
            assertEquals(List.of("punctuated"), search(client, "ved-happ", page));
            assertEquals(List.of("punctuated"), search(client, "ever_aft", page));
            assertEquals(List.of("lines"), search(client, "one\nline", page));
            assertEquals(List.of("german"), search(client, "flügel über", page));
            assertEquals(List.of("german"), search(client, "LüGEL", page));
            assertEquals(List.of("punctuated"), search(client, "ev", page));
            assertEquals(List.of(), search(client, "lived happily", page));
        }
    }

    private static Map<String, Object> childOfRoot(TraceClient client, String id, String startedAt) {
        Map<String, Object> child = client.start(id, "tool", startedAt);
        child.put("trace_id", "trace-root");
        child.put("parent_id", "root");
        return child;
    }

    private static List<String> search(TraceClient client, String text, Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(searchBody(text));
        body.putAll(extra);
        return client.ids(body);
    }

    /** What the console's search box sends. */
    private static Map<String, Object> searchBody(String text) {
        return Map.of("query", Map.of("$expr", Map.of("$or", List.of(contains("inputs", text, true),
                contains("output", text, true)))));
    }

    private static Map<String, Object> contains(String field, String text, boolean caseInsensitive) {
        return Map.of("$contains", Map.of("input", Map.of("$getField", field), "substr", Map.of("$literal", text),
                "case_insensitive", caseInsensitive));
    }
}
