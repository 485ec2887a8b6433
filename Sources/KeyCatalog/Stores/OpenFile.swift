import Foundation

/// An open file descriptor, closed when released.
final class OpenFile: Sendable {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Everything from the current offset to the end.
    func readAll() throws -> Data {
        try Self.withReadBuffer(capacity: 64 * 1024) { buffer in
            var data = Data()
            while true {
                let count = Foundation.read(descriptor, buffer.baseAddress!, buffer.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure("read it")
                }
                if count == 0 { return data }
                data.append(buffer.baseAddress!, count: count)
            }
        }
    }

    /// Calls `body` with an uninitialized buffer of `capacity` bytes: zeroing 64 KB cost more than
    /// reading a small file (about 68,000 instructions, by callgrind).
    private static func withReadBuffer<Result>(capacity: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(capacity, 1))
        defer { buffer.deallocate() }
        return try body(buffer)
    }

    /// Flushes the file's data to the disk: `fdatasync`, or `fsync` where there is none (Darwin
    /// declares none). Returns what the call returns.
    func flushData() -> Int32 {
        #if canImport(Darwin)
        fsync(descriptor)
        #else
        fdatasync(descriptor)
        #endif
    }

    /// Up to `count` bytes from `offset` (all to the end, by default), without moving the offset.
    func read(from offset: Int, count: Int = .max) throws -> Data {
        try Self.withReadBuffer(capacity: min(count, 64 * 1024)) { buffer in
            var data = Data()
            while data.count < count {
                let wanted = min(buffer.count, count - data.count)
                let read = pread(descriptor, buffer.baseAddress!, wanted, off_t(offset + data.count))
                if read < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure("read it")
                }
                if read == 0 { break }
                data.append(buffer.baseAddress!, count: read)
            }
            return data
        }
    }

    /// Writes all of `bytes` at the current offset (the end, for a file opened to append).
    func write<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure("write it")
                }
                offset += written
            }
        }
    }
}

/// A failed system call, with `errno`'s message.
struct POSIXFailure: Error, CustomStringConvertible {
    let description: String

    init(_ operation: String, errno code: Int32 = errno) {
        description = "could not \(operation): \(String(cString: strerror(code)))"
    }
}
