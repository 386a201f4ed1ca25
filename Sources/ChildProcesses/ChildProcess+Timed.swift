// Linux and macOS: iOS, tvOS, watchOS and visionOS cannot start programs.
#if os(Linux) || os(macOS)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension ChildProcess {
        /// Runs a program to its end and measures the whole process, from just before it is spawned to just after
        /// it has ended, for benchmarks: the calling thread waits for it itself, so no other thread's wake-up is
        /// timed. Its standard output is discarded; its standard error is this process's.
        ///
        /// - Throws: ``ChildProcessError`` when it cannot be started.
        package static func timed(
            _ path: String, _ arguments: [String], environment: [String: String], input: ChildStream = .null
        ) throws(ChildProcessError) -> (termination: Termination, duration: Duration) {
            let actions = SpawnActions()
            _ = try actions.connect(input, to: 0)
            _ = try actions.connect(.null, to: 1)
            actions.closeOthers()
            let clock = ContinuousClock()
            let start = clock.now
            let pid = try actions.spawn(path, arguments, environment: environment)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return (Termination(waitStatus: status), clock.now - start)
        }
    }
#endif
