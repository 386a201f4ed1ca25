import Logging

extension AccessTokenRejection {
    /// Logs that a request's bearer token was refused: the reason and its details (the authority's URLs, why they could
    /// not be reached) go to the API's log, never to the client; a warning when the signing keys were out of reach.
    package func log(to logger: Logger, path: String) {
        logger.log(
            level: reason == .keysUnavailable ? .warning : .info, "bearer token refused",
            metadata: ["reason": "\(reason.rawValue)", "detail": "\(message)", "path": "\(path)"])
    }
}
