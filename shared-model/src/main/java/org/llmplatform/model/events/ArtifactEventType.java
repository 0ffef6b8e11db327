package org.llmplatform.model.events;

/** The W&B automation event types that have a producer on this platform. */
public enum ArtifactEventType {
    CREATE_ARTIFACT,
    LINK_ARTIFACT,
    ADD_ARTIFACT_ALIAS,
    ADD_ARTIFACT_TAG
}
