package io.jobinfo.store.local;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import jnr.ffi.Pointer;
import jnr.ffi.types.mode_t;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * A FUSE passthrough file system (through the jnr-fuse binding of libfuse 2) over a backing directory that makes a
 * slow disk on demand: every {@code write} request waits {@link #delay} milliseconds first, every {@code fsync} and
 * {@code fsyncdir} its own delay, and in {@link #stall stall} mode an fsync blocks until {@link #release released},
 * like a disk (or an NFS server) that stops answering. Everything else is passed through to the backing directory
 * unchanged, so what the store wrote can be checked there byte for byte.
 *
 * <p>It implements what the local store calls (create, open, read, write, flush, release, fsync, link, rename,
 * unlink, mkdir, rmdir, readdir, getattr, statfs, truncate, utimens, access; the directory fsync after a link is
 * {@code opendir} + {@code fsyncdir}). Java I/O failures of the backing directory are answered with the matching errno
 * ({@code ENOENT}, {@code EEXIST}, {@code ENOTEMPTY}, ...; anything else {@code EIO}). Runs in the child JVM of
 * {@link SlowDisk} ({@link DelayingFuseMain}); never in the test JVM, so that a test that dies cannot leave a process
 * blocked on a file system whose server is gone with it.
 */
final class DelayingFuseFs extends FuseStubFS {

    private static final int O_ACCMODE = 3;
    private static final int O_WRONLY = 1;
    private static final int O_RDWR = 2;
    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_TRUNC = 01000;
    private static final int O_APPEND = 02000;

    private final Path backing;
    private final Consumer<String> events;
    private final Map<Long, FileChannel> open = new ConcurrentHashMap<>();
    private final AtomicLong nextHandle = new AtomicLong(1);
    private final Object stallLock = new Object();
    private volatile long writeDelayMillis;
    private volatile long fsyncDelayMillis;
    private boolean stalled; // guarded by stallLock
    final AtomicLong writes = new AtomicLong();
    final AtomicLong fsyncs = new AtomicLong();
    final AtomicLong delayedMillis = new AtomicLong();
    final AtomicLong stalledFsyncs = new AtomicLong();

    DelayingFuseFs(Path backing, Consumer<String> events) {
        this.backing = backing;
        this.events = events;
    }

    void delay(long writeMillis, long fsyncMillis) {
        this.writeDelayMillis = writeMillis;
        this.fsyncDelayMillis = fsyncMillis;
    }

    /** From now on every fsync (file or directory) blocks until {@link #release}. */
    void stall() {
        synchronized (stallLock) {
            stalled = true;
        }
    }

    /** Lets every blocked fsync go on, and later ones through. */
    void release() {
        synchronized (stallLock) {
            stalled = false;
            stallLock.notifyAll();
        }
    }

    /** Called by libfuse once the kernel has the mount: reports {@code mounted}. */
    @Override
    public Pointer init(Pointer conn) {
        events.accept("mounted");
        return null;
    }

    /** No delay, no stall (blocked fsyncs go on), every count zero. */
    void reset() {
        delay(0, 0);
        release();
        writes.set(0);
        fsyncs.set(0);
        delayedMillis.set(0);
        stalledFsyncs.set(0);
    }

    private Path real(String path) {
        return "/".equals(path) ? backing : backing.resolve(path.substring(1));
    }

    private void pause(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
            delayedMillis.addAndGet(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The fsync gate: blocks while stalled (telling the parent which file waits), then the configured delay. */
    private void beforeFsync(String path) {
        fsyncs.incrementAndGet();
        synchronized (stallLock) {
            if (stalled) {
                stalledFsyncs.incrementAndGet();
                events.accept("stalled fsync " + path);
                while (stalled) {
                    try {
                        stallLock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
        pause(fsyncDelayMillis);
    }

    /** The errno a failed Java file operation stands for, negated as FUSE wants it. */
    private static int errno(IOException e) {
        if (e instanceof NoSuchFileException) {
            return -ErrorCodes.ENOENT();
        }
        if (e instanceof FileAlreadyExistsException) {
            return -ErrorCodes.EEXIST();
        }
        if (e instanceof DirectoryNotEmptyException) {
            return -ErrorCodes.ENOTEMPTY();
        }
        if (e instanceof NotDirectoryException) {
            return -ErrorCodes.ENOTDIR();
        }
        if (e instanceof AccessDeniedException) {
            return -ErrorCodes.EACCES();
        }
        if (e instanceof FileSystemException) {
            String reason = String.valueOf(((FileSystemException) e).getReason());
            if (reason.contains("No space left")) {
                return -ErrorCodes.ENOSPC();
            }
            if (reason.contains("Read-only")) {
                return -ErrorCodes.EROFS();
            }
            if (reason.contains("Is a directory")) {
                return -ErrorCodes.EISDIR();
            }
            if (reason.contains("Operation not permitted")) {
                return -ErrorCodes.EPERM();
            }
        }
        return -ErrorCodes.EIO();
    }

    @Override
    public int getattr(String path, FileStat stat) {
        try {
            Map<String, Object> a = Files.readAttributes(real(path),
                    "unix:mode,ino,nlink,uid,gid,size,lastAccessTime,lastModifiedTime,ctime",
                    LinkOption.NOFOLLOW_LINKS);
            stat.st_mode.set((Integer) a.get("mode"));
            stat.st_ino.set((Long) a.get("ino"));
            stat.st_nlink.set((Integer) a.get("nlink"));
            stat.st_uid.set((Integer) a.get("uid"));
            stat.st_gid.set((Integer) a.get("gid"));
            long size = (Long) a.get("size");
            stat.st_size.set(size);
            stat.st_blksize.set(4096);
            stat.st_blocks.set((size + 511) / 512);
            time(stat.st_atim, (FileTime) a.get("lastAccessTime"));
            time(stat.st_mtim, (FileTime) a.get("lastModifiedTime"));
            time(stat.st_ctim, (FileTime) a.get("ctime"));
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    private static void time(Timespec t, FileTime time) {
        long nanos = time.to(TimeUnit.NANOSECONDS);
        t.tv_sec.set(Math.floorDiv(nanos, 1_000_000_000L));
        t.tv_nsec.set(Math.floorMod(nanos, 1_000_000_000L));
    }

    @Override
    public int access(String path, int mask) {
        return Files.exists(real(path), LinkOption.NOFOLLOW_LINKS) ? 0 : -ErrorCodes.ENOENT();
    }

    @Override
    public int mkdir(String path, @mode_t long mode) {
        return io(() -> Files.createDirectory(real(path)));
    }

    @Override
    public int rmdir(String path) {
        Path p = real(path);
        if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return Files.exists(p, LinkOption.NOFOLLOW_LINKS) ? -ErrorCodes.ENOTDIR() : -ErrorCodes.ENOENT();
        }
        return io(() -> Files.delete(p));
    }

    @Override
    public int unlink(String path) {
        Path p = real(path);
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            return -ErrorCodes.EISDIR();
        }
        return io(() -> Files.delete(p));
    }

    @Override
    public int rename(String oldpath, String newpath) {
        return io(() -> Files.move(real(oldpath), real(newpath), StandardCopyOption.ATOMIC_MOVE));
    }

    @Override
    public int link(String oldpath, String newpath) {
        return io(() -> Files.createLink(real(newpath), real(oldpath)));
    }

    @Override
    public int truncate(String path, @off_t long size) {
        try (RandomAccessFile f = new RandomAccessFile(real(path).toFile(), "rw")) {
            f.setLength(size);
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    @Override
    public int ftruncate(String path, @off_t long size, FuseFileInfo fi) {
        return truncate(path, size);
    }

    @Override
    public int chmod(String path, @mode_t long mode) {
        return 0; // permissions are not what these tests are about (and root ignores them)
    }

    @Override
    public int utimens(String path, Timespec[] timespec) {
        try {
            long sec = timespec[1].tv_sec.get();
            long nsec = timespec[1].tv_nsec.longValue();
            Files.setLastModifiedTime(real(path), FileTime.from(sec * 1_000_000_000L + nsec, TimeUnit.NANOSECONDS));
            return 0;
        } catch (IOException | RuntimeException e) {
            return 0; // UTIME_NOW/UTIME_OMIT and friends: the modification time is not what these tests are about
        }
    }

    @Override
    public int create(String path, @mode_t long mode, FuseFileInfo fi) {
        int flags = fi.flags.get() | O_CREAT;
        return openChannel(path, flags, fi);
    }

    @Override
    public int open(String path, FuseFileInfo fi) {
        return openChannel(path, fi.flags.get(), fi);
    }

    private int openChannel(String path, int flags, FuseFileInfo fi) {
        Set<StandardOpenOption> options = EnumSet.noneOf(StandardOpenOption.class);
        int access = flags & O_ACCMODE;
        if (access == O_WRONLY || access == O_RDWR) {
            options.add(StandardOpenOption.WRITE);
        }
        if (access != O_WRONLY) {
            options.add(StandardOpenOption.READ);
        }
        if ((flags & O_CREAT) != 0) {
            options.add((flags & O_EXCL) != 0 ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        }
        if ((flags & O_TRUNC) != 0 && options.contains(StandardOpenOption.WRITE)) {
            options.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        if ((flags & O_APPEND) != 0) {
            options.add(StandardOpenOption.APPEND);
            options.remove(StandardOpenOption.READ);
        }
        try {
            FileChannel ch = FileChannel.open(real(path), options);
            long handle = nextHandle.getAndIncrement();
            open.put(handle, ch);
            fi.fh.set(handle);
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    private FileChannel channel(FuseFileInfo fi) {
        return open.get(fi.fh.get());
    }

    @Override
    public int read(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        FileChannel ch = channel(fi);
        if (ch == null) {
            return -ErrorCodes.EBADF();
        }
        try {
            ByteBuffer bb = ByteBuffer.allocate((int) size);
            while (bb.hasRemaining()) {
                int n = ch.read(bb, offset + bb.position());
                if (n < 0) {
                    break;
                }
            }
            int n = bb.position();
            buf.put(0, bb.array(), 0, n);
            return n;
        } catch (IOException e) {
            return errno(e);
        }
    }

    @Override
    public int write(String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
        FileChannel ch = channel(fi);
        if (ch == null) {
            return -ErrorCodes.EBADF();
        }
        writes.incrementAndGet();
        pause(writeDelayMillis);
        byte[] bytes = new byte[(int) size];
        buf.get(0, bytes, 0, bytes.length);
        try {
            ByteBuffer bb = ByteBuffer.wrap(bytes);
            while (bb.hasRemaining()) {
                ch.write(bb, offset + bb.position());
            }
            return bytes.length;
        } catch (IOException e) {
            return errno(e);
        }
    }

    @Override
    public int flush(String path, FuseFileInfo fi) {
        return 0;
    }

    @Override
    public int release(String path, FuseFileInfo fi) {
        FileChannel ch = open.remove(fi.fh.get());
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                return errno(e);
            }
        }
        return 0;
    }

    @Override
    public int fsync(String path, int isdatasync, FuseFileInfo fi) {
        beforeFsync(path);
        FileChannel ch = channel(fi);
        if (ch == null) {
            return -ErrorCodes.EBADF();
        }
        return io(() -> ch.force(isdatasync == 0));
    }

    @Override
    public int opendir(String path, FuseFileInfo fi) {
        return Files.isDirectory(real(path)) ? 0 : -ErrorCodes.ENOTDIR();
    }

    @Override
    public int releasedir(String path, FuseFileInfo fi) {
        return 0;
    }

    @Override
    public int fsyncdir(String path, FuseFileInfo fi) {
        beforeFsync(path);
        try (FileChannel ch = FileChannel.open(real(path), StandardOpenOption.READ)) {
            ch.force(true);
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    @Override
    public int readdir(String path, Pointer buf, FuseFillDir filter, @off_t long offset, FuseFileInfo fi) {
        filter.apply(buf, ".", null, 0);
        filter.apply(buf, "..", null, 0);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(real(path))) {
            for (Path p : entries) {
                if (filter.apply(buf, p.getFileName().toString(), null, 0) != 0) {
                    break;
                }
            }
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    @Override
    public int statfs(String path, Statvfs stbuf) {
        try {
            FileStore store = Files.getFileStore(backing);
            long block = 4096;
            stbuf.f_bsize.set(block);
            stbuf.f_frsize.set(block);
            stbuf.f_blocks.set(store.getTotalSpace() / block);
            stbuf.f_bfree.set(store.getUnallocatedSpace() / block);
            stbuf.f_bavail.set(store.getUsableSpace() / block);
            stbuf.f_namemax.set(255);
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }

    /** A file system call that returns nothing: 0, or the errno of its failure. */
    private interface IoCall {
        void run() throws IOException;
    }

    private static int io(IoCall call) {
        try {
            call.run();
            return 0;
        } catch (IOException e) {
            return errno(e);
        }
    }
}
