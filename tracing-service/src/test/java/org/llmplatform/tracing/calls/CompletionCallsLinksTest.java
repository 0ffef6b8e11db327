package org.llmplatform.tracing.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ends record a chat completion: an output with a string {@code id} and a {@code choices} array, and usage. */
class CompletionCallsLinksTest {

    private static final String USAGE = "{\"usage\": {\"gpt-4o\": {\"requests\": 1}}}";

    @Test
    void anOutputWithAnIdAndChoicesAndASummaryThatCountsTokensIsACompletion() {
        assertEquals(List.of("chatcmpl-1"), links(end("{\"id\": \"chatcmpl-1\", \"choices\": [], \"model\": \"m\"}", USAGE)));
        assertEquals(List.of("chatcmpl-2"), links(end("{\"choices\": [{\"n\": {\"id\": \"x\"}}], \"id\": \"chatcmpl-2\"}",
                "{\"weave\": {}, \"usage\": {\"m\": {}}}")), "a nested id is not the output's");
        assertEquals(List.of("last"), links(end("{\"id\": \"first\", \"choices\": [], \"id\": \"last\"}", USAGE)),
                "the last of a repeated key, as a tree keeps it");
    }

    @Test
    void anythingElseIsNot() {
        assertEquals(List.of(), links(
                end("{\"id\": \"c\", \"choices\": []}", "{\"usage\": {}}"),
                end("{\"id\": \"c\", \"choices\": []}", "{\"usage\": null}"),
                end("{\"id\": \"c\", \"choices\": []}", "{\"other\": {\"usage\": {\"m\": 1}}}"),
                end("{\"id\": 7, \"choices\": []}", USAGE),
                end("{\"id\": \" \", \"choices\": []}", USAGE),
                end("{\"id\": \"" + "x".repeat(257) + "\", \"choices\": []}", USAGE),
                end("{\"id\": \"c\", \"choices\": {}}", USAGE),
                end("{\"id\": \"c\", \"choices\": [], \"id\": null}", USAGE),
                end("[{\"id\": \"c\", \"choices\": []}]", USAGE),
                end("{\"id\": \"c\", \"choices\": [}", USAGE),
                end("{\"id\": \"c\", \"choices\": []}", "{\"usage\": {\"m\": 1}, \"x\": [}"),
                end(null, USAGE)));
    }

    private static CallEndRow end(String output, String summary) {
        return new CallEndRow("e/p", "call", null, null, output, List.of(), summary, null);
    }

    private static List<String> links(CallEndRow... ends) {
        return new CompletionCalls().clientCalls(List.of(ends)).stream().map(CompletionCalls.Link::completionId).toList();
    }
}
