import Foundation
import CSQLite

// The ledger's WAL is allocated ahead of the log and reused in place, as PostgreSQL zero-fills its WAL segments.
//
// A commit at `synchronous = FULL` syncs the WAL. When the commit's frames land past the end of the file, the sync
// must also make the file's new size and its newly allocated blocks durable (on ext4 a journal commit, on APFS a
// metadata flush): measured on this project's CI disk, an appending five-frame sync costs about twice an in-place
// one. Plain SQLite reuses its WAL in place only after its first checkpoint, and Tender's checkpoints are rare (see
// ``SQLitePaymentLedger/checkpointPages``), so without this most payments' syncs would append.
//
// So, inside a write transaction (SQLite's WAL write lock held: no other connection can be writing frames), when
// the log's end comes near the end of the file, the file is extended with zeros, through SQLite's own file object
// (`SQLITE_FCNTL_JOURNAL_POINTER`, so a test VFS sees the writes), 256 KiB at a time, up to the most the
// log holds between checkpoints. The zeros are not synced on their own: the transaction's commit syncs them with
// its frames. Zeros past the log are what SQLite itself leaves past a restarted log — bytes it never reads as frames
// (a frame counts only with the header's salts and a matching checksum). `journal_size_limit` is that same size, so
// a restarted log keeps the space and the next generation of frames overwrites the last one in place.
//
// The log's end comes from SQLite's WAL hook, called after every commit with the number of frames in the log; the
// hook also runs the automatic checkpoint (SQLite's own `wal_autocheckpoint` is that hook, which this one replaces).
// At opening, the frames already in the log are counted from the file (``LedgerFile/walFrames(_:)``).

/// The frames in one connection's WAL and how far its file is allocated ahead of them.
final class WALSpace {
    /// SQLite's WAL header size.
    static let headerBytes: Int64 = 32
    /// The log's frame count at which a commit checkpoints it (SQLite's default hook does the same).
    let checkpointPages: Int
    /// Bytes of one frame: a 24-byte header and a page.
    let frameBytes: Int64
    /// The most the file is extended to: a log of ``checkpointPages`` frames and some room for the transaction that
    /// crosses it. Also the connection's `journal_size_limit`.
    let capacity: Int64
    /// The frames in the log after the last commit, if known (counted from the file at opening, then the hook's).
    var frames: Int?
    /// How many times the file was extended, and by how many bytes in all (tests and the benchmark read them).
    private(set) var extensions = 0
    private(set) var bytesAdded: Int64 = 0

    init(checkpointPages: Int, pageSize: Int, frames: Int?) {
        self.checkpointPages = checkpointPages
        frameBytes = 24 + Int64(pageSize)
        capacity = Self.headerBytes + Int64(checkpointPages + 256) * frameBytes
        self.frames = frames
    }

    /// The byte offset just past the log's last frame, if known.
    var logEnd: Int64? { frames.map { Self.headerBytes + Int64($0) * frameBytes } }

    /// How far to extend a file of `size` bytes before the next commit, or `nil` to leave it: when fewer than 32
    /// frames (about two payments) are left past the log, by 256 KiB (about four payments). Small steps: a large
    /// transaction (a batch of forwarding results) appends past them as it always did, and pays for few zeros.
    func target(fileSize size: Int64) -> Int64? {
        guard let end = logEnd, size < capacity, end + 32 * frameBytes > size else { return nil }
        let target = min(capacity, max(size, end) + 256 * 1_024)
        return target > size ? target : nil
    }

    func extended(by bytes: Int64) {
        extensions += 1
        bytesAdded += bytes
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

    /// Extends the WAL file with zeros when the log's end is near the file's end (see the top of this file). Inside a
    /// write transaction only, before it writes. Nothing is synced here.
    func allocateWALAhead() throws {
        guard let space = walSpace, space.frames != nil else { return }
        let db = try connection()
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods else { return }
        var size: sqlite3_int64 = 0
        guard methods.pointee.xFileSize(file, &size) == SQLITE_OK, let target = space.target(fileSize: size) else {
            return
        }
        let chunk = 64 * 1_024
        let zeros = [UInt8](repeating: 0, count: chunk)
        var offset = size
        try zeros.withUnsafeBytes { buffer in
            while offset < target {
                let count = Int32(min(Int64(chunk), target - offset))
                let rc = methods.pointee.xWrite(file, buffer.baseAddress, count, offset)
                guard rc == SQLITE_OK else {
                    throw SQLiteError(extendedCode: rc, message: "the WAL could not be extended")
                }
                offset += Int64(count)
            }
        }
        space.extended(by: target - size)
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
