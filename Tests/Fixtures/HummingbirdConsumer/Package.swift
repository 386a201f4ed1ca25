// swift-tools-version:6.1
// A consumer of the Hummingbird integration alone: `traits: ["Hummingbird"]` brings hummingbird and hummingbird-auth,
// and still none of vapor, postgres-nio or swift-argument-parser. scripts/check-core-only resolves a copy of it as it
// does CoreOnlyConsumer.
import PackageDescription

let package = Package(
    name: "HummingbirdConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../../..", traits: ["Hummingbird"])
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdConsumer",
            dependencies: [.product(name: "MSALHummingbird", package: "swift-msal")])
    ]
)
