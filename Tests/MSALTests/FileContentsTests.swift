import AtomicFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("A file read to its end: every byte, across buffers, and no further than a limit")
struct FileContentsTests {
    /// Opens a temporary file holding `bytes` for `body`.
    private func withFile<T>(_ bytes: Data, _ body: (Int32) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("contents-\(UUID().uuidString)")
        try bytes.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return try body(descriptor)
    }

    @Test(
        "every byte comes back, for sizes around the 64 KB buffer", arguments: [0, 1, 65_535, 65_536, 65_537, 200_000])
    func wholeFile(size: Int) throws {
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(try withFile(bytes) { try FileContents.readToEnd($0) } == bytes)
    }

    @Test("a file of exactly the limit is read; one byte more is too large")
    func limit() throws {
        let bytes = Data(repeating: 0x61, count: 70_000)
        #expect(try withFile(bytes) { try FileContents.readToEnd($0, limit: 70_000) } == bytes)
        #expect(throws: FileContentsFailure.self) {
            try withFile(bytes) { try FileContents.readToEnd($0, limit: 69_999) }
        }
    }

    @Test("a read that fails says why")
    func unreadable() throws {
        let folder = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
        try #require(folder >= 0)
        defer { close(folder) }
        #expect {
            _ = try FileContents.readToEnd(folder)
        } throws: { error in
            guard case .unreadable(let failure) = error as? FileContentsFailure else { return false }
            return failure.code == .EISDIR
        }
    }
}
