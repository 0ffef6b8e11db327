package org.llmplatform.automation.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;
import org.llmplatform.support.error.ApiException;

class PayloadTemplateTest {

    private static final List<Object> LOC = List.of("body", "action", "payload_template");

    @Test
    void valuesAreEscapedInsideTheParsedJson() {
        JsonNode template = PayloadTemplate.validated(TextNode.valueOf("{\"who\": \"by ${event_author}\"}"), Set.of(), LOC);
        EventFacts event = new EventFacts("LINK_ARTIFACT", "team", "proj", "model", "v3", 3, "evil\",\"admin\":true", Map.of());
        String rendered = new String(PayloadTemplate.bytes(PayloadTemplate.render(template, TemplateValues.of(event, List.of("", ""),
                Map.of()), "")));
        assertEquals("{\"who\":\"by evil\\\",\\\"admin\\\":true\"}", rendered);
    }

    @Test
    void aWholeMetadataVariableKeepsItsJsonType() {
        JsonNode template = PayloadTemplate.validated(TextNode.valueOf(
                "{\"step\": \"${artifact_metadata.step}\", \"text\": \"step ${artifact_metadata.step}\", \"none\": \"${artifact_metadata.absent}\"}"),
                Set.of(), LOC);
        EventFacts event = new EventFacts("LINK_ARTIFACT", "team", "proj", "model", "v3", 3, "ada", Map.of("step", 7));
        JsonNode rendered = PayloadTemplate.render(template, TemplateValues.of(event, List.of("", ""), Map.of()), "");
        assertEquals(7, rendered.get("step").intValue());
        assertEquals("step 7", rendered.get("text").textValue());
        assertEquals("", rendered.get("none").textValue());
    }

    @Test
    void anUnknownVariableIsRefusedNamingIt() {
        ApiException refused = assertThrows(ApiException.class, () ->
                PayloadTemplate.validated(TextNode.valueOf("{\"a\": \"${project}\"}"), Set.of(), LOC));
        assertEquals(422, refused.status());
        assertTrue(refused.getMessage().contains("${project}"), refused.getMessage());
        assertEquals(LOC, refused.issues().get(0).loc());
    }

    @Test
    void secretVariablesNeedTheWebhookToHaveThem() {
        assertThrows(ApiException.class, () ->
                PayloadTemplate.validated(TextNode.valueOf("{\"t\": \"${ACCESS_TOKEN}\"}"), Set.of(), LOC));
        assertThrows(ApiException.class, () ->
                PayloadTemplate.validated(TextNode.valueOf("{\"t\": \"${OTHER_SECRET}\"}"), Set.of("MY_SECRET"), LOC));
        PayloadTemplate.validated(TextNode.valueOf("{\"t\": \"${ACCESS_TOKEN} ${MY_SECRET}\"}"), Set.of("ACCESS_TOKEN", "MY_SECRET"), LOC);
    }

    @Test
    void aTemplateMustBeAJsonObject() {
        for (String text : List.of("[1, 2]", "\"text\"", "{not json", "42")) {
            ApiException refused = assertThrows(ApiException.class, () -> PayloadTemplate.validated(TextNode.valueOf(text), Set.of(), LOC));
            assertEquals(422, refused.status());
        }
    }

    @Test
    void aVariableInAFieldNameIsRefused() {
        assertThrows(ApiException.class, () -> PayloadTemplate.validated(TextNode.valueOf("{\"${alias}\": 1}"), Set.of(), LOC));
    }
}
