package org.llmplatform.automation.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.llmplatform.automation.store.DeliveryJob.EventFacts;

/** {@code ${artifact_version_string}} is {@code <entity>/<project>/<collection>:<alias-or-vN>} (docs/automation-service.md#payload-templates). */
class TemplateValuesTest {

    private static final String DIGEST = "3f9a0c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5";

    @Test
    void anAliasEventNamesTheVersionByTheAliasThatFiredIt() {
        assertEquals("team/registry/qwen-lora:production",
                versionString(facts("ADD_ARTIFACT_ALIAS", "v7", 7), List.of("production", "")));
        assertEquals("team/registry/qwen-lora:prod-eu",
                versionString(facts("ADD_ARTIFACT_ALIAS", "v7", 7), List.of("prod-eu,prod-us", "")));
    }

    @Test
    void aVersionWithoutAnAliasIsNamedByItsIndexNeverByItsDigest() {
        assertEquals("team/registry/qwen-lora:v0", versionString(facts("CREATE_ARTIFACT", DIGEST, 0), List.of("", "")));
        assertEquals("team/registry/qwen-lora:v12", versionString(facts("LINK_ARTIFACT", DIGEST, 12), List.of("", "")));
        assertEquals("team/registry/qwen-lora:v3", versionString(facts("ADD_ARTIFACT_TAG", DIGEST, 3), List.of("", "europe")));
    }

    @Test
    void artifactVersionKeepsItsIdFormOverTheProducersVersion() {
        String id = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("team/registry/qwen-lora:" + DIGEST).getBytes(StandardCharsets.UTF_8));
        assertEquals("svc-artifact://_id/" + id, TemplateValues.of(facts("LINK_ARTIFACT", DIGEST, 2), List.of("", ""), Map.of())
                .get("artifact_version").textValue());
    }

    private static String versionString(EventFacts event, List<String> matched) {
        return TemplateValues.of(event, matched, Map.of()).get("artifact_version_string").textValue();
    }

    private static EventFacts facts(String type, String version, Integer index) {
        return new EventFacts(type, "team", "registry", "qwen-lora", version, index, "ada", Map.of());
    }
}
