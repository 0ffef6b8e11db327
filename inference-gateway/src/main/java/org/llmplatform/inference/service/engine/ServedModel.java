package org.llmplatform.inference.service.engine;

import org.llmplatform.llama.LlamaEngine;

/** A model the gateway serves: its public id, where it came from, and the loaded engine. */
public record ServedModel(String id, String root, int maxModelLen, LlamaEngine engine) {
}
