import Hummingbird
import HummingbirdAuth
import MSALHummingbird

/// The sample's request context: its session.
struct WebContext: WebAppRequestContext {
    var coreContext: CoreRequestContextStorage
    let sessions = SessionContext<WebAppSession>()

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
