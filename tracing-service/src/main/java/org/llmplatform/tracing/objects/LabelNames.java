package org.llmplatform.tracing.objects;

import java.util.List;
import java.util.regex.Pattern;
import org.llmplatform.support.error.ApiException;

/**
 * The names a tag or an alias may have, as the reference checks them (W&B Models' rules): a tag is words of
 * letters, digits, {@code _} and {@code -} separated by single spaces, at most 256 characters; an alias is any
 * 1-128 characters but {@code /} and {@code :}, not blank, and neither {@code latest} nor {@code v<N>}, which
 * name versions already. Refused names answer 400 naming the field and the name.
 */
final class LabelNames {

    static final int MAX_TAG_LENGTH = 256;
    static final int MAX_ALIAS_LENGTH = 128;

    private static final Pattern TAG = Pattern.compile("[-\\w]+( [-\\w]+)*", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern VERSION_LIKE = Pattern.compile("v\\d+");
    /** A content digest: the 43-character form the SDK computes, or hex SHA-256. */
    private static final Pattern CONTENT_HASH = Pattern.compile("[A-Za-z0-9]{43}|[0-9a-fA-F]{64}");

    static List<String> checkTags(List<String> tags) {
        List<String> names = present("tags", tags);
        for (String tag : names) {
            if (tag.isEmpty()) {
                throw ApiException.badRequest("tag name must not be empty");
            }
            if (tag.length() > MAX_TAG_LENGTH) {
                throw ApiException.badRequest("tag name must be at most " + MAX_TAG_LENGTH + " characters");
            }
            if (!TAG.matcher(tag).matches()) {
                throw ApiException.badRequest("tag name '" + tag + "' is invalid: only alphanumeric characters, "
                        + "hyphens, underscores, and single spaces between words are allowed");
            }
        }
        return names;
    }

    static List<String> checkAliases(List<String> aliases) {
        List<String> names = present("aliases", aliases);
        for (String alias : names) {
            if (alias.isEmpty()) {
                throw ApiException.badRequest("alias name must not be empty");
            }
            if (alias.isBlank()) {
                throw ApiException.badRequest("alias name must not be whitespace-only");
            }
            if (alias.length() > MAX_ALIAS_LENGTH) {
                throw ApiException.badRequest("alias name must be at most " + MAX_ALIAS_LENGTH + " characters");
            }
            for (char refused : new char[] {'/', ':'}) {
                if (alias.indexOf(refused) >= 0) {
                    throw ApiException.badRequest("alias name cannot contain character '" + refused + "'");
                }
            }
            if (VERSION_LIKE.matcher(alias).matches()) {
                throw ApiException.badRequest("alias name '" + alias + "' is reserved (matches version pattern v<number>)");
            }
            if (alias.equals("latest")) {
                throw ApiException.badRequest("alias name '" + alias + "' is reserved");
            }
        }
        return names;
    }

    /** Whether a read's digest may name an alias: not {@code latest}, not {@code v<N>}, not a content digest. */
    static boolean mayBeAlias(String digest) {
        return !digest.equals("latest") && !(digest.startsWith("v") && digest.substring(1).matches("[+-]?\\d+"))
                && !CONTENT_HASH.matcher(digest).matches();
    }

    /** The distinct names of a list the body must hold, without nulls. */
    static List<String> present(String field, List<String> names) {
        if (names == null) {
            throw ApiException.missingField(field);
        }
        if (names.contains(null)) {
            throw ApiException.invalidField("string_type", List.of("body", field), "Input should be a valid string", null);
        }
        return names.stream().distinct().toList();
    }

    private LabelNames() {
    }
}
