package org.llmplatform.inference.catalog;

import org.llmplatform.llama.LlamaEngine;

/** A model the gateway serves: its public id, where it came from, and the loaded engine. */
public record ServedModel(String id, String root, int maxModelLen, LlamaEngine engine) {

    /** The same model answering under another public name (an alias). */
    public ServedModel as(String publicId) {
        return publicId == null || publicId.isEmpty() || publicId.equals(id) ? this
                : new ServedModel(publicId, root, maxModelLen, engine);
    }
}
