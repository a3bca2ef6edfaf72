import CSndFile
import Foundation

extension WAVReader {
    /// Decodes a whole audio file held in memory, as `read(path:)` decodes one on disk (the same
    /// formats, downmix and errors); `name` stands for the path in errors and `PreparedUtterance`.
    /// The built-in simulator reads the greeting and reply compiled into the binary this way.
    ///
    /// - Throws: `AudioFileError.unreadable` (with libsndfile's message) when the bytes are not
    ///   a decodable audio file, `.emptyAudio` when they hold no frames.
    package static func read(bytes: [UInt8], name: String) throws(AudioFileError) -> AudioClip {
        var source = MemoryAudioSource(bytes: bytes)
        var io = MemoryAudioSource.virtualIO
        var info = SF_INFO()
        return try withUnsafeMutablePointer(to: &source) { (pointer) throws(AudioFileError) -> AudioClip in
            guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, pointer) else {
                throw .unreadable(path: name, reason: String(cString: sf_strerror(nil)))
            }
            defer { sf_close(handle) }
            return try decode(handle, info: info, path: name)
        }
    }
}

/// A read-only file in memory for libsndfile's virtual I/O (`sf_open_virtual`): the bytes and
/// the read position, which libsndfile moves with `seek` and `read`.
private struct MemoryAudioSource {
    let bytes: [UInt8]
    var position: Int = 0

    /// Moves the position as `fseek` does (`whence` SEEK_SET, SEEK_CUR or SEEK_END), kept within
    /// 0...count; returns the new position, or -1 for an unknown `whence`.
    mutating func seek(offset: Int, whence: Int32) -> Int {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: return -1
        }
        position = min(max(base + offset, 0), bytes.count)
        return position
    }

    /// Copies up to `count` bytes from the position into `destination` and moves past them;
    /// returns how many were copied (0 at the end).
    mutating func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let copied = min(max(count, 0), bytes.count - position)
        guard copied > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            destination.copyMemory(from: source.baseAddress! + position, byteCount: copied)
        }
        position += copied
        return copied
    }

    /// The callbacks, each given a pointer to a `MemoryAudioSource` as its `user_data`. There is
    /// no `write`: the file is opened for reading only (libsndfile needs none then).
    static var virtualIO: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in sf_count_t(memoryAudioSource(user).pointee.bytes.count) },
            seek: { offset, whence, user in sf_count_t(memoryAudioSource(user).pointee.seek(offset: Int(offset), whence: whence)) },
            read: { destination, count, user in
                guard let destination else { return 0 }
                return sf_count_t(memoryAudioSource(user).pointee.read(into: destination, count: Int(count)))
            },
            write: nil,
            tell: { user in sf_count_t(memoryAudioSource(user).pointee.position) }
        )
    }
}

/// The `MemoryAudioSource` a callback's `user_data` points to (a free function: a C callback
/// cannot capture, not even the type's `self`).
private func memoryAudioSource(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<MemoryAudioSource> {
    user!.assumingMemoryBound(to: MemoryAudioSource.self)
}
