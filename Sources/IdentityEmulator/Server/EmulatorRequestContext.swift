import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address (for the loopback-only
/// admin API).
struct EmulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// The form body, once read (the middleware parses it for the request log; routes reuse it).
    var form: FormBody?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Bodies above 1 MiB are refused with 413.
    var maxUploadSize: Int { 1 << 20 }

    var isFromLoopback: Bool { Self.isLoopback(remoteAddress) }

    /// True for 127.0.0.0/8, `::1` and IPv4-mapped loopback; false for anything else or no address.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
