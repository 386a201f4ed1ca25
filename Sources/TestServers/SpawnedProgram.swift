import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end for a test server's set-up (`initdb`, `pg_ctl`, `openssl`) and throws with its output
/// when it fails.
///
/// It is spawned with `posix_spawn` and waited for on a Dispatch thread (not the tests' cooperative ones):
/// Foundation's `Process` notices an exit only when every holder of a descriptor it passes has closed it, and a
/// server that the program leaves running (`pg_ctl start`) holds it for good. For the same reason the program gets
/// no descriptor but its standard ones: a server would otherwise keep, for as long as it runs, the pipes of processes
/// other tests are running at the same moment, and those tests would never see their processes' output end.
package enum SpawnedProgram {
    /// Runs `path` with `arguments`, the process's environment with `environment` over it.
    ///
    /// - Throws: ``SpawnedProgramFailure`` with the program's output when it cannot start or exits non-zero.
    package static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if canImport(Glibc)
            closeInheritedDescriptors(&actions)
        #endif
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw SpawnedProgramFailure("\(path) could not be started: \(String(cString: strerror(spawned)))")
        }
        let child = pid
        let status: Int32 = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }
        }
        guard status == 0 else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw SpawnedProgramFailure(
                "\(([path] + arguments).joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
    }
}

/// A program ``SpawnedProgram`` ran could not start or failed; the description quotes its output.
package struct SpawnedProgramFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
