import NIOCore
import NIOPosix
import Synchronization

/// A closed-loop HTTP/1.1 load generator in the spirit of `wrk`: `connections` keep-alive connections,
/// each sending one pre-encoded request, reading the whole answer (status line and `Content-Length`
/// body), and sending the next, until the deadline. It runs on NIO's event loops and parses only what
/// it must, so its own cost stays small next to the server's.
struct LoopbackLoad {
    let host: String
    let port: Int
    let request: ByteBuffer
    let connections: Int

    struct Result {
        var ok = 0
        var failed = 0
    }

    /// Sends requests until `deadline`; returns how many got a 200 and how many something else.
    ///
    /// - Throws: when a connection cannot be made or breaks.
    func run(until deadline: NIODeadline) async throws -> Result {
        let totals = Totals()
        let request = request
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ClosedLoopHandler(request: request, deadline: deadline, totals: totals))
                }
            }
        var closed: [EventLoopFuture<Void>] = []
        for _ in 0..<connections {
            closed.append(try await bootstrap.connect(host: host, port: port).get().closeFuture)
        }
        for future in closed { try await future.get() }
        return Result(ok: totals.ok.load(ordering: .relaxed), failed: totals.failed.load(ordering: .relaxed))
    }
}

/// Answers counted over all connections.
private final class Totals: Sendable {
    let ok = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
}

/// One connection's loop: write the request, parse the response, repeat; close at the deadline.
private final class ClosedLoopHandler: ChannelInboundHandler {
    typealias OutboundOut = ByteBuffer
    typealias InboundIn = ByteBuffer

    private let request: ByteBuffer
    private let deadline: NIODeadline
    private let totals: Totals
    private var received: ByteBuffer?
    private var ok = 0
    private var failed = 0

    init(request: ByteBuffer, deadline: NIODeadline, totals: Totals) {
        self.request = request
        self.deadline = deadline
        self.totals = totals
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(request), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
        while let status = takeResponse() {
            if status == 200 { ok += 1 } else { failed += 1 }
            if NIODeadline.now() >= deadline {
                context.close(promise: nil)
                return
            }
            context.writeAndFlush(wrapOutboundOut(request), promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        totals.ok.add(ok, ordering: .relaxed)
        totals.failed.add(failed, ordering: .relaxed)
        context.fireChannelInactive()
    }

    /// Removes one complete response from `received` and returns its status, if one has arrived.
    private func takeResponse() -> Int? {
        guard let buffer = received,
            let (status, length) = buffer.withUnsafeReadableBytes(Self.parseHead)
        else { return nil }
        guard buffer.readableBytes >= length else { return nil }
        received!.moveReaderIndex(forwardBy: length)
        if received!.readableBytes == 0 { received = nil }
        return status
    }

    /// The status and the whole response's length (head and `Content-Length` body), once the head is in.
    private static func parseHead(_ bytes: UnsafeRawBufferPointer) -> (status: Int, length: Int)? {
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        guard bytes.count >= 16 else { return nil }
        var status = 0
        for index in 9..<12 { status = status * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
        var contentLength = 0
        var lineStart = 0
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == cr, bytes[index + 1] == lf else {
                index += 1
                continue
            }
            if index == lineStart { return (status, index + 2 + contentLength) }  // the empty line ends the head
            if index - lineStart > 15, bytes[lineStart] | 0x20 == UInt8(ascii: "c"),
                bytes[lineStart + 8] | 0x20 == UInt8(ascii: "l"),
                bytes[lineStart + 14] == UInt8(ascii: ":")
            {
                contentLength = 0
                for digit in bytes[(lineStart + 15)..<index] where digit != UInt8(ascii: " ") {
                    contentLength = contentLength * 10 + Int(digit &- UInt8(ascii: "0"))
                }
            }
            index += 2
            lineStart = index
        }
        return nil
    }
}
