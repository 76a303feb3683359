import Foundation
import CSQLite

// MARK: - The wrapped file

/// The header in front of each wrapped file: offset 0 the shim's `pMethods` (as `sqlite3_file` requires), 8 the
/// counter (unretained: the VFS outlives its files), 16 the open flags, 20 whether operations are recorded, 24 the
/// file's path while recording (a retained `NSString`, released by `xClose`), then the default VFS's own file.
let shimFileHeaderSize = 32

func shimContext(_ vfs: UnsafeMutablePointer<sqlite3_vfs>?) -> SyncCountingVFS.Context {
    Unmanaged<SyncCountingVFS.Context>.fromOpaque(vfs!.pointee.pAppData).takeUnretainedValue()
}

func innerFile(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
    (UnsafeMutableRawPointer(file!) + shimFileHeaderSize).assumingMemoryBound(to: sqlite3_file.self)
}

private func counter(of file: UnsafeMutablePointer<sqlite3_file>?) -> SQLiteSyncCounter {
    let raw = UnsafeMutableRawPointer(file!).load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
    return Unmanaged<SQLiteSyncCounter>.fromOpaque(raw).takeUnretainedValue()
}

private func openFlags(of file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
    UnsafeMutableRawPointer(file!).load(fromByteOffset: 16, as: Int32.self)
}

/// The file's path when its operations are recorded, else `nil`.
private func recordedPath(of file: UnsafeMutablePointer<sqlite3_file>?) -> String? {
    let raw = UnsafeMutableRawPointer(file!)
    guard raw.load(fromByteOffset: 20, as: Int32.self) != 0,
          let path = raw.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self) else { return nil }
    return Unmanaged<NSString>.fromOpaque(path).takeUnretainedValue() as String
}

/// The shim's method tables for files whose default methods are of version 1, 2 and 3: written once, when first
/// used, and only read after that.
struct ShimIOMethodTables: @unchecked Sendable {
    let tables: [UnsafeMutablePointer<sqlite3_io_methods>]
    subscript(index: Int) -> UnsafeMutablePointer<sqlite3_io_methods> { tables[index] }
}

let shimIOMethods = ShimIOMethodTables(tables: (1...3).map { version in
    var m = sqlite3_io_methods()
    m.iVersion = Int32(version)
    m.xClose = { file in
        let raw = UnsafeMutableRawPointer(file!)
        if raw.load(fromByteOffset: 20, as: Int32.self) != 0,
           let path = raw.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self) {
            Unmanaged<NSString>.fromOpaque(path).release()
            raw.storeBytes(of: nil, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
        }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xClose(f)
    }
    m.xRead = { file, buffer, amount, offset in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xRead(f, buffer, amount, offset)
    }
    m.xWrite = { file, buffer, amount, offset in
        if openFlags(of: file) & SQLITE_OPEN_WAL != 0 { counter(of: file).recordWALWrite(bytes: Int(amount)) }
        if let path = recordedPath(of: file), let buffer {
            counter(of: file).record(.write(path: path, offset: offset, bytes: Data(bytes: buffer, count: Int(amount))))
        }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xWrite(f, buffer, amount, offset)
    }
    m.xTruncate = { file, size in
        if let path = recordedPath(of: file) { counter(of: file).record(.truncate(path: path, size: size)) }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xTruncate(f, size)
    }
    m.xSync = { file, flags in
        counter(of: file).recordSync(openFlags: openFlags(of: file), path: recordedPath(of: file))
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xSync(f, flags)
    }
    m.xFileSize = { file, size in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xFileSize(f, size)
    }
    m.xLock = { file, level in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xLock(f, level)
    }
    m.xUnlock = { file, level in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xUnlock(f, level)
    }
    m.xCheckReservedLock = { file, result in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xCheckReservedLock(f, result)
    }
    m.xFileControl = { file, operation, argument in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xFileControl(f, operation, argument)
    }
    m.xSectorSize = { file in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xSectorSize(f)
    }
    m.xDeviceCharacteristics = { file in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xDeviceCharacteristics(f)
    }
    if version >= 2 {
        m.xShmMap = { file, region, size, extend, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmMap(f, region, size, extend, pointer)
        }
        m.xShmLock = { file, offset, count, flags in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmLock(f, offset, count, flags)
        }
        m.xShmBarrier = { file in
            let f = innerFile(file)
            f.pointee.pMethods.pointee.xShmBarrier(f)
        }
        m.xShmUnmap = { file, delete in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmUnmap(f, delete)
        }
    }
    if version >= 3 {
        m.xFetch = { file, offset, amount, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xFetch(f, offset, amount, pointer)
        }
        m.xUnfetch = { file, offset, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xUnfetch(f, offset, pointer)
        }
    }
    let table = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    table.initialize(to: m)
    return table
})
