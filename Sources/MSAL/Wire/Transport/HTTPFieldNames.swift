import HTTPTypes

/// The header fields MSAL sends that swift-http-types does not name, spelled as they go on the wire (names compare
/// case-insensitively; the spelling is kept).
extension HTTPField.Name {
    /// `client-request-id`: the correlation id of a request to the identity platform.
    static let clientRequestID = Self("client-request-id")!
    /// `return-client-request-id`: asks the identity platform to echo `client-request-id`.
    static let returnClientRequestID = Self("return-client-request-id")!
    /// `x-client-SKU`: the library's name (``LibraryIdentity``).
    static let clientSKU = Self("x-client-SKU")!
    /// `x-client-Ver`: the library's version.
    static let clientVersion = Self("x-client-Ver")!
    /// `x-client-OS`: the operating system.
    static let clientOS = Self("x-client-OS")!
    /// `x-client-CPU`: the processor architecture.
    static let clientCPU = Self("x-client-CPU")!
    /// `x-ms-lib-capability`: what the library handles (`retry-after, h429`).
    static let libraryCapability = Self("x-ms-lib-capability")!
    /// `x-ms-client-request-id`: the correlation id of a managed identity request.
    static let managedIdentityRequestID = Self("x-ms-client-request-id")!
    /// `Metadata: true`: IMDS, Azure Arc and Cloud Shell's proof that the caller runs on the host.
    static let metadata = Self("Metadata")!
    /// `X-IDENTITY-HEADER`: App Service's secret.
    static let identityHeader = Self("X-IDENTITY-HEADER")!
    /// `Secret`: Service Fabric's secret.
    static let serviceFabricSecret = Self("Secret")!
    /// `secret`: Azure Machine Learning's secret.
    static let machineLearningSecret = Self("secret")!
}
