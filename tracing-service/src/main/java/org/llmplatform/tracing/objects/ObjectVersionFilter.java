package org.llmplatform.tracing.objects;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.llmplatform.tracing.common.StrictRequest;

/** The filter of {@code objs/query} as requests state it and the store applies it; a null member constrains nothing. */
@StrictRequest
@RegisterForReflection
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ObjectVersionFilter(List<String> baseObjectClasses, List<String> excludeBaseObjectClasses,
        List<String> leafObjectClasses, List<String> objectIds, Boolean isOp, Boolean latestOnly, List<String> tags,
        List<String> aliases) {

    public static final ObjectVersionFilter NONE = new ObjectVersionFilter(null, null, null, null, null, null, null, null);
}
