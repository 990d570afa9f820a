package io.jobinfo.store.seatunnel.harness.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's guide {@code docs/seatunnel.md} as the adoption test runs it: its fenced blocks by the marker
 * comment right above each ({@code <!-- guide: NAME -->}). A marker without a block, or a block asked for that is not
 * there, fails the test: the guide and the test cannot drift apart.
 */
public final class Guide {

    /** One marked block: its marker, the info string's language and the text between the fences. */
    public record Block(String name, String language, String text, int line) {}

    public static final Path ROOT = Path.of(System.getProperty("jobinfo.repo.root", "..")).toAbsolutePath().normalize();
    public static final Path FILE = ROOT.resolve("docs/seatunnel.md");

    private final Map<String, Block> blocks;

    private Guide(Map<String, Block> blocks) {
        this.blocks = blocks;
    }

    /** Reads {@link #FILE}. */
    public static Guide read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(FILE, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the guide " + FILE, e);
        }
        Map<String, Block> blocks = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (!line.startsWith("<!-- guide:")) {
                continue;
            }
            String name = line.substring("<!-- guide:".length(), line.length() - "-->".length()).trim();
            if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("```")) {
                throw new AssertionError(FILE + ":" + (i + 1) + ": marker " + name + " is not right above a fence");
            }
            String language = lines.get(i + 1).substring(3).trim();
            StringBuilder text = new StringBuilder();
            int j = i + 2;
            while (j < lines.size() && !lines.get(j).startsWith("```")) {
                text.append(lines.get(j)).append('\n');
                j++;
            }
            if (j == lines.size()) {
                throw new AssertionError(FILE + ":" + (i + 2) + ": the fence of " + name + " is never closed");
            }
            if (blocks.put(name, new Block(name, language, text.toString(), i + 2)) != null) {
                throw new AssertionError(FILE + ": two blocks are marked " + name);
            }
            i = j;
        }
        return new Guide(blocks);
    }

    /** The block marked {@code name}. */
    public Block block(String name) {
        Block b = blocks.get(name);
        if (b == null) {
            throw new AssertionError(FILE + " has no block marked <!-- guide: " + name + " --> (has " + blocks.keySet()
                    + ")");
        }
        return b;
    }

    public List<Block> all() {
        return new ArrayList<>(blocks.values());
    }

    /** The command lines of a bash block (continuations joined, comments and blank lines dropped). */
    public static List<String> commands(Block bash) {
        List<String> out = new ArrayList<>();
        for (String line : bash.text().replace("\\\n", " ").split("\n")) {
            String l = line.trim();
            if (!l.isEmpty() && !l.startsWith("#")) {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * The lines of a {@code seatunnel.yaml} block below {@code seatunnel.engine}, dedented to that level: what the
     * test's members get next to their own engine settings.
     */
    public static String engineSection(Block yaml) {
        String[] lines = yaml.text().split("\n");
        if (lines.length < 3 || !lines[0].equals("seatunnel:") || !lines[1].equals("  engine:")) {
            throw new AssertionError(FILE + ":" + yaml.line() + ": " + yaml.name()
                    + " must start with seatunnel: / engine:");
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 2; i < lines.length; i++) {
            sb.append(lines[i].startsWith("    ") ? lines[i].substring(4) : lines[i]).append('\n');
        }
        return sb.toString();
    }
}
