import Foundation
import Synchronization

/// Runs a command as one task on the main thread: the task, its child tasks and the actors they call run their jobs
/// here, and SIGINT cancels the task (exit 130 with "Cancelled.", as ``cancellingOnInterrupt(_:)`` does for the
/// other commands).
///
/// The commands tools run on every call (``HotCommand``) run this way: answered from the cache, they start no thread,
/// where the global executor starts two or three and Dispatch's signal source one more, a good part of their start.
/// Work that leaves the task still runs elsewhere: the network on async-http-client's event loop, an unstructured
/// `Task` on the global executor; what it resumes comes back here.
final class CommandRunLoop: TaskExecutor {
    /// Whether the current task runs on the loop, which then handles SIGINT itself.
    @TaskLocal static var handlesInterrupts = false

    /// Set by SIGINT's handler, which may only store and write.
    private static let interrupted = Atomic<Bool>(false)
    /// A pipe's ends: a byte is written when there is work or SIGINT came while the loop waits; `-1` until a loop
    /// runs.
    private static let wakeupReader = Atomic<Int32>(-1)
    private static let wakeupWriter = Atomic<Int32>(-1)

    private let jobs = Mutex<[UnownedJob]>([])
    /// Whether the loop found no job and is about to wait: the next job must wake it.
    private let waiting = Atomic<Bool>(false)
    private let task = Mutex<Task<Never, Never>?>(nil)

    private init() {}

    /// Runs `operation` (which ends the process) on the calling thread, which must be the main thread.
    static func run(_ operation: @escaping @Sendable () async -> Never) -> Never {
        let loop = CommandRunLoop()
        // Made before the handler can run: it may not initialise a global.
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("msal: no pipe for the run loop (errno \(errno))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeupReader.store(ends[0], ordering: .sequentiallyConsistent)
        wakeupWriter.store(ends[1], ordering: .sequentiallyConsistent)
        interrupted.store(false, ordering: .sequentiallyConsistent)
        // A parent that blocks SIGINT (a test runner, some supervisors) passes the mask on; threads made from here on
        // inherit this one's.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        signal(SIGINT) { _ in
            CommandRunLoop.interrupted.store(true, ordering: .sequentiallyConsistent)
            CommandRunLoop.wake()
        }
        let task = Task(executorPreference: loop) {
            await $handlesInterrupts.withValue(true) { await operation() }
        }
        loop.task.withLock { $0 = task }
        loop.drain()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        if waiting.exchange(false, ordering: .sequentiallyConsistent) { Self.wake() }
    }

    /// Runs jobs as they come, waiting for the next; cancels the task when SIGINT came.
    private func drain() -> Never {
        let executor = asUnownedTaskExecutor()
        while true {
            if Self.interrupted.exchange(false, ordering: .sequentiallyConsistent) {
                task.withLock { $0 }?.cancel()
            }
            if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job.runSynchronously(on: executor)
                continue
            }
            waiting.store(true, ordering: .sequentiallyConsistent)
            // A job enqueued before `waiting` was set is seen here; one enqueued after it writes the pipe.
            guard jobs.withLock({ $0.isEmpty }), !Self.interrupted.load(ordering: .sequentiallyConsistent) else {
                waiting.store(false, ordering: .sequentiallyConsistent)
                continue
            }
            var bytes = (UInt64(0), UInt64(0))
            _ = withUnsafeMutableBytes(of: &bytes) {
                read(Self.wakeupReader.load(ordering: .sequentiallyConsistent), $0.baseAddress, $0.count)
            }
            waiting.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Writes a byte to the wake-up pipe (async-signal-safe: SIGINT's handler calls it).
    private static func wake() {
        var byte: UInt8 = 1
        _ = write(wakeupWriter.load(ordering: .sequentiallyConsistent), &byte, 1)
    }
}
