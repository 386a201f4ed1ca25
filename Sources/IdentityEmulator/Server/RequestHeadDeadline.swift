import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds how long a connection may take to send a request, whatever it drips: the first request's head
/// must arrive within `timeout` of the connection (else 408 Request Timeout and the connection closes), each
/// later one within `keepAlive` of the previous response, and a body within `keepAlive` of its head (else the
/// connection closes, as an idle keep-alive connection would). A read-idle timer alone would be reset by
/// every byte.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private let keepAlive: TimeAmount
    private var deadline: Scheduled<Void>?
    private var answered = 0

    init(timeout: TimeAmount, keepAlive: TimeAmount) {
        self.timeout = timeout
        self.keepAlive = keepAlive
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(context, in: keepAlive, answer: false)
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answered += 1
            arm(context)
        }
        context.write(data, promise: promise)
    }

    /// The deadline for the next request's head.
    private func arm(_ context: ChannelHandlerContext) {
        let first = answered == 0
        arm(context, in: first ? timeout : keepAlive, answer: first)
    }

    private func arm(_ context: ChannelHandlerContext, in delay: TimeAmount, answer: Bool) {
        deadline?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.expire(context, answer: answer)
        }
    }

    private func expire(_ context: ChannelHandlerContext, answer: Bool) {
        deadline = nil
        guard answer else { return context.close(promise: nil) }
        let head = HTTPResponse(status: .requestTimeout, headerFields: [.connection: "close", .contentLength: "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
