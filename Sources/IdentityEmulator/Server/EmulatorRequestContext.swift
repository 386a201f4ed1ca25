import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address (for the loopback-only
/// admin API).
struct EmulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Bodies above 1 MiB are refused with 413.
    var maxUploadSize: Int { 1 << 20 }

    var isFromLoopback: Bool {
        switch remoteAddress {
        case .v4(let address)?: address.host.hasPrefix("127.")
        case .v6(let address)?: address.host == "::1" || address.host.hasPrefix("::ffff:127.")
        default: false
        }
    }
}
