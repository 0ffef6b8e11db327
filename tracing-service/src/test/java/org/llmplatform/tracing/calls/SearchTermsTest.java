package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.llmplatform.tracing.query.ExprParser;

/** The words a search asks of its traces (migration V28's split, docs/tracing-service.md#searching-inputs-and-outputs). */
class SearchTermsTest {

    @Test
    void wordsAreSplitAtAsciiPunctuationAndSpaceKeepingOtherScriptsAndThreeCharactersOrMore() {
        assertEquals(Set.of("lived", "happily", "ever"), SearchTerms.words("lived-happily ever_a"));
        assertEquals(Set.of("Drachenflügel", "über", "日本語"), SearchTerms.words("Drachenflügel über, 日本語 日本"));
        assertEquals(Set.of("one", "nline"), SearchTerms.words("one\\nline"));
        assertEquals(Set.of(), SearchTerms.words("a b, cd"));
    }

    @Test
    void aDocumentsWordsAreThoseOfItsTextAsJsonbPrintsIt() {
        // jsonb prints \u00e9 as é, 1e5 as 100000 and a newline as \n; keys and literals are words too
        assertEquals(List.of("café", "100000", "text", "line1", "nline2", "flag", "true"), documentWords("""
                {"caf\\u00e9": 1e5, "text": "line1\\nline2", "flag": true, "text": "line1"}"""));
        assertEquals(List.of(), documentWords(null));
        assertEquals(List.of(), documentWords("{\"a\": [1, 22]}"));
    }

    @Test
    void anOrOfSearchesAsksForAnyOfTheirWordsAndAnAndForOneOperandsWords() throws Exception {
        assertEquals(List.of(Set.of("dragon")), required("""
                {"$or": [%s, %s]}""".formatted(contains("inputs", "dragon"), contains("output", "dragon"))));
        assertEquals(List.of(Set.of("red", "dragon"), Set.of("wyvern")), required("""
                {"$or": [%s, %s]}""".formatted(contains("inputs", "red dragon"), contains("output", "wyvern"))));
        assertEquals(List.of(Set.of("dragon")), required("""
                {"$and": [{"$eq": [{"$getField": "op_name"}, {"$literal": "x"}]}, %s]}""".formatted(contains("inputs", "dragon"))));
    }

    @Test
    void searchesThatMayHoldWithoutAWordAskNothing() throws Exception {
        assertNull(required("""
                {"$not": [%s]}""".formatted(contains("inputs", "dragon"))));
        assertNull(required("""
                {"$or": [%s, {"$eq": [{"$getField": "op_name"}, {"$literal": "x"}]}]}""".formatted(contains("inputs", "dragon"))));
        assertNull(required(contains("attributes", "dragon")), "only inputs and output have their words kept");
        assertNull(required(contains("inputs", "a b")), "no word of 3 characters");
    }

    private static List<String> documentWords(String json) {
        WordSet words = new WordSet();
        SearchTerms.addDocumentWords(json, words);
        return List.copyOf(words.toSet());
    }

    private static List<Set<String>> required(String expr) throws Exception {
        return SearchTerms.required(ExprParser.parseQuery(new ObjectMapper().readTree("{\"$expr\": " + expr + "}")));
    }

    private static String contains(String field, String text) {
        return """
                {"$contains": {"input": {"$getField": "%s"}, "substr": {"$literal": "%s"}, "case_insensitive": true}}"""
                .formatted(field, text);
    }
}
