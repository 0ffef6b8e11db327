package org.llmplatform.training.service.trajectory;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.io.IOException;

/**
 * Tells message params from Choices as ART's pydantic union does: a message has a role, a Choice has a
 * message and no role. Reads each item once (batches run to tens of thousands of items).
 */
@RegisterForReflection
public class ConversationItemDeserializer extends StdDeserializer<ConversationItem> {

    public ConversationItemDeserializer() {
        super(ConversationItem.class);
    }

    @Override
    public ConversationItem deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        ConversationItem item = context.readValue(parser, ConversationItemShape.class).toItem();
        if (item == null) {
            throw ValueInstantiationException.from(parser, "neither a message nor a Choice", context.constructType(ConversationItem.class),
                    new IllegalArgumentException("a message needs a 'role'; a Choice needs a 'message'"));
        }
        return item;
    }
}
