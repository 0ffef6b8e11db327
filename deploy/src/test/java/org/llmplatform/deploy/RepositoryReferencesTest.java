package org.llmplatform.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The behaviour the code relies on is described in the repository's {@code docs/} pages, so a maintainer who
 * clones the repository can follow every reference: no source, README, build or script file points at the
 * specification files that once lived outside it, and every {@code docs/page.md#anchor} reference (and every
 * relative Markdown link) names a file and a heading that exist.
 */
class RepositoryReferencesTest {

    private static final Path REPOSITORY = Manifests.REPOSITORY;
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "node_modules", "target", ".local-data", "data");
    private static final String SELF = "deploy/src/test/java/org/llmplatform/deploy/RepositoryReferencesTest.java";

    /** Ways the code used to point outside the repository; the section sign only ever meant a spec section. */
    private static final Pattern OUTSIDE = Pattern.compile(
            "§|shared/spec|shared/design|ARCHITECTURE\\.md|STYLE\\.md|\\bspec sections?\\b|\\bsections? [0-9.]+ of the spec|see the spec"
            + "|\\(sections? [0-9]|architecture page");

    /**
     * Applied Flyway migrations keep their comments: Flyway checksums the whole file, so editing one stops existing
     * installations from starting. docs/tracing-service.md#section-numbers-in-migration-comments translates them.
     */
    private static final Set<String> APPLIED_MIGRATIONS = Set.of("V1__schema.sql", "V2__call_queries.sql", "V3__feedback.sql",
            "V4__costs.sql", "V5__objects_tables.sql", "V7__files.sql", "V9__contains_token.sql", "V11__expanded_refs.sql")
            .stream().map(name -> "tracing-service/src/main/resources/db/migration/" + name).collect(Collectors.toSet());

    /** {@code docs/page.md} or {@code docs/page.md#anchor} as code and comments write it, from the repository root. */
    private static final Pattern DOCS_REFERENCE = Pattern.compile("(?<![\\w./-])(?:\\.\\./)*docs/([\\w.-]+\\.md)(?:#([\\w-]+))?");

    /** A relative Markdown link: {@code [text](path.md#anchor)}, {@code [text](#anchor)}, {@code [text](dir/)}. */
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\((?!https?:|mailto:|<)([^)#\\s]*)(?:#([^)\\s]+))?\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$", Pattern.MULTILINE);

    @Test
    void nothingPointsAtSpecificationFilesOutsideTheRepository() {
        List<String> found = new ArrayList<>();
        for (Path file : textFiles()) {
            String name = relative(file);
            if (name.equals(SELF) || APPLIED_MIGRATIONS.contains(name)) {
                continue;
            }
            String[] lines = read(file).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (OUTSIDE.matcher(lines[i]).find()) {
                    found.add(name + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertEquals(List.of(), found, "describe the rule in docs/ and point there instead");
    }

    @Test
    void everyDocsReferenceNamesAPageAndAHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        int references = 0;
        for (Path file : textFiles()) {
            if (relative(file).equals(SELF)) {
                continue;
            }
            Matcher reference = DOCS_REFERENCE.matcher(read(file));
            while (reference.find()) {
                references++;
                check(REPOSITORY.resolve("docs").resolve(reference.group(1)), reference.group(2), relative(file), broken);
            }
        }
        assertTrue(references > 50, "the code points into docs/ (" + references + " references found)");
        assertEquals(List.of(), broken);
    }

    @Test
    void everyRelativeMarkdownLinkNamesAFileAndAHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        for (Path file : textFiles()) {
            if (!file.toString().endsWith(".md")) {
                continue;
            }
            Matcher link = MARKDOWN_LINK.matcher(read(file));
            while (link.find()) {
                Path target = link.group(1).isEmpty() ? file : file.getParent().resolve(link.group(1)).normalize();
                check(target, link.group(2), relative(file), broken);
            }
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void everyServiceHasADocsPageAndTheReadmeLinksEveryPage() {
        String readme = read(REPOSITORY.resolve("README.md"));
        for (String page : docsPages()) {
            assertTrue(readme.contains("(docs/" + page + ")"), "README.md links docs/" + page);
        }
        for (String module : List.of("tracing-service", "inference-gateway", "training-service", "automation-service", "console",
                "llama-engine", "local-stack")) {
            assertTrue(docsPages().contains(module + ".md"), "docs/" + module + ".md exists");
        }
    }

    @Test
    void anchorsFollowGitHubsHeadingIds() {
        assertEquals(Set.of("call-storage-and-merge-rules", "the-typescript-sdk", "api-v1-and-x_y", "limits", "limits-1"),
                anchors("## Call storage and merge rules\n### The TypeScript SDK\n## API: /v1 and `x_y`\n## Limits\n## Limits\n"
                        + "```\n# not a heading\n```\n"));
    }

    private static void check(Path target, String anchor, String from, List<String> broken) {
        if (!Files.exists(target)) {
            broken.add(from + " → " + REPOSITORY.relativize(target) + " (no such file)");
        } else if (anchor != null && Files.isRegularFile(target) && target.toString().endsWith(".md")
                && !anchors(read(target)).contains(anchor)) {
            broken.add(from + " → " + REPOSITORY.relativize(target) + "#" + anchor + " (no such heading)");
        }
    }

    /** GitHub's heading ids: lower case, punctuation other than {@code -} and {@code _} dropped, spaces as {@code -}. */
    static Set<String> anchors(String markdown) {
        Matcher heading = HEADING.matcher(stripFencedCode(markdown));
        Set<String> ids = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        while (heading.find()) {
            String id = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int count = seen.merge(id, 1, Integer::sum);
            ids.add(count == 1 ? id : id + "-" + (count - 1));
        }
        return ids;
    }

    private static String stripFencedCode(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }

    private static Set<String> docsPages() {
        try (Stream<Path> pages = Files.list(REPOSITORY.resolve("docs"))) {
            return pages.map(page -> page.getFileName().toString()).filter(name -> name.endsWith(".md")).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every text file of the repository, without build outputs, installed packages, local data and Git's own files. */
    private static List<Path> textFiles() {
        List<Path> files = new ArrayList<>();
        try {
            Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
                    return SKIPPED_DIRECTORIES.contains(directory.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile() && attributes.size() < 2_000_000 && isText(file)) {
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static boolean isText(Path file) {
        for (byte b : bytes(file)) {
            if (b == 0) {
                return false;
            }
        }
        return true;
    }

    private static String read(Path file) {
        return new String(bytes(file), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String relative(Path file) {
        return REPOSITORY.relativize(file).toString().replace('\\', '/');
    }
}
