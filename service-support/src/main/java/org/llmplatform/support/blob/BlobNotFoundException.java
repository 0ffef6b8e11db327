package org.llmplatform.support.blob;

/** No blob with the referenced digest is stored (or the stored bytes no longer match it). */
public class BlobNotFoundException extends RuntimeException {

    public BlobNotFoundException(String message) {
        super(message);
    }
}
