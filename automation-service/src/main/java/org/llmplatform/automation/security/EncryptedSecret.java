package org.llmplatform.automation.security;

/** A secret value as stored: the wrapped data key carries its own nonce in front. */
public record EncryptedSecret(String kekId, byte[] wrappedDek, byte[] nonce, byte[] ciphertext) {
}
