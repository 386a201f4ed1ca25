import Hummingbird
import MSAL
import MSALHummingbird

/// The sample's request context: the validated bearer token.
struct TodoContext: AccessTokenRequestContext {
    var coreContext: CoreRequestContextStorage
    var accessToken: ValidatedAccessToken?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
