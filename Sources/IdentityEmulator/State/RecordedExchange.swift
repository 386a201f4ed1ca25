import Foundation
import Hummingbird
import Locking

/// One request the emulator served and its answer, as the dashboard's request log shows them. Every secret is masked
/// (``SecretMasking``) as it is recorded, so the log never holds a password, code or token. The answer's body is
/// recorded as it is written (JSON and text up to ``bodyLimit`` bytes; of an HTML page its title).
final class RecordedExchange: Sendable {
    /// Bodies longer than this are not recorded.
    static let bodyLimit = 64 * 1024

    /// The answer, filled in once it is known.
    struct Answer: Sendable {
        var status: Int?
        var headers: [(String, String)] = []
        /// The body as shown: masked JSON or text, a page's title, or why it is not shown.
        var body: String?
        /// The user the exchange was for: the form's `username`, else the answer's tokens' `preferred_username`.
        var user: String?
    }

    /// The exchange's place in the log, counting from 1 since the emulator started (or was reset).
    let number: Int
    let method: String
    let path: String
    let at: Date
    let grantType: String?
    let clientID: String?
    /// The query parameters, form fields and headers, masked.
    let query: [(String, String)]
    let form: [(String, String)]?
    let headers: [(String, String)]
    private let answer: Locked<Answer>

    init(number: Int, request: Request, form: FormBody?, at: Date) {
        self.number = number
        method = request.method.rawValue
        path = request.uri.path
        self.at = at
        grantType = form?["grant_type"]
        clientID = form?["client_id"] ?? HTTPExchange.query(request)["client_id"]
        query = SecretMasking.fields(HTTPExchange.query(request).fields.sorted { $0.key < $1.key })
        self.form = form.map { SecretMasking.fields($0.fields.sorted { $0.key < $1.key }) }
        headers = SecretMasking.fields(request.headers.map { ($0.name.canonicalName, $0.value) })
        answer = Locked(Answer(user: form?.nonEmpty("username")))
    }

    /// The answer as recorded so far.
    var recordedAnswer: Answer { answer.withLock { $0 } }

    /// Records a request that failed without an answer of its own (the router's 404, a route that threw).
    func fail(status: Int) { answer.withLock { $0.status = status } }

    /// Records `response`'s status and headers, and returns it with a body that records itself as it is written.
    func record(_ response: Response) -> Response {
        let contentType = response.headers[.contentType]?.lowercased() ?? ""
        answer.withLock {
            $0.status = Int(response.status.code)
            $0.headers = response.headers.map { field in
                let name = field.name.canonicalName
                return (
                    name, name == "location" ? SecretMasking.url(field.value) : SecretMasking.field(name, field.value)
                )
            }
        }
        guard let length = response.body.contentLength, length > 0 else { return response }
        guard length <= Self.bodyLimit,
            contentType.contains("json") || contentType.hasPrefix("text/")
        else {
            answer.withLock { $0.body = "(\(length) bytes, not recorded)" }
            return response
        }
        var response = response
        let body = response.body
        let captured = Locked<[UInt8]>([])
        response.body = ResponseBody(contentLength: length) { [self] writer in
            try await body.write(
                writer.map { buffer in
                    let complete = captured.withLock { bytes -> [UInt8]? in
                        bytes += buffer.readableBytesView
                        return bytes.count >= length ? bytes : nil
                    }
                    if let complete { self.finish(body: complete, contentType: contentType) }
                    return buffer
                })
        }
        return response
    }

    /// Records a complete body, masked.
    private func finish(body bytes: [UInt8], contentType: String) {
        let shown: String
        var user: String?
        if contentType.contains("json"), let json = try? JSONValue.parse(Data(bytes)) {
            user = Self.user(in: json)
            shown = SecretMasking.json(json).serialized
        } else if contentType.hasPrefix("text/html") {
            let text = String(decoding: bytes, as: UTF8.self)
            let title = text.range(of: "<title>").flatMap { start in
                text.range(of: "</title>", range: start.upperBound..<text.endIndex).map {
                    String(text[start.upperBound..<$0.lowerBound])
                }
            }
            shown = "(an HTML page\(title.map { ": \($0)" } ?? ""), \(bytes.count) bytes)"
        } else {
            shown = String(decoding: bytes, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
                .map { SecretMasking.looksLikeToken(String($0)) ? SecretMasking.mask(String($0)) : String($0) }
                .joined(separator: " ")
        }
        answer.withLock {
            $0.body = shown
            if $0.user == nil { $0.user = user }
        }
    }

    /// The user a token answer is for: its ID token's (else its access token's) `preferred_username` or `upn`.
    private static func user(in json: JSONValue) -> String? {
        for name in ["id_token", "access_token"] {
            guard let token = json[name]?.stringValue, let claims = JWT.decode(token)?.payload else { continue }
            if let user = claims["preferred_username"]?.stringValue ?? claims["upn"]?.stringValue { return user }
        }
        return nil
    }
}

/// The most recent exchanges (``RecordedExchange``), numbered as they arrive: the dashboard's request log.
final class ExchangeRecorder: Sendable {
    private struct Log: Sendable {
        var exchanges: RecentLog<RecordedExchange>
        var next = 1
    }

    private let log: Locked<Log>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        log = Locked(Log(exchanges: RecentLog(capacity: capacity)))
    }

    /// Starts recording `request` (its form already read, if it has one).
    func begin(_ request: Request, form: FormBody?, at: Date) -> RecordedExchange {
        log.withLock { log in
            let exchange = RecordedExchange(number: log.next, request: request, form: form, at: at)
            log.next += 1
            log.exchanges.append(exchange)
            return exchange
        }
    }

    /// The exchanges kept, newest first.
    var newestFirst: [RecordedExchange] { log.withLock { Array($0.exchanges).reversed() } }

    /// The exchange numbered `number`, while it is kept.
    func exchange(number: Int) -> RecordedExchange? {
        log.withLock { $0.exchanges.first { $0.number == number } }
    }

    /// Forgets every exchange and numbers from 1 again.
    func clear() { log.withLock { $0 = Log(exchanges: RecentLog(capacity: capacity)) } }
}
