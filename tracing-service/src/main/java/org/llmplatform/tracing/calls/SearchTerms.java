package org.llmplatform.tracing.calls;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.llmplatform.tracing.query.Expr;
import org.llmplatform.tracing.query.JsonText;

/**
 * The words of calls' inputs and outputs, kept per trace in {@code tracing.call_search_terms} (migration V28,
 * docs/tracing-service.md#searching-inputs-and-outputs), and the words a search asks of them: a {@code $contains} of a
 * literal on {@code inputs} or {@code output} holds in a call only where its JSON text (as PostgreSQL prints the
 * jsonb) has each word of the substring, whole or in part. Words are split at the ASCII characters other than letters
 * and digits, in that text, so inside a string as JSON escapes it; words under 3 characters are neither kept nor
 * asked for.
 */
final class SearchTerms {

    private static final JsonFactory JSON = new JsonFactory();
    private static final Set<String> INDEXED = Set.of("inputs", "output");

    private SearchTerms() {
    }

    /**
     * Alternatives (any one of them holds in a matching call's trace), each the words that must all be there; null
     * where the condition can hold without any word (then the terms cannot narrow the search).
     */
    static List<Set<String>> required(Expr.Operation operation) {
        if (operation instanceof Expr.And and) {
            // any one operand's words are required by the whole
            return and.operands().stream().map(SearchTerms::required).filter(Objects::nonNull).findFirst().orElse(null);
        }
        if (operation instanceof Expr.Or or) {
            Set<Set<String>> alternatives = new LinkedHashSet<>();
            for (Expr.Operation operand : or.operands()) {
                List<Set<String>> required = required(operand);
                if (required == null) {
                    return null;
                }
                alternatives.addAll(required);
            }
            return new ArrayList<>(alternatives);
        }
        if (operation instanceof Expr.Contains contains && contains.input() instanceof Expr.GetField field
                && INDEXED.contains(field.path()) && contains.substring() instanceof Expr.Literal literal
                && literal.value().isTextual()) {
            Set<String> words = words(JsonText.escaped(literal.value().textValue()));
            return words.isEmpty() ? null : List.of(words);
        }
        return null;
    }

    /** The words of {@code text} of 3 characters or more. */
    static Set<String> words(String text) {
        WordSet words = new WordSet();
        words.addText(text);
        return words.toSet();
    }

    /**
     * Adds the distinct words of a JSON document's text as PostgreSQL prints it as jsonb (keys and strings escaped as
     * JSON escapes them, numbers as numeric prints them) to {@code words}; none for no document.
     */
    static void addDocumentWords(String json, WordSet words) {
        if (json == null) {
            return;
        }
        try (JsonParser parser = JSON.createParser(json)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case FIELD_NAME, VALUE_STRING ->
                            words.addJsonString(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
                    case VALUE_NUMBER_FLOAT -> words.addText(new BigDecimal(parser.getText()).toPlainString());
                    case VALUE_NUMBER_INT, VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> words.addText(parser.getText());
                    default -> {
                        // structure: punctuation in the text
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // The column refuses what is not JSON, with the statement: no words are needed for it.
        }
    }
}
