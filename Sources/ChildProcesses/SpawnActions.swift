// Linux and macOS: iOS, tvOS, watchOS and visionOS cannot start programs.
#if os(Linux) || os(macOS)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// What `posix_spawn` does in the child before it runs the program: connect the standard streams, change directory,
    /// close every other descriptor, and put every signal back to its default, unblocked.
    final class SpawnActions {
        #if canImport(Glibc)
            typealias FileActions = posix_spawn_file_actions_t
            typealias Attributes = posix_spawnattr_t
        #else
            typealias FileActions = posix_spawn_file_actions_t?
            typealias Attributes = posix_spawnattr_t?
        #endif
        private let actions = UnsafeMutablePointer<FileActions>.allocate(capacity: 1)
        private let attributes = UnsafeMutablePointer<Attributes>.allocate(capacity: 1)
        /// The child's ends of its pipes, closed here once it has started.
        private var childEnds: [Int32] = []

        init() {
            posix_spawn_file_actions_init(actions)
            posix_spawnattr_init(attributes)
            // A runner may start this process with SIGTERM or SIGPIPE ignored or blocked, and a child inherits both.
            var all = sigset_t()
            var none = sigset_t()
            sigfillset(&all)
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(attributes, &all)
            posix_spawnattr_setsigmask(attributes, &none)
            posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        }

        deinit {
            for descriptor in childEnds { close(descriptor) }
            posix_spawn_file_actions_destroy(actions)
            posix_spawnattr_destroy(attributes)
            actions.deallocate()
            attributes.deallocate()
        }

        /// Connects the child's `descriptor` (0, 1 or 2) to `stream`.
        ///
        /// - Returns: this process's end of a ``ChildStream/pipe``.
        /// - Throws: ``ChildProcessError`` when a pipe cannot be made.
        func connect(_ stream: ChildStream, to descriptor: Int32) throws(ChildProcessError) -> FileHandle? {
            switch stream {
            case .null:
                open(descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            case .inherit:
                break
            case .file(let path):
                open(descriptor, path, descriptor == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC)
            case .descriptor(let source):
                duplicate(source, to: descriptor)
            case .standardOutput:
                duplicate(1, to: descriptor)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else {
                    throw ChildProcessError("no pipe for a child: \(String(cString: strerror(errno)))")
                }
                // Close-on-exec, in case a program is started elsewhere without closing what it does not pass.
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                let (childEnd, ourEnd) = descriptor == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(childEnd)
                duplicate(childEnd, to: descriptor)
                return FileHandle(fileDescriptor: ourEnd, closeOnDealloc: true)
            }
            return nil
        }

        private func open(_ descriptor: Int32, _ path: String, _ flags: Int32) {
            posix_spawn_file_actions_addopen(actions, descriptor, path, flags, 0o600)
        }

        private func duplicate(_ source: Int32, to descriptor: Int32) {
            posix_spawn_file_actions_adddup2(actions, source, descriptor)
        }

        /// glibc 2.29's `posix_spawn_file_actions_addchdir_np`, which Swift's Glibc module does not import.
        func changeDirectory(to path: String) throws(ChildProcessError) {
            typealias ChangeDirectory = @convention(c) (UnsafeMutableRawPointer, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
                throw ChildProcessError("this C library cannot start a program in another directory (\(path))")
            }
            _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(UnsafeMutableRawPointer(actions), path)
        }

        /// Closes every descriptor but 0, 1 and 2.
        ///
        /// A child inherits every descriptor without close-on-exec, among them the pipes of other children started at the
        /// same moment; a daemon would keep them open for as long as it runs, and their readers would never see their
        /// end. glibc 2.34's `posix_spawn_file_actions_addclosefrom_np` does it in one step; Swift's Glibc module does
        /// not import it, so it is looked up by name, and each descriptor open now is closed one by one where it is
        /// missing.
        func closeOthers() {
            typealias CloseFrom = @convention(c) (UnsafeMutableRawPointer, Int32) -> Int32
            if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
                _ = unsafeBitCast(symbol, to: CloseFrom.self)(UnsafeMutableRawPointer(actions), 3)
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(actions, descriptor)
            }
        }

        /// Starts `path`; `environment` `nil` passes this process's. The child's ends of its pipes are closed here.
        func spawn(_ path: String, _ arguments: [String], environment: [String: String]?)
            throws(ChildProcessError) -> pid_t
        {
            let argv = ([path] + arguments).map { strdup($0) } + [nil]
            let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
            let envp = variables.map { strdup($0) } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var pid = pid_t()
            let failed = posix_spawn(&pid, path, actions, attributes, argv, envp)
            for descriptor in childEnds { close(descriptor) }
            childEnds = []
            guard failed == 0 else {
                throw ChildProcessError("\(path) could not be started: \(String(cString: strerror(failed)))")
            }
            return pid
        }
    }
#endif
