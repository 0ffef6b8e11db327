package org.llmplatform.inference.models;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.UUID;

/** vLLM's ModelCard, with {@code created} the time of the request that lists it. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ModelCard(String id, String object, long created, String ownedBy, String root, String parent,
        Integer maxModelLen, List<Permission> permission) {

    public static ModelCard base(String id, String root, Integer maxModelLen, long created) {
        return new ModelCard(id, "model", created, "vllm", root, null, maxModelLen, List.of(Permission.of(created)));
    }

    /** A model served on top of {@code parent}: a trained checkpoint (owned by its entity) or an alias. */
    public static ModelCard child(String id, String ownedBy, String root, String parent, Integer maxModelLen,
            long created) {
        return new ModelCard(id, "model", created, ownedBy, root, parent, maxModelLen, List.of(Permission.of(created)));
    }

    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Permission(String id, String object, long created, boolean allowCreateEngine, boolean allowSampling,
            boolean allowLogprobs, boolean allowSearchIndices, boolean allowView, boolean allowFineTuning,
            String organization, String group, boolean isBlocking) {

        static Permission of(long created) {
            return new Permission("modelperm-" + UUID.randomUUID().toString().replace("-", ""), "model_permission",
                    created, false, true, true, false, true, false, "*", null, false);
        }
    }

    /** {@code {"object":"list","data":[…]}}. */
    @RegisterForReflection
    public record ListOf(String object, List<ModelCard> data) {

        public static ListOf of(List<ModelCard> data) {
            return new ListOf("list", data);
        }
    }
}
