package io.jobinfo.store.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the repository is, for tests that read its documentation and scripts. */
final class Docs {

    /** The repository root: set by the build ({@code jobinfo.repo.root}), else the parent of the working directory. */
    static final Path ROOT = root();

    private Docs() {
    }

    static String read(String relativePath) {
        try {
            return Files.readString(ROOT.resolve(relativePath), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path root() {
        String property = System.getProperty("jobinfo.repo.root");
        Path root = (property != null ? Path.of(property) : Path.of("").toAbsolutePath().getParent())
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("README.md")) || !Files.isDirectory(root.resolve("docs"))) {
            throw new IllegalStateException("not the repository root (no README.md and docs/): " + root);
        }
        return root;
    }
}
