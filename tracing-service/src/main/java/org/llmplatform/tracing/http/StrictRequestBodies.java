package org.llmplatform.tracing.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import org.llmplatform.tracing.common.StrictRequest;

/**
 * Unknown keys are ignored everywhere (Quarkus' default, which the lenient insert payloads rely on)
 * except in types marked {@link StrictRequest}, where they fail like pydantic's {@code extra_forbidden}.
 */
@Singleton
public class StrictRequestBodies implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.addHandler(new DeserializationProblemHandler() {
            @Override
            public boolean handleUnknownProperty(DeserializationContext context, JsonParser parser,
                    JsonDeserializer<?> deserializer, Object beanOrClass, String propertyName) throws IOException {
                Class<?> type = beanOrClass instanceof Class<?> named ? named : beanOrClass.getClass();
                if (!type.isAnnotationPresent(StrictRequest.class)) {
                    return false;
                }
                // Built without a path entry for the key: the error mapping appends the key to the path itself.
                throw new UnrecognizedPropertyException(parser, "Unknown key '" + propertyName + "'",
                        parser.currentLocation(), type, propertyName, deserializer.getKnownPropertyNames());
            }
        });
    }
}
