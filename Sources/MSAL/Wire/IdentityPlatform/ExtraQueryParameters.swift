import Foundation

/// The app's own query parameters (`extraQueryParameters`), added after MSAL's in name order: to the authorization
/// request's query and, as MSAL.NET and MSAL for iOS/macOS send them, to the token and device code endpoints' URLs.
enum ExtraQueryParameters {
    /// The parameters as query pairs, in name order.
    static func pairs(_ parameters: [String: String]) -> [(String, String)] {
        parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `url` with the parameters appended to its query; `url` itself when there are none.
    static func appending(_ parameters: [String: String], to url: URL) -> URL {
        guard !parameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        let added = FormEncoding.encode(pairs(parameters))
        components.percentEncodedQuery = components.percentEncodedQuery.map { "\($0)&\(added)" } ?? added
        return components.url ?? url
    }
}
