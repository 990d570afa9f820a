package io.jobinfo.store.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fenced code blocks of the project's Markdown files. */
final class Markdown {

    /** One fenced block: where it is, its info string's language, and its text (fences excluded). */
    record Block(Path file, int line, String language, String text) {
        @Override
        public String toString() {
            return Docs.ROOT.relativize(file) + ":" + line + " (```" + language + ")";
        }
    }

    private Markdown() {
    }

    /** Every fenced block of {@code file}, in order. An unclosed fence is an error. */
    static List<Block> blocks(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("```")) {
                continue;
            }
            String language = line.substring(3).trim();
            int start = i + 1;
            StringBuilder text = new StringBuilder();
            int j = start;
            while (j < lines.size() && !lines.get(j).startsWith("```")) {
                text.append(lines.get(j)).append('\n');
                j++;
            }
            if (j == lines.size()) {
                throw new AssertionError(file + ":" + (i + 1) + ": the fence opened here is never closed");
            }
            blocks.add(new Block(file, i + 1, language, text.toString()));
            i = j;
        }
        return blocks;
    }

    /** The Markdown files whose examples are checked: README.md and every page under docs/. */
    static List<Path> files() {
        List<Path> files = new ArrayList<>();
        files.add(Docs.ROOT.resolve("README.md"));
        Path docs = Docs.ROOT.resolve("docs");
        try (Stream<Path> walk = Files.walk(docs)) {
            walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !p.startsWith(docs.resolve("src")) && !p.startsWith(docs.resolve("target")))
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** Every fenced block of every checked file. */
    static List<Block> allBlocks() {
        List<Block> all = new ArrayList<>();
        for (Path f : files()) {
            all.addAll(blocks(f));
        }
        return all;
    }

    static List<Block> allBlocks(String language) {
        return allBlocks().stream().filter(b -> b.language().equals(language)).toList();
    }
}
