import NIOCore
import SampleServers

/// How the web app answers a request it cannot serve: a page of its own, with what happened and what to do next.
enum ErrorPage {
    /// The explanation as an HTML page.
    @Sendable static func render(_ explanation: ErrorExplanation) -> (contentType: String, body: ByteBuffer) {
        var page = HTMLPage(explanation.status.code >= 500 ? "Something went wrong" : "That did not work")
        page.paragraph(explanation.message, id: "error-message", class: "error")
        page.paragraph("HTTP \(explanation.status.code) · \(explanation.error)", id: "error-code", class: "muted")
        page.link("Home", to: "/", id: "home")
        return ("text/html; charset=utf-8", ByteBuffer(string: page.html))
    }
}
