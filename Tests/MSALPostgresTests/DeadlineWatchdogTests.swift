import Testing

@testable import MSALPostgres

@Suite("the store's deadline watchdog")
struct DeadlineWatchdogTests {
    @Test("a passed deadline is called once; one forgotten before it passed is not called")
    func expiresAndForgets() async {
        let watchdog = DeadlineWatchdog(tick: .milliseconds(5))
        let (calls, call) = AsyncStream<String>.makeStream()
        let forgotten = watchdog.watch(until: .now + .milliseconds(10)) { call.yield("forgotten") }
        watchdog.unwatch(forgotten)
        _ = watchdog.watch(until: .now + .milliseconds(20)) {
            call.yield("kept")
            call.finish()
        }
        var seen: [String] = []
        for await name in calls { seen.append(name) }
        #expect(seen == ["kept"])
    }

    @Test("the checks stop when nothing is kept, and start again with the next deadline")
    func restartsAfterIdle() async {
        let watchdog = DeadlineWatchdog(tick: .milliseconds(1), idleFor: .milliseconds(1))
        for _ in 0..<3 {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                _ = watchdog.watch(until: .now) { done.resume() }
            }
            while watchdog.isTicking { await Task.yield() }
        }
        #expect(!watchdog.isTicking)
    }
}
