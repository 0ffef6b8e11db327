package org.llmplatform.tracing.objects;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the {@code digest} of a read, delete or ref names: a content digest, {@code latest} or {@code v<N>}. */
public record VersionSelector(String text, String digest, Integer versionIndex) {

    private static final Pattern INDEX = Pattern.compile("v(\\d{1,9})");

    public static VersionSelector of(String text) {
        if (text.equals("latest")) {
            return new VersionSelector(text, null, null);
        }
        Matcher index = INDEX.matcher(text);
        if (index.matches()) {
            return new VersionSelector(text, null, Integer.parseInt(index.group(1)));
        }
        return new VersionSelector(text, text, null);
    }

    public boolean latest() {
        return digest == null && versionIndex == null;
    }

    /** The SQL condition (over parameter $3) and its value that pick the version out of an object's versions. */
    public String condition() {
        return digest != null ? "digest = $3" : versionIndex != null ? "version_index = $3" : "is_latest = $3";
    }

    public Object conditionValue() {
        return digest != null ? digest : versionIndex != null ? (Object) versionIndex : Boolean.TRUE;
    }

    public boolean matches(ObjectVersion version) {
        return digest != null ? version.digest().equals(digest)
                : versionIndex != null ? version.versionIndex() == versionIndex : version.isLatest();
    }
}
