import Hummingbird

/// A small HTML page; every value put in it is escaped.
struct HTMLPage {
    let title: String
    var body: [String] = []

    init(_ title: String) { self.title = title }

    mutating func paragraph(_ text: String, id: String? = nil) {
        body.append("<p\(id.map { " id=\"\($0)\"" } ?? "")>\(Self.escape(text))</p>")
    }

    mutating func link(_ text: String, to href: String, id: String) {
        body.append("<p><a id=\"\(id)\" href=\"\(Self.escape(href))\">\(Self.escape(text))</a></p>")
    }

    mutating func list(_ items: [String], id: String) {
        body.append("<ul id=\"\(id)\">" + items.map { "<li>\(Self.escape($0))</li>" }.joined() + "</ul>")
    }

    var response: Response {
        let html = """
            <!doctype html><html><head><meta charset="utf-8"><title>\(Self.escape(title))</title></head>
            <body><h1>\(Self.escape(title))</h1>\(body.joined(separator: "\n"))</body></html>
            """
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
