import Foundation
import CSQLite

// The C side of ``PowerLossVFS``: the `sqlite3_vfs` whose `xOpen` wraps each file of the VFS below, and the
// `sqlite3_io_methods` of the wrapped files, which hand reads, writes, truncations, syncs and sizes to the device
// (PowerLossDevice.swift) and pass everything else through.
//
// Each wrapped file is a header followed by the VFS below's own file: offset 0 the methods (as `sqlite3_file`
// requires), offset 8 the retained ``PowerLossFile`` (released by `xClose`), offset 16 the inner file.

private let fileHeaderSize = 16

/// Device characteristics the volatile layer does not honour: atomic writes of any size, safe append, sequential
/// writes, batch-atomic writes.
private let unhonouredCharacteristics: Int32 = SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 | SQLITE_IOCAP_ATOMIC1K
    | SQLITE_IOCAP_ATOMIC2K | SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K | SQLITE_IOCAP_ATOMIC16K
    | SQLITE_IOCAP_ATOMIC32K | SQLITE_IOCAP_ATOMIC64K | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL
    | SQLITE_IOCAP_BATCH_ATOMIC

/// The files whose writes go through the volatile layer.
private let durableFileTypes: Int32 = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL
    | SQLITE_OPEN_SUPER_JOURNAL

private func device(of vfs: UnsafeMutablePointer<sqlite3_vfs>?) -> PowerLossDevice {
    Unmanaged<PowerLossDevice>.fromOpaque(vfs!.pointee.pAppData).takeUnretainedValue()
}

private func handle(of file: UnsafeMutablePointer<sqlite3_file>?) -> PowerLossFile {
    let raw = UnsafeMutableRawPointer(file!).load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
    return Unmanaged<PowerLossFile>.fromOpaque(raw).takeUnretainedValue()
}

private func inner(of file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
    (UnsafeMutableRawPointer(file!) + fileHeaderSize).assumingMemoryBound(to: sqlite3_file.self)
}

/// A copy of `real` whose `xOpen` wraps each file, whose `xAccess` sees unsynced writes and whose `xDelete` drops
/// them; every other function forwards to `real`.
func powerLossVFS(over real: UnsafeMutablePointer<sqlite3_vfs>, name: UnsafeMutablePointer<CChar>,
                  context: UnsafeMutableRawPointer) -> sqlite3_vfs {
    var shim = real.pointee
    shim.pNext = nil
    shim.zName = UnsafePointer(name)
    shim.pAppData = context
    shim.szOsFile = Int32(fileHeaderSize) + real.pointee.szOsFile
    shim.xOpen = { vfs, name, file, flags, outFlags in
        let device = device(of: vfs)
        let raw = UnsafeMutableRawPointer(file!)
        raw.storeBytes(of: nil, toByteOffset: 0, as: UnsafeRawPointer?.self)
        guard device.isPowered else { return SQLITE_CANTOPEN }
        let path = name.map { String(cString: $0) }
        let durable = path != nil && flags & durableFileTypes != 0
        let existed = path.map { access($0, F_OK) == 0 } ?? true
        let innerFile = inner(of: file)
        let rc = device.base.pointee.xOpen(device.base, name, innerFile, flags, outFlags)
        guard let methods = innerFile.pointee.pMethods else { return rc }
        let version = max(1, min(2, Int(methods.pointee.iVersion)))
        let wrapped = PowerLossFile(device: device, path: path, durable: durable, inner: innerFile)
        raw.storeBytes(of: UnsafeRawPointer(powerLossIOMethods[version - 1]), toByteOffset: 0, as: UnsafeRawPointer?.self)
        raw.storeBytes(of: Unmanaged.passRetained(wrapped).toOpaque(), toByteOffset: 8, as: UnsafeMutableRawPointer.self)
        device.opened(wrapped, created: rc == SQLITE_OK && !existed)
        return rc
    }
    shim.xDelete = { vfs, name, syncDirectory in
        let device = device(of: vfs)
        guard device.isPowered else { return ResultCode.ioerrDelete }
        let rc = device.base.pointee.xDelete(device.base, name, syncDirectory)
        if let name { device.deleted(String(cString: name)) }
        return rc
    }
    shim.xAccess = { vfs, name, flags, result in
        let device = device(of: vfs)
        if flags == SQLITE_ACCESS_EXISTS, let name, let result, let exists = device.existsAsSeen(String(cString: name)) {
            result.pointee = exists ? 1 : 0
            return SQLITE_OK
        }
        return device.base.pointee.xAccess(device.base, name, flags, result)
    }
    shim.xFullPathname = { vfs, name, count, output in
        let real = device(of: vfs).base
        return real.pointee.xFullPathname(real, name, count, output)
    }
    shim.xDlOpen = { vfs, name in
        let real = device(of: vfs).base
        return real.pointee.xDlOpen(real, name)
    }
    shim.xDlError = { vfs, count, message in
        let real = device(of: vfs).base
        real.pointee.xDlError(real, count, message)
    }
    shim.xDlSym = { vfs, library, symbol in
        let real = device(of: vfs).base
        return real.pointee.xDlSym(real, library, symbol)
    }
    shim.xDlClose = { vfs, library in
        let real = device(of: vfs).base
        real.pointee.xDlClose(real, library)
    }
    shim.xRandomness = { vfs, count, output in
        let real = device(of: vfs).base
        return real.pointee.xRandomness(real, count, output)
    }
    shim.xSleep = { vfs, microseconds in
        let real = device(of: vfs).base
        return real.pointee.xSleep(real, microseconds)
    }
    shim.xCurrentTime = { vfs, time in
        let real = device(of: vfs).base
        return real.pointee.xCurrentTime(real, time)
    }
    shim.xGetLastError = { vfs, count, message in
        let real = device(of: vfs).base
        return real.pointee.xGetLastError(real, count, message)
    }
    if shim.iVersion >= 2, real.pointee.xCurrentTimeInt64 != nil {
        shim.xCurrentTimeInt64 = { vfs, time in
            let real = device(of: vfs).base
            return real.pointee.xCurrentTimeInt64(real, time)
        }
    }
    if shim.iVersion >= 3 {
        // The system-call overrides are the VFS below's (SQLite's own tests use them); none are exposed here.
        shim.xSetSystemCall = nil
        shim.xGetSystemCall = nil
        shim.xNextSystemCall = nil
    }
    return shim
}

/// The method tables for wrapped files whose inner methods are of version 1 and 2 (no `xFetch`: memory-mapped
/// reads would bypass the volatile layer). Written once, only read after that.
private struct IOMethodTables: @unchecked Sendable {
    let tables: [UnsafeMutablePointer<sqlite3_io_methods>]
    subscript(index: Int) -> UnsafeMutablePointer<sqlite3_io_methods> { tables[index] }
}

private let powerLossIOMethods = IOMethodTables(tables: (1...2).map { version in
    var m = sqlite3_io_methods()
    m.iVersion = Int32(version)
    m.xClose = { file in
        let raw = UnsafeMutableRawPointer(file!)
        let opaque = raw.load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
        let wrapped = Unmanaged<PowerLossFile>.fromOpaque(opaque).takeRetainedValue()
        let rc = wrapped.methods.xClose(wrapped.inner)
        wrapped.device.closed(wrapped)
        return rc
    }
    m.xRead = { file, buffer, amount, offset in
        let wrapped = handle(of: file)
        return wrapped.device.read(wrapped, buffer!, amount, offset)
    }
    m.xWrite = { file, buffer, amount, offset in
        let wrapped = handle(of: file)
        return wrapped.device.write(wrapped, buffer!, amount, offset)
    }
    m.xTruncate = { file, size in
        let wrapped = handle(of: file)
        return wrapped.device.truncate(wrapped, size)
    }
    m.xSync = { file, flags in
        let wrapped = handle(of: file)
        return wrapped.device.sync(wrapped, flags)
    }
    m.xFileSize = { file, size in
        let wrapped = handle(of: file)
        return wrapped.device.fileSize(wrapped, size!)
    }
    m.xLock = { file, level in
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xLock(f, level)
    }
    m.xUnlock = { file, level in
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xUnlock(f, level)
    }
    m.xCheckReservedLock = { file, result in
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xCheckReservedLock(f, result)
    }
    m.xFileControl = { file, operation, argument in
        if operation == SQLITE_FCNTL_SIZE_HINT || operation == SQLITE_FCNTL_CHUNK_SIZE, handle(of: file).durable {
            return SQLITE_OK  // would grow the real file behind the volatile layer
        }
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xFileControl(f, operation, argument)
    }
    m.xSectorSize = { file in
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xSectorSize(f)
    }
    m.xDeviceCharacteristics = { file in
        let f = inner(of: file)
        return f.pointee.pMethods.pointee.xDeviceCharacteristics(f) & ~unhonouredCharacteristics
    }
    if version >= 2 {
        m.xShmMap = { file, region, size, extend, pointer in
            let f = inner(of: file)
            return f.pointee.pMethods.pointee.xShmMap(f, region, size, extend, pointer)
        }
        m.xShmLock = { file, offset, count, flags in
            let f = inner(of: file)
            return f.pointee.pMethods.pointee.xShmLock(f, offset, count, flags)
        }
        m.xShmBarrier = { file in
            let f = inner(of: file)
            f.pointee.pMethods.pointee.xShmBarrier(f)
        }
        m.xShmUnmap = { file, delete in
            let f = inner(of: file)
            return f.pointee.pMethods.pointee.xShmUnmap(f, delete)
        }
    }
    let table = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    table.initialize(to: m)
    return table
})
