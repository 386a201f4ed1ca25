import Foundation

/// The lines a child process writes to a pipe, read on a thread of their own until the pipe ends, so no task waits
/// in a blocking read and the child never blocks on a full pipe.
enum PipeLines {
    static func lines(of reader: FileHandle) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            continuation.finish()
        }
        return lines
    }
}
