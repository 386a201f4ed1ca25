import ChildProcesses
import Foundation
import Testing

/// `scripts/check-portability` passes the portable core and fails, naming file and line, on Linux-only API
/// outside a platform guard.
@Suite("scripts/check-portability")
struct PortabilityCheckTests {
    static let script = TwoCommandsTests.repository.appendingPathComponent("scripts/check-portability")

    /// Code that is fine anywhere: the Linux-only names sit behind guards or in comments.
    static let good = """
        import Foundation
        #if canImport(Darwin)
            import Darwin
        #elseif canImport(Glibc)
            import Glibc
        #endif
        #if os(Linux)
            extension stat {
                var nanoseconds: Int64 { Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec) }
            }
        #endif
        #if os(Linux) || os(macOS)
            let opener = Process()
        #endif
        // xdg-open is named in a comment only.

        """

    /// Three mistakes: an unguarded import, a Glibc stat field, and `Process` under a guard that lets iOS in.
    static let bad = """
        import Glibc

        let seconds = info.st_mtim.tv_sec
        #if os(macOS) || os(iOS)
            let process = Process()
        #endif

        """

    static let goodC = """
        #if defined(__linux__)
        extern void hook(void) __attribute__((weak));
        #endif

        """

    @Test("a tree with guarded Linux-only names passes; the real core passes")
    func passes() throws {
        try Self.withFolder(["Good.swift": Self.good, "hooks.c": Self.goodC]) { folder in
            let (status, output) = try Self.run([folder.path])
            #expect(status == 0, "\(output)")
            #expect(output.contains("2 files, no unguarded Linux-only API"))
        }
        let (status, output) = try Self.run([])
        #expect(
            status == 0,
            "the default folders (Sources/MSAL, Sources/ChildProcesses, Sources/Locking, Sources/CThreadSanitizerHooks): \(output)"
        )
    }

    @Test("unguarded Linux-only names fail with exit 1, one file:line error each; good files are not named")
    func fails() throws {
        try Self.withFolder([
            "Good.swift": Self.good, "Bad.swift": Self.bad, "hooks.c": "void hook(void) __attribute__((weak));\n",
        ]) {
            folder in
            let (status, output) = try Self.run([folder.path])
            #expect(status == 1)
            let errors = output.split(separator: "\n").filter { $0.contains(": error: ") }
            #expect(errors.count == 4, "\(output)")
            #expect(output.contains("/Bad.swift:1: error: unguarded Linux-only `import Glibc`"))
            #expect(output.contains("/Bad.swift:3: error: unguarded Linux-only `st_mtim`"))
            #expect(output.contains("/Bad.swift:5: error: unguarded Linux-only `Process(`"))
            #expect(output.contains("/hooks.c:1: error: unguarded Linux-only `__attribute__((weak`"))
            #expect(!output.contains("Good.swift"))
            #expect(output.contains("check-portability: 4 unguarded Linux-only use(s) in 3 files"))
        }
    }

    /// Runs the script on `folders` (its default ones when empty) and returns its exit status and output.
    static func run(_ folders: [String]) throws -> (Int32, String) {
        let result = try ChildProcess.runToEnd(script.path, folders, error: .standardOutput)
        return (result.termination.shellStatus, result.text)
    }

    /// A temporary folder holding `files` (name: contents) for the duration of `body`.
    static func withFolder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("portability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, contents) in files {
            try contents.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try body(folder)
    }
}
