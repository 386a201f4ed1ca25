// iOS, tvOS, watchOS and visionOS: Foundation has no `Process`, so the library cannot start a browser itself.
#if !os(Linux) && !os(macOS)
    import Foundation

    /// Stands in until the app sets its own ``BrowserLauncher`` (e.g. one presenting
    /// `ASWebAuthenticationSession`): every sign-in fails and says so.
    struct MissingBrowserLauncher: BrowserLauncher {
        func open(_ url: URL) async throws {
            throw MSALError.internal(
                .invalidParameter,
                "This platform has no system browser the library can start; set the configuration's browser launcher."
            )
        }
    }
#endif
