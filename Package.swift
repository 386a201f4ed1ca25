// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// How `msal` and the floor it is measured against link in release on Linux, for a start as fast as the machine allows
// (Linking/README.md): lld, position-dependent, libgcc and libstdc++ linked in, hot functions side by side.
let fastStartLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc",
            "-Xclang-linker", "-L\(Context.packageDirectory)/Linking/static-libraries",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linking/msal-hot-path.order",
            "-Xlinker", "--no-warn-symbol-ordering",
        ], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "swift-msal",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "MSAL", targets: ["MSAL"]),
        .library(name: "MSALPostgres", targets: ["MSALPostgres"]),
        .library(name: "MSALHummingbird", targets: ["MSALHummingbird"]),
        .library(name: "MSALVapor", targets: ["MSALVapor"]),
        .library(name: "IdentityEmulator", targets: ["IdentityEmulator"]),
        .library(name: "IdentityEmulatorTesting", targets: ["IdentityEmulatorTesting"]),
        .executable(name: "identity-emulator", targets: ["identity-emulator"]),
        .executable(name: "msal", targets: ["msal-cli"]),
        .executable(name: "emulator-browser", targets: ["emulator-browser"]),
        .executable(name: "msal-bench", targets: ["msal-bench"]),
        .executable(name: "todo-api", targets: ["todo-api"]),
        .executable(name: "webapp-sample", targets: ["webapp-sample"]),
    ],
    // The integrations and the tools are package traits, so that an app resolves, fetches and builds only what it asks
    // for: `traits: []` on its `.package` line for the core library alone, `traits: ["Hummingbird"]` and so on for an
    // integration. Every reference to the packages of the integrations and the tools (hummingbird, hummingbird-auth,
    // vapor, postgres-nio, swift-argument-parser, swift-service-lifecycle, swift-certificates, swift-asn1, Yams)
    // carries the condition of its trait: one reference without it brings the package back into every app's
    // resolution (scripts/check-core-only checks). The default, Tools, is everything, for this package's own demo and tests.
    traits: [
        .trait(name: "Hummingbird", description: "MSALHummingbird: identity for Hummingbird 2 web apps and APIs."),
        .trait(name: "Vapor", description: "MSALVapor: identity for Vapor 4 web apps and APIs."),
        .trait(name: "Postgres", description: "MSALPostgres: the token cache a fleet shares in PostgreSQL."),
        .trait(name: "Emulator", description: "IdentityEmulator and identity-emulator: the local identity platform."),
        .trait(
            name: "Tools",
            description: "The msal command, the samples, the benchmarks and the tests; every integration.",
            enabledTraits: ["Hummingbird", "Vapor", "Postgres", "Emulator"]),
        .default(enabledTraits: ["Tools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(name: "CThreadSanitizerHooks"),
        .target(name: "Locking", dependencies: ["CThreadSanitizerHooks"], swiftSettings: strict),
        // The size and nesting limits every parser of JSON from outside the process checks first, in MSAL and in the
        // emulator alike.
        .target(name: "OutsideJSON", swiftSettings: strict),
        // Files replaced so that readers see the old bytes or the new (0600), and read whole: the token cache, the CLI's
        // settings and the files its user names, the emulator's state.
        .target(name: "AtomicFiles", swiftSettings: strict),
        // Programs started with posix_spawn and waited for, for the library (a browser, secret-tool), the emulator and
        // the tests alike: Foundation's Process can crash the process that starts one.
        .target(name: "ChildProcesses", dependencies: ["Locking"], swiftSettings: strict),
        // HTML escaping and percent-decoding, for the web app integration, its sample and the emulator's pages alike.
        .target(name: "WebText", swiftSettings: strict),
        // What each claim of a token means, for the emulator's token inspector and `msal decode` alike.
        .target(name: "TokenGlossary", swiftSettings: strict),
        // The port a server listens on, checked and its bind failures explained, for the emulator and the samples alike.
        .target(
            name: "ListeningPort", dependencies: [.product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strict),
        .target(
            name: "MSAL",
            dependencies: [
                "ChildProcesses",
                "AtomicFiles",
                "Locking",
                "OutsideJSON",
                "WebText",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The PostgreSQL token cache store, apart from MSAL so that apps without PostgreSQL do not link postgres-nio.
        .target(
            name: "MSALPostgres",
            dependencies: [
                "Locking",
                "MSAL",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        // Identity for Vapor 4 web apps and APIs, over the same core as MSALHummingbird, apart from MSAL so that apps
        // without Vapor do not link it.
        .target(
            name: "MSALVapor",
            dependencies: [
                "MSAL",
                "WebText",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            swiftSettings: strict
        ),
        // Identity for Hummingbird 2 web apps and APIs, apart from MSAL so that apps without Hummingbird do not link it.
        .target(
            name: "MSALHummingbird",
            dependencies: [
                "MSAL",
                "WebText",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // How the samples run: until a caller's work ends (tests, the demo) or until a signal (the executables); the
        // banner they print, and every failed request logged with its cause and answered with an explanation.
        .target(
            name: "SampleServers",
            dependencies: [
                "ListeningPort",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Tools"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        // The sample to-do service (the tutorials' API 1 and API 2), behind the todo-api executable and its tests.
        .target(
            name: "TodoAPI",
            dependencies: [
                "Locking",
                "MSAL",
                "MSALHummingbird",
                "MSALVapor",
                "SampleServers",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Tools"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        // The sample web app, behind the webapp-sample executable and its tests.
        .target(
            name: "WebAppSample",
            dependencies: [
                "MSAL",
                "MSALHummingbird",
                "MSALVapor",
                "SampleServers",
                "WebText",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Tools"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        // Test fixtures for apps: an in-process emulator per test, sign-ins without a browser, tokens on demand.
        .target(
            name: "IdentityEmulatorTesting",
            dependencies: [
                "IdentityEmulator",
                "EmulatorAutomation",
                "MSAL",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "EmulatorAutomation",
            dependencies: [
                "Locking",
                "MSAL",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "IdentityEmulator",
            dependencies: [
                "ChildProcesses",
                "AtomicFiles",
                "ListeningPort",
                "Locking",
                "OutsideJSON",
                "TokenGlossary",
                "WebText",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Emulator"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Emulator"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Emulator"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Emulator"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Emulator"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Emulator"])
                ),
                .product(
                    name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Emulator"])),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "identity-emulator",
            dependencies: [
                "IdentityEmulator",
                "ListeningPort",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Emulator"])),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MSALCommandLine",
            dependencies: [
                "AtomicFiles",
                "Locking",
                "MSAL",
                "MSALPostgres",
                "IdentityEmulator",
                "TodoAPI",
                "TokenGlossary",
                "EmulatorAutomation",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                // Kubeconfigs are YAML (msal kube convert-kubeconfig).
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "msal-cli",
            dependencies: ["MSALCommandLine"],
            swiftSettings: strict,
            // The static Swift runtime links with --export-dynamic, which put every symbol of every module (64,000)
            // in the dynamic symbol table; the runtime's start-up `dladdr` then scans them all on every run.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])] + fastStartLinking
        ),
        .executableTarget(
            name: "cache-stress",
            dependencies: [
                "MSAL",
                "EmulatorAutomation",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "todo-api",
            dependencies: [
                "MSAL",
                "SampleServers",
                "TodoAPI",
                "IdentityEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "webapp-sample",
            dependencies: [
                "MSAL",
                "SampleServers",
                "WebAppSample",
                "MSALPostgres",
                "IdentityEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "fleet-worker",
            dependencies: [
                "MSAL",
                "MSALPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "emulator-browser",
            dependencies: [
                "EmulatorAutomation",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tools"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        // Servers the tests and benchmarks start for themselves: a throwaway PostgreSQL cluster, a Kubernetes API
        // stub for kubectl, daemons spawned without other tests' descriptors, headless Chromium over WebDriver.
        .target(
            name: "TestServers",
            dependencies: [
                "ChildProcesses",
                "IdentityEmulator",
                "Locking",
                "MSAL",
                "MSALHummingbird",
                "SampleServers",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The floor msal-bench's cli section measures `msal`'s start against: a static binary that prints a file.
        .executableTarget(name: "startup-floor", swiftSettings: strict, linkerSettings: fastStartLinking),
        .executableTarget(
            name: "msal-bench",
            dependencies: [
                "ChildProcesses",
                "Locking",
                "MSAL",
                "MSALPostgres",
                "MSALHummingbird",
                "MSALVapor",
                "TestServers",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Tools"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Tools"])),
                "IdentityEmulator",
                "EmulatorAutomation",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MSALTests",
            dependencies: [
                "AtomicFiles",
                "ChildProcesses",
                "Locking",
                "MSAL",
                "OutsideJSON",
                "EmulatorAutomation",
                "IdentityEmulator",
                "IdentityEmulatorTesting",
                "TestServers",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CompatibilityTests",
            dependencies: [
                "Locking",
                "MSAL",
                "EmulatorAutomation",
                "IdentityEmulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ChildProcesses",
                "Locking",
                "MSAL",
                "MSALCommandLine",
                "msal-cli",
                "identity-emulator",
                "emulator-browser",
                "cache-stress",
                "IdentityEmulator",
                "EmulatorAutomation",
                "TestServers",
                "TodoAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Tools"])),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "IdentityEmulatorTests",
            dependencies: [
                "ChildProcesses",
                "Locking",
                "IdentityEmulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Tools"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Tools"])),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .target(
            name: "WebSignInTesting",
            dependencies: [
                "EmulatorAutomation",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/WebSignInTesting",
            swiftSettings: strict
        ),
        .testTarget(
            name: "MSALHummingbirdTests",
            dependencies: [
                "WebSignInTesting",
                "Locking",
                "MSAL",
                "MSALHummingbird",
                "MSALPostgres",
                "SampleServers",
                "TodoAPI",
                "WebAppSample",
                "IdentityEmulator",
                "IdentityEmulatorTesting",
                "EmulatorAutomation",
                "TestServers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth", condition: .when(traits: ["Tools"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Tools"])),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MSALPostgresTests",
            dependencies: [
                "ChildProcesses",
                "Locking",
                "MSAL",
                "MSALPostgres",
                "IdentityEmulator",
                "fleet-worker",
                "TestServers",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Tools"])),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MSALVaporTests",
            dependencies: [
                "WebSignInTesting",
                "MSAL",
                "MSALPostgres",
                "MSALVapor",
                "SampleServers",
                "TodoAPI",
                "WebAppSample",
                "IdentityEmulator",
                "IdentityEmulatorTesting",
                "EmulatorAutomation",
                "TestServers",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "VaporTesting", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
