package org.llmplatform.model.auth;

import com.fasterxml.jackson.annotation.JsonValue;

public enum TeamRole {
    MEMBER, ADMIN;

    @JsonValue
    public String wireName() {
        return name().toLowerCase();
    }

    public static TeamRole fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
