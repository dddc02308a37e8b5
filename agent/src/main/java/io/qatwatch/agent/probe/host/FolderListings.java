package io.qatwatch.agent.probe.host;

import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names in a root's on-disk folders that match a glob, remembered with the folder's identity and change time and listed
 * again only when those moved. The host probe looks for QAT's libraries in the system's library folders every run;
 * {@code /usr/lib/x86_64-linux-gnu} alone holds over a thousand entries, and listing them was three quarters of what a
 * run allocated (docs/benchmarks.md, "Session 10"). A folder's change time ({@code ctime}) moves whenever an entry is
 * added, removed or renamed in it, and cannot be set back by a program (unlike its {@code mtime}, which {@code tar}
 * restores); a listing taken within {@link #SETTLED} of the folder's change time is not remembered, so that a second
 * change within one tick of the file system's clock is never missed. Only for folders on disk: {@code /sys} and
 * {@code /proc} do not keep change times for what the kernel adds.
 */
public final class FolderListings {

    /** How long after a folder's change a listing of it may be remembered; coarser than any file system's clock tick. */
    static final long SETTLED = 3_000;

    private final LinuxRoot root;
    private final Map<String, Listing> known = new ConcurrentHashMap<>();

    /** One remembered listing: the glob it matched, the folder's state when listed, the names. */
    private record Listing(String glob, LinuxRoot.FolderStamp stamp, List<String> names) {
    }

    public FolderListings(LinuxRoot root) {
        this.root = root;
    }

    /** As {@link LinuxRoot#list(String, String)}: names matching {@code glob}, sorted; empty when the folder does not exist. */
    public List<String> list(String relative, String glob) throws IOException {
        LinuxRoot.FolderStamp before = root.folderStamp(relative);
        Listing listing = known.get(relative);
        if (before != null && listing != null && listing.stamp().equals(before) && listing.glob().equals(glob)) {
            return listing.names();
        }
        long started = System.currentTimeMillis();
        List<String> names = root.list(relative, glob);
        LinuxRoot.FolderStamp after = root.folderStamp(relative);
        if (before != null && before.equals(after) && before.changed().compareTo(FileTime.fromMillis(started - SETTLED)) < 0) {
            known.put(relative, new Listing(glob, before, names));
        } else {
            known.remove(relative);
        }
        return names;
    }
}
