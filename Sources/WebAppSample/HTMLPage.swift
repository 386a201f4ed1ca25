import Hummingbird
import WebText

/// A small HTML page; every value put in it is escaped.
struct HTMLPage {
    let title: String
    var body: [String] = []

    init(_ title: String) { self.title = title }

    mutating func paragraph(_ text: String, id: String? = nil) {
        body.append("<p\(id.map { " id=\"\($0)\"" } ?? "")>\(HTMLText.escape(text))</p>")
    }

    mutating func link(_ text: String, to href: String, id: String) {
        body.append("<p><a id=\"\(id)\" href=\"\(HTMLText.escape(href))\">\(HTMLText.escape(text))</a></p>")
    }

    /// Markup made elsewhere with its values escaped already (a form from `WebAppAuthentication`).
    mutating func markup(_ html: String) {
        body.append(html)
    }

    mutating func list(_ items: [String], id: String) {
        body.append("<ul id=\"\(id)\">" + items.map { "<li>\(HTMLText.escape($0))</li>" }.joined() + "</ul>")
    }

    var response: Response {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>\(HTMLText.escape(title))</title></head>
            <body><h1>\(HTMLText.escape(title))</h1>\(body.joined(separator: "\n"))</body></html>
            """
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
