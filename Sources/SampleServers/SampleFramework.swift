/// The web framework a sample runs on: the same routes and behaviour on either, through MSALHummingbird or
/// MSALVapor.
public enum SampleFramework: String, Sendable, CaseIterable {
    /// Hummingbird 2.
    case hummingbird
    /// Vapor 4.
    case vapor
}

extension SampleFramework {
    /// The banner's line naming the framework and the integration that protects the routes.
    package var bannerLine: String {
        switch self {
        case .hummingbird: "Web framework: Hummingbird 2, with MSALHummingbird"
        case .vapor: "Web framework: Vapor 4, with MSALVapor"
        }
    }
}
