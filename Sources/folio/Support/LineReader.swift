import FolioCore
import Foundation
import Glibc

/// The lines of a file or of standard input (`-`), read a block at a time so a file of any
/// size costs one block of memory, each with its number from 1.
struct LineReader {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the last line returned.
    private(set) var number = 0
    /// Bytes of the file returned so far, newlines included.
    private(set) var bytesRead = 0
    /// The file's size, when it is a regular file (not a pipe).
    let size: Int?

    init(_ path: String) throws(FolioError) {
        self.path = path
        if path == "-" {
            descriptor = dup(STDIN_FILENO)
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw .fileSystem(path: path, operation: "read", reason: String(cString: strerror(errno)))
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            size = Int(info.st_size)
        } else if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            Glibc.close(descriptor)
            throw .fileSystem(path: path, operation: "read", reason: "it is a folder")
        } else {
            size = nil
        }
    }

    /// The next line without its newline, or `nil` after the last. Text that is not UTF-8
    /// is refused with its line number and the byte offset of the first bytes that are no
    /// character (from the file's start, from 0), rather than read with replacement characters.
    mutating func next() throws(FolioError) -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                return try line(upTo: newline, consuming: newline + 1)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                return try line(upTo: buffer.count, consuming: buffer.count)
            }
            try fill()
        }
    }

    /// Closes the file.
    func close() { Glibc.close(descriptor) }

    private mutating func line(upTo end: Int, consuming next: Int) throws(FolioError) -> String {
        number += 1
        let lineStart = bytesRead
        bytesRead += next - start
        defer { start = next }
        guard let text = String(validating: buffer[start..<end], as: UTF8.self) else {
            let (offset, bytes) = Self.firstInvalidSequence(in: buffer[start..<end])
            let shown = bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            throw .invalidInput(
                "line \(number) of \(path) is not UTF-8 text: at byte offset \(lineStart + offset) (byte \(offset + 1) of the line), \(shown) is no UTF-8 character; save the file as UTF-8"
            )
        }
        return text
    }

    /// Where the first bytes that are not UTF-8 begin in text that is not all UTF-8 (from
    /// its start, from 0), and those bytes: Swift's decoder rejects what Unicode does
    /// (overlong forms, surrogates, code points past U+10FFFF, a cut sequence).
    private static func firstInvalidSequence(in bytes: ArraySlice<UInt8>) -> (offset: Int, bytes: ArraySlice<UInt8>) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
            case .error(let length):
                let first = bytes.startIndex + offset
                return (offset, bytes[first..<first + length])
            case .emptyInput:
                return (offset, [])
            }
        }
    }

    /// Reads the next block, keeping the part of a line already read.
    private mutating func fill() throws(FolioError) {
        buffer.removeFirst(start)
        start = 0
        let block = 1 << 20
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: block))
        var count = -1
        while count < 0 {
            count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, block) }
            if count < 0, errno != EINTR {
                buffer.removeLast(block)
                throw .fileSystem(path: path, operation: "read", reason: String(cString: strerror(errno)))
            }
        }
        buffer.removeLast(block - count)
        if count == 0 { atEnd = true }
    }
}
