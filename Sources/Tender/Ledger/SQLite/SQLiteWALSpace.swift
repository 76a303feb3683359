import Foundation
import CSQLite

// The ledger's WAL is reused in place, and its automatic checkpoint is the ledger's own WAL hook.
//
// A commit at `synchronous = FULL` syncs the WAL. When the commit's frames land past the end of the file, the sync
// must also make the file's new size and its newly allocated blocks durable (on ext4 a journal commit, on APFS a
// metadata flush): measured on this project's CI disk, an appending five-frame sync costs about twice an in-place
// one. After a checkpoint SQLite restarts the log at the start of the file and overwrites the last one in place; the
// ledger used to truncate the file back to 4 MiB then (`journal_size_limit`), so the rest of every log appended.
// `journal_size_limit` is now the most a log holds between checkpoints (``WALSpace/capacity``): once the file has
// held one such log, every commit overwrites. (Writing zeros ahead of the log, so that a new file's first log
// would not append either, was tried and withdrawn: the power-loss test found malformed files with it.)
//
// The hook is called after every commit with the number of frames in the log; it keeps that count and runs the
// automatic checkpoint as SQLite's default hook does (SQLite's `wal_autocheckpoint` is that hook, which this one
// replaces). At opening, the frames already in the log are counted from the file (``LedgerFile/walFrames(_:)``):
// the file's size no longer says how much log it holds.

/// The frames in one connection's WAL, and the most its file holds between checkpoints.
final class WALSpace {
    /// SQLite's WAL header size.
    static let headerBytes: Int64 = 32
    /// The log's frame count at which a commit checkpoints it (SQLite's default hook does the same).
    let checkpointPages: Int
    /// Bytes of one frame: a 24-byte header and a page.
    let frameBytes: Int64
    /// The most the file holds between checkpoints: a log of ``checkpointPages`` frames and some room for the
    /// transaction that crosses it. The connection's `journal_size_limit`: a restarted log keeps the file this long.
    let capacity: Int64
    /// The frames in the log after the last commit in this connection (the hook's count), `nil` before one.
    var frames: Int?

    init(checkpointPages: Int, pageSize: Int, frames: Int?) {
        self.checkpointPages = checkpointPages
        frameBytes = 24 + Int64(pageSize)
        capacity = Self.headerBytes + Int64(checkpointPages + 256) * frameBytes
        self.frames = frames
    }
}

extension SQLiteDatabase {
    /// Installs the WAL hook that keeps ``WALSpace/frames`` and checkpoints at ``WALSpace/checkpointPages``, and sets
    /// `journal_size_limit` to the space's capacity.
    func installWALSpace(_ space: WALSpace) throws {
        let db = try connection()
        walSpace = space
        sqlite3_wal_hook(db, { context, db, name, frames in
            guard let context else { return SQLITE_OK }
            let space = Unmanaged<WALSpace>.fromOpaque(context).takeUnretainedValue()
            space.frames = Int(frames)
            if Int(frames) >= space.checkpointPages {
                var log: Int32 = 0
                var copied: Int32 = 0
                // As SQLite's default hook: a passive checkpoint, its failure (a reader in the way) left for later.
                if sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK,
                   log == copied {
                    space.frames = 0  // the next commit restarts the log at its first frame
                }
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(space).toOpaque())
        try execute("PRAGMA journal_size_limit = \(space.capacity)")
    }
}

extension LedgerFile {
    /// The frames of the current log in the WAL at `path` (those carrying its header's salts: a restarted log
    /// overwrites from the first frame, and what follows it is an earlier log's or zeros), or `nil` when there is no
    /// WAL or no valid header. Reads the header and about log2(frames) frame headers (the documented WAL format).
    static func walFrames(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 32)
        guard pread(fd, &header, 32, 0) == 32 else { return nil }
        func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let magic = word(header, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        let pageSize = Int64(word(header, 8))
        guard pageSize >= 512, pageSize <= 65_536, let size = LedgerFile.size(path) else { return nil }
        let frameBytes = 24 + pageSize
        let salts = (word(header, 16), word(header, 20))
        func current(_ frame: Int64) -> Bool {
            var bytes = [UInt8](repeating: 0, count: 24)
            guard pread(fd, &bytes, 24, off_t(WALSpace.headerBytes + (frame - 1) * frameBytes)) == 24 else { return false }
            return (word(bytes, 8), word(bytes, 12)) == salts
        }
        var low: Int64 = 0
        var high = max(0, (size - WALSpace.headerBytes) / frameBytes)
        while low < high {
            let middle = (low + high + 1) / 2
            if current(middle) { low = middle } else { high = middle - 1 }
        }
        return Int(low)
    }
}
