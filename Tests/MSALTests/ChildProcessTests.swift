#if os(Linux)
    import ChildProcesses
    import Foundation
    import Glibc
    import Testing

    @Suite(
        "Programs started with posix_spawn: their streams, their end, and what they inherit", .timeLimit(.minutes(2)))
    struct ChildProcessTests {
        @Test("standard output and standard error are collected apart, or together, with the exit status")
        func outputs() throws {
            let script = "echo out; echo err >&2; exit 3"
            let apart = try ChildProcess.runToEnd("/bin/sh", ["-c", script], error: .pipe)
            #expect(apart.termination == .exited(3))
            #expect(apart.text == "out\n")
            #expect(apart.errorText == "err\n")
            let together = try ChildProcess.runToEnd("/bin/sh", ["-c", script], error: .standardOutput)
            #expect(together.text == "out\nerr\n")
            #expect(together.standardError.isEmpty)
            #expect(together.termination.shellStatus == 3)
            #expect(together.termination.description == "exited with status 3")
        }

        @Test("input larger than a pipe's buffer goes through while the output is read")
        func largeInput() async throws {
            let input = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let result = try await ChildProcess.run("/bin/cat", input: input)
            #expect(result.termination.succeeded)
            #expect(result.standardOutput == input)
        }

        @Test("a program that ends without reading its input does not end this process with SIGPIPE")
        func unreadInput() throws {
            let result = try ChildProcess.runToEnd("/bin/true", input: Data(count: 1_000_000))
            #expect(result.termination == .exited(0))
        }

        @Test("a program that cannot be started is named with the reason")
        func missingProgram() {
            let error = #expect(throws: ChildProcessError.self) {
                try ChildProcess("/nonexistent/program", ["an argument"])
            }
            #expect(error?.description == "/nonexistent/program could not be started: No such file or directory")
        }

        @Test("the environment given is the whole environment; none given passes this process's")
        func environment() throws {
            let given = try ChildProcess.runToEnd("/usr/bin/env", environment: ["ONLY": "this"])
            #expect(given.text == "ONLY=this\n")
            let inherited = try ChildProcess.runToEnd("/usr/bin/env")
            let path = try #require(ProcessInfo.processInfo.environment["PATH"])
            #expect(inherited.text.split(separator: "\n").contains("PATH=\(path)"[...]))
        }

        @Test("a working directory is where the program starts")
        func workingDirectory() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = try ChildProcess.runToEnd("/bin/pwd", ["-P"], workingDirectory: folder.path)
            #expect(result.text == folder.resolvingSymlinksInPath().path + "\n")
        }

        @Test("a child gets no descriptor of this process but its three standard streams")
        func noInheritedDescriptors() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer { for end in ends { close(end) } }
            let script = "for fd in \(ends[0]) \(ends[1]); do test -e /proc/self/fd/$fd && echo $fd; done; exit 0"
            let result = try ChildProcess.runToEnd("/bin/sh", ["-c", script])
            #expect(result.termination.succeeded)
            #expect(result.text == "", "descriptors the child kept")
        }

        @Test("a child starts with no signal ignored or blocked, whatever this process ignores")
        func signalsAtDefault() throws {
            let previous = signal(SIGPIPE, SIG_IGN)
            defer { signal(SIGPIPE, previous) }
            let result = try ChildProcess.runToEnd("/bin/grep", ["^Sig[IB]", "/proc/self/status"])
            var masks: [String: UInt64] = [:]
            for line in result.text.split(separator: "\n") {
                let fields = line.split(separator: "\t")
                masks[String(fields[0])] = UInt64(fields[1], radix: 16)
            }
            // Signals 32 and 33 are glibc's own (thread cancellation, set*id across threads): no program can use them,
            // and posix_spawn cannot reset them.
            let glibcOwn: UInt64 = 1 << 31 | 1 << 32
            #expect(masks["SigBlk:"] == 0)
            #expect(masks["SigIgn:"].map { $0 & ~glibcOwn } == 0)
        }

        @Test("a signal's end is reported, isRunning follows it, and waiting again answers at once")
        func signalled() async throws {
            let child = try ChildProcess("/bin/cat", input: .pipe, output: .pipe)
            #expect(child.isRunning)
            child.send(SIGKILL)
            #expect(try await child.exit() == .signalled(SIGKILL))
            #expect(!child.isRunning)
            #expect(child.waitUntilExit() == .signalled(SIGKILL))
            #expect(try await child.exit().description == "was stopped by signal 9")
        }

        @Test("a cancelled wait throws and leaves the child running; closing its input ends it")
        func cancelledWait() async throws {
            let child = try ChildProcess("/bin/cat", input: .pipe)
            let waiting = Task { try await child.exit() }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(child.isRunning)
            try child.standardInput?.close()
            #expect(try await child.exit() == .exited(0))
        }

        @Test("a timed run reads its input from a file and reports its end and a duration")
        func timed() throws {
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("timed-\(UUID().uuidString)")
            try Data("7\n".utf8).write(to: input)
            defer { try? FileManager.default.removeItem(at: input) }
            let (termination, duration) = try ChildProcess.timed(
                "/bin/sh", ["-c", "read status; exit $status"], environment: [:], input: .file(input.path))
            #expect(termination == .exited(7))
            #expect(duration > .zero)
        }

        @Test("many programs at once each get their own output")
        func concurrent() async throws {
            let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for number in 0..<64 {
                    group.addTask {
                        let result = try await ChildProcess.run("/bin/echo", ["\(number)"])
                        return (number, result.text)
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(outputs.count == 64)
            for (number, text) in outputs { #expect(text == "\(number)\n") }
        }
    }
#endif
