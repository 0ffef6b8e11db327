package org.llmplatform.automation.security;

import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.llmplatform.automation.config.AutomationConfig;
import org.llmplatform.support.error.ApiException;

/**
 * Envelope encryption of secret values: each value under its own random 256-bit data key (AES-GCM,
 * 96-bit random nonce, 128-bit tag), the data key wrapped by the configured key-encryption key whose id
 * is stored with the row, so keys can rotate. Associated data binds a ciphertext to its entity and name.
 */
@ApplicationScoped
public class SecretCipher {

    private static final String AES_GCM = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int KEY_BYTES = 32;

    private final SecureRandom random = new SecureRandom();
    private final Map<String, SecretKeySpec> keys = new HashMap<>();
    private final String activeKeyId;

    public SecretCipher(AutomationConfig config) {
        config.secrets().keys().forEach((id, encoded) -> keys.put(id, key(id, encoded)));
        activeKeyId = config.secrets().activeKeyId().orElse(null);
        if (activeKeyId == null) {
            Log.warn("automation.secrets.active-key-id is not set: team secrets can be neither stored nor used");
        } else if (!keys.containsKey(activeKeyId)) {
            throw new IllegalStateException("automation.secrets.active-key-id '" + activeKeyId
                    + "' names no key under automation.secrets.keys");
        }
    }

    public EncryptedSecret encrypt(String entity, String name, String value) {
        if (activeKeyId == null) {
            throw new ApiException(503, "Secrets are unavailable: the service has no encryption key configured");
        }
        byte[] dek = randomBytes(KEY_BYTES);
        byte[] aad = associatedData(entity, name);
        byte[] nonce = randomBytes(NONCE_BYTES);
        byte[] ciphertext = gcm(Cipher.ENCRYPT_MODE, new SecretKeySpec(dek, "AES"), nonce, aad,
                value.getBytes(StandardCharsets.UTF_8));
        byte[] wrapNonce = randomBytes(NONCE_BYTES);
        byte[] wrapped = gcm(Cipher.ENCRYPT_MODE, keys.get(activeKeyId), wrapNonce, aad, dek);
        return new EncryptedSecret(activeKeyId, concat(wrapNonce, wrapped), nonce, ciphertext);
    }

    public String decrypt(String entity, String name, EncryptedSecret secret) {
        SecretKeySpec kek = keys.get(secret.kekId());
        if (kek == null) {
            throw new IllegalStateException("Secret '" + name + "' of '" + entity + "' is encrypted under key '"
                    + secret.kekId() + "', which is not configured");
        }
        byte[] aad = associatedData(entity, name);
        byte[] wrapNonce = Arrays.copyOfRange(secret.wrappedDek(), 0, NONCE_BYTES);
        byte[] wrapped = Arrays.copyOfRange(secret.wrappedDek(), NONCE_BYTES, secret.wrappedDek().length);
        byte[] dek = gcm(Cipher.DECRYPT_MODE, kek, wrapNonce, aad, wrapped);
        return new String(gcm(Cipher.DECRYPT_MODE, new SecretKeySpec(dek, "AES"), secret.nonce(), aad, secret.ciphertext()),
                StandardCharsets.UTF_8);
    }

    private static byte[] gcm(int mode, SecretKeySpec key, byte[] nonce, byte[] aad, byte[] input) {
        try {
            Cipher cipher = Cipher.getInstance(AES_GCM);
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(aad);
            return cipher.doFinal(input);
        } catch (GeneralSecurityException e) {
            // The cause may carry key material details; the message names only what failed.
            throw new IllegalStateException(mode == Cipher.ENCRYPT_MODE ? "Encrypting a secret failed" : "A secret could not be decrypted");
        }
    }

    private static byte[] associatedData(String entity, String name) {
        return (entity + "\u0000" + name).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static SecretKeySpec key(String id, String encoded) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded.strip());
        } catch (IllegalArgumentException notBase64) {
            throw new IllegalStateException("automation.secrets.keys." + id + " is not Base64");
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalStateException("automation.secrets.keys." + id + " must be 32 bytes (AES-256), not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }
}
