// swift-tools-version:6.1
// A consumer that wants the core library alone: `traits: []` turns every integration and tool off, so resolving this
// package fetches none of vapor, hummingbird, hummingbird-auth, postgres-nio or swift-argument-parser.
// scripts/check-core-only resolves and builds a copy of it, the path below made a link named swift-msal (a path
// dependency's identity is its folder's name) to the repository.
import PackageDescription

let package = Package(
    name: "CoreOnlyConsumer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "CoreOnlyConsumer",
            dependencies: [.product(name: "MSAL", package: "swift-msal")])
    ]
)
