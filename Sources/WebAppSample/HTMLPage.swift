import WebText

/// A page of the sample: the app's name (a link home) above the page's title and content, styled by
/// ``Stylesheet``. Every value put in it is escaped.
struct HTMLPage {
    let title: String
    var body: [String] = []

    init(_ title: String) { self.title = title }

    mutating func paragraph(_ text: String, id: String? = nil, class name: String? = nil) {
        let id = id.map { " id=\"\($0)\"" } ?? ""
        let name = name.map { " class=\"\($0)\"" } ?? ""
        body.append("<p\(id)\(name)>\(HTMLText.escape(text))</p>")
    }

    mutating func link(_ text: String, to href: String, id: String) {
        body.append("<p><a id=\"\(id)\" href=\"\(HTMLText.escape(href))\">\(HTMLText.escape(text))</a></p>")
    }

    /// Markup made with its values escaped already (a form from `WebAppAuthentication`, the to-do list).
    mutating func markup(_ html: String) {
        body.append(html)
    }

    /// The whole document.
    var html: String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title)) · webapp-sample</title>
        <link rel="stylesheet" href="\(Stylesheet.path)"><link rel="icon" href="data:,"></head>
        <body><header><a class="brand" href="/">webapp-sample</a></header>
        <main><h1>\(HTMLText.escape(title))</h1>
        \(body.joined(separator: "\n"))
        </main></body></html>
        """
    }

    /// The fields every page is answered with: not cached, and not to be framed by another site (its buttons change
    /// things).
    static let headers = [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("Content-Security-Policy", "frame-ancestors 'none'"),
    ]
}
