// swift-tools-version:6.1
// libFuzzer targets for MSAL's and the identity emulator's parsers. A package of its own, so the main package's `swift build` and
// `swift test` never see them. Build and run them with `run.sh` (see README.md): the sanitizer and
// `-enable-testing` flags come from its command line, so MSAL itself is instrumented too.
import PackageDescription

let fuzzers = ["jwt", "token-response", "cache-file", "redirect", "www-authenticate"]
/// The emulator's parsers: its form bodies and queries, its JSON bodies, its authorize endpoint.
let emulatorFuzzers = ["form-body", "admin-json", "authorize-query"]

let package = Package(
    name: "msal-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-msal", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(name: "FuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzerDriver"]),
    ]
        + fuzzers.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: ["FuzzSupport", .product(name: "MSAL", package: "swift-msal")]
            )
        }
        + emulatorFuzzers.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: [
                    "FuzzSupport", .product(name: "IdentityEmulator", package: "swift-msal"),
                    .product(name: "Hummingbird", package: "hummingbird"),
                ]
            )
        }
        + [
            // The access-token validator, with tokens it signs itself so that mutations get past the signature.
            .executableTarget(
                name: "fuzz-access-token",
                dependencies: [
                    "FuzzSupport", .product(name: "MSAL", package: "swift-msal"),
                    .product(name: "Crypto", package: "swift-crypto"),
                    .product(name: "_CryptoExtras", package: "swift-crypto"),
                ]
            )
        ],
    swiftLanguageModes: [.v6]
)
