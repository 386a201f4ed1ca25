import ChildProcesses
import Foundation
import Locking
import MSAL
import NIOCore
import NIOHTTP1
import NIOPosix

/// A smart-HTTP git server on 127.0.0.1 (port 0) for the tests, standing in for Azure Repos: a request needs HTTP
/// Basic authentication whose password is an access token ``validator`` accepts (the emulator's, for Azure DevOps),
/// and is then served by `git http-backend` as CGI over the bare repositories in ``root``.
final class GitHTTPServer: Sendable {
    /// `GIT_PROJECT_ROOT`: the bare repositories, pushes enabled (`http.receivepack`).
    let root: URL
    let port: Int
    private let validator: AccessTokenValidator
    private let state = Locked(State())

    private struct State {
        var refused: Set<String> = []
        var accepted: [String] = []
        var unauthorized = 0
    }

    private init(root: URL, port: Int, validator: AccessTokenValidator) {
        self.root = root
        self.port = port
        self.validator = validator
    }

    /// Runs `body` with a server whose repository root is a new folder under `scratch`, then stops it.
    static func withRunning<T: Sendable>(
        validator: AccessTokenValidator, scratch: URL, _ body: @Sendable (GitHTTPServer) async throws -> T
    ) async throws -> T {
        let root = scratch.appendingPathComponent("git-server")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        let server = GitHTTPServer(root: root, port: channel.channel.localAddress?.port ?? 0, validator: validator)
        let serving = Task {
            try await channel.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { try? await server.serve(connection) }
                    }
                }
            }
        }
        defer { serving.cancel() }
        do {
            let result = try await body(server)
            try? await channel.channel.close()
            return result
        } catch {
            try? await channel.channel.close()
            throw error
        }
    }

    /// The clone URL of the repository `name` (`name.git` under ``root``).
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name).git" }

    /// Makes an empty bare repository that takes pushes.
    func createRepository(_ name: String) async throws {
        let path = root.appendingPathComponent("\(name).git").path
        for arguments in [
            ["init", "--bare", "-q", "-b", "main", path], ["-C", path, "config", "http.receivepack", "true"],
        ] {
            let result = try await CLIProcess.run(
                URL(fileURLWithPath: "/usr/bin/git"), arguments, environment: Self.gitEnvironment(home: root.path))
            guard result.status == 0 else { throw GitServerFailure(description: "git \(arguments): \(result.stderr)") }
        }
    }

    /// Refuses `token` from now on, as Azure Repos refuses a revoked one.
    func refuse(_ token: String) { state.withLock { _ = $0.refused.insert(token) } }

    /// The passwords accepted so far, in order.
    var acceptedPasswords: [String] { state.withLock { $0.accepted } }

    /// How many requests were answered 401.
    var unauthorizedCount: Int { state.withLock { $0.unauthorized } }

    /// git's environment, kept away from the user's and the system's configuration.
    static func gitEnvironment(home: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "",
        ]
    }

    // MARK: Serving

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let request):
                    head = request
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let request = head else { continue }
                    let (status, headers, content) = await respond(request, body: Data(body.readableBytesView))
                    var responseHeaders = headers
                    responseHeaders.replaceOrAdd(name: "Content-Length", value: "\(content.count)")
                    try await outbound.write(
                        .head(HTTPResponseHead(version: request.version, status: status, headers: responseHeaders)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: content))))
                    try await outbound.write(.end(nil))
                    if !request.isKeepAlive { return }
                }
            }
        }
    }

    private func respond(_ request: HTTPRequestHead, body: Data) async -> (HTTPResponseStatus, HTTPHeaders, Data) {
        guard let (username, password) = Self.basicCredentials(request.headers), await accepts(password) else {
            state.withLock { $0.unauthorized += 1 }
            return (.unauthorized, ["WWW-Authenticate": "Basic realm=\"Azure Repos\""], Data())
        }
        do {
            return try await Self.runBackend(request, body: body, user: username, root: root)
        } catch {
            return (.internalServerError, [:], Data("\(error)".utf8))
        }
    }

    private func accepts(_ password: String) async -> Bool {
        guard !state.withLock({ $0.refused.contains(password) }), (try? await validator.validate(password)) != nil
        else { return false }
        state.withLock { $0.accepted.append(password) }
        return true
    }

    private static func basicCredentials(_ headers: HTTPHeaders) -> (String, String)? {
        guard let value = headers.first(name: "Authorization"), value.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(value.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }

    /// `git http-backend` as CGI: the request's body on its standard input, its headers (with `Status:`) and body
    /// read back from its standard output.
    private static func runBackend(_ request: HTTPRequestHead, body: Data, user: String, root: URL) async throws
        -> (HTTPResponseStatus, HTTPHeaders, Data)
    {
        let (path, query) =
            request.uri.firstIndex(of: "?").map {
                (String(request.uri[..<$0]), String(request.uri[request.uri.index(after: $0)...]))
            } ?? (request.uri, "")
        var environment = gitEnvironment(home: root.path)
        environment.merge([
            "GIT_PROJECT_ROOT": root.path, "GIT_HTTP_EXPORT_ALL": "1", "REMOTE_USER": user,
            "REMOTE_ADDR": "127.0.0.1", "PATH_INFO": path, "QUERY_STRING": query,
            "REQUEST_METHOD": request.method.rawValue, "CONTENT_LENGTH": "\(body.count)",
            "CONTENT_TYPE": request.headers.first(name: "Content-Type") ?? "",
            "HTTP_CONTENT_ENCODING": request.headers.first(name: "Content-Encoding") ?? "",
            "GIT_PROTOCOL": request.headers.first(name: "Git-Protocol") ?? "",
        ]) { $1 }
        let cgiEnvironment = environment
        let result = try await ChildProcess.run(
            "/usr/lib/git-core/git-http-backend", environment: cgiEnvironment, input: body)
        return try cgiResponse(result.standardOutput)
    }

    /// The CGI answer's status (its `Status:` header, 200 without one), other headers and body.
    static func cgiResponse(_ output: Data) throws -> (HTTPResponseStatus, HTTPHeaders, Data) {
        let separators = [Data("\r\n\r\n".utf8), Data("\n\n".utf8)]
        guard let end = separators.compactMap({ output.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound })
        else { throw GitServerFailure(description: "git http-backend answered no headers") }
        var status = HTTPResponseStatus.ok
        var headers = HTTPHeaders()
        let head = String(decoding: output[output.startIndex..<end.lowerBound], as: UTF8.self)
        for line in head.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if name.lowercased() == "status" {
                status = HTTPResponseStatus(statusCode: Int(value.prefix { $0.isNumber }) ?? 500)
            } else {
                headers.add(name: name, value: value)
            }
        }
        return (status, headers, Data(output[end.upperBound...]))
    }
}

/// The test git server could not do what it was asked.
struct GitServerFailure: Error, CustomStringConvertible {
    let description: String
}
