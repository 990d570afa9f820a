package io.jobinfo.store.benchmarks;

import io.jobinfo.store.demo.embedded.Directories;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The floor under a durable local submit: the bare system calls a write-once blob needs, with nothing of this
 * library around them. Write a temporary file, fsync it, link(2) it to its final name, fsync the directory. (The
 * temporary name is unlinked after the clock stops, so the anchor is, if anything, cheaper than the store's work.)
 */
final class DurableWriteAnchor implements BareDurableWrite {

    private final Path dir;
    private int seq;

    DurableWriteAnchor(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    @Override
    public long write(byte[] bytes) throws IOException {
        int n = seq++;
        Path temp = dir.resolve(".tmp-" + n);
        Path target = dir.resolve(n + ".blob");
        long start = System.nanoTime();
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer bb = ByteBuffer.wrap(bytes);
            while (bb.hasRemaining()) {
                ch.write(bb);
            }
            ch.force(true);
        }
        Files.createLink(target, temp);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
        long took = System.nanoTime() - start;
        Files.delete(temp);
        return took;
    }

    @Override
    public String describe() {
        return "bare write + fsync + link + dir fsync";
    }

    @Override
    public void close() {
        Directories.deleteRecursively(dir);
    }
}
