import Foundation
import WebText

/// The frame of every dashboard page and the pieces the pages share: the navigation, one `h1`, the notice of what
/// the last form did, forms that carry the anti-forgery token, tables. Plain HTML that works without JavaScript,
/// styled by ``DashboardStyle`` alone; text in it is escaped with `HTMLText.escape`.
struct DashboardFrame: Sendable {
    /// The emulator's anti-forgery token, which every form carries (``DashboardGuard`` checks it).
    let token: String

    /// The pages in the navigation, with the path each is served at.
    enum Section: String, CaseIterable, Sendable {
        case applications = "/_emulator/"
        case users = "/_emulator/ui/users"
        case log = "/_emulator/ui/log"
        case outbox = "/_emulator/ui/outbox"
        case inspector = "/_emulator/ui/inspector"
        case controls = "/_emulator/ui/controls"

        var title: String {
            switch self {
            case .applications: "Tenants and applications"
            case .users: "Users"
            case .log: "Request log"
            case .outbox: "Outbox"
            case .inspector: "Token inspector"
            case .controls: "Faults, clock, keys, reset"
            }
        }
    }

    /// A whole page: `title` is its one `h1`, `section` is marked current in the navigation, `body` follows (its
    /// headings start at `h2`); `notice` and `error` are shown above it.
    func page(
        _ title: String, section: Section?, body: String, notice: String? = nil, error: String? = nil,
        script: String? = nil
    ) -> String {
        let links = Section.allCases.map { item in
            let current = item == section ? #" aria-current="page""# : ""
            return #"<a href="\#(item.rawValue)"\#(current)>\#(HTMLText.escape(item.title))</a>"#
        }.joined(separator: "\n")
        let notice = notice.map { #"<p class="notice" role="status" id="notice">\#(HTMLText.escape($0))</p>"# } ?? ""
        let error = error.map { #"<p class="error" role="alert" id="error">\#(HTMLText.escape($0))</p>"# } ?? ""
        let script = script.map { #"<script src="\#($0)" defer></script>"# } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLText.escape(title)) · identity-emulator</title>
            <link rel="stylesheet" href="/_emulator/ui/style.css">\(script)
            </head>
            <body>
            <header><p>identity-emulator dashboard</p>
            <nav aria-label="Dashboard">
            \(links)
            </nav></header>
            <main>
            <h1>\(HTMLText.escape(title))</h1>
            \(notice)\(error)
            \(body)
            </main>
            </body></html>
            """
    }

    /// A form posting to `action` with the anti-forgery token, `content` (labelled fields) and a submit button.
    func form(action: String, content: String = "", button: String, id: String? = nil, style: String? = nil) -> String {
        let buttonID = id.map { #" id="\#(HTMLText.escape($0))""# } ?? ""
        let buttonClass = style.map { #" class="\#($0)""# } ?? ""
        return """
            <form method="post" action="\(HTMLText.escape(action))">\
            \(AntiForgeryToken.input(token))\(content)\
            <button type="submit"\(buttonID)\(buttonClass)>\(HTMLText.escape(button))</button></form>
            """
    }

    /// A labelled input.
    static func field(
        _ name: String, label: String, value: String = "", type: String = "text", id: String? = nil,
        required: Bool = false, autocomplete: String = "off"
    ) -> String {
        let id = id ?? name
        return """
            <label for="\(HTMLText.escape(id))">\(HTMLText.escape(label))</label>\
            <input type="\(type)" id="\(HTMLText.escape(id))" name="\(HTMLText.escape(name))" \
            value="\(HTMLText.escape(value))" autocomplete="\(autocomplete)"\(required ? " required" : "")>
            """
    }

    /// A labelled drop-down list of `(value, text)` options.
    static func select(
        _ name: String, label: String, options: [(String, String)], selected: String? = nil, id: String? = nil
    ) -> String {
        let id = id ?? name
        let items = options.map { option in
            let chosen = option.0 == selected ? " selected" : ""
            return #"<option value="\#(HTMLText.escape(option.0))"\#(chosen)>\#(HTMLText.escape(option.1))</option>"#
        }.joined()
        return """
            <label for="\(HTMLText.escape(id))">\(HTMLText.escape(label))</label>\
            <select id="\(HTMLText.escape(id))" name="\(HTMLText.escape(name))">\(items)</select>
            """
    }

    /// A table: the header cells are text (escaped), the body cells HTML (the caller escapes what it puts in).
    static func table(_ headers: [String], _ rows: [[String]], id: String? = nil, caption: String? = nil) -> String {
        let head = headers.map { #"<th scope="col">\#(HTMLText.escape($0))</th>"# }.joined()
        let body = rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined(separator: "\n")
        let caption = caption.map { #"<caption class="muted">\#(HTMLText.escape($0))</caption>"# } ?? ""
        return """
            <table\(id.map { #" id="\#($0)""# } ?? "")>\(caption)<thead><tr>\(head)</tr></thead>
            <tbody>
            \(body)
            </tbody></table>
            """
    }

    /// `text` escaped in a `code` element.
    static func code(_ text: String) -> String { "<code>\(HTMLText.escape(text))</code>" }

    /// A date as the dashboard shows it: UTC, to the second.
    static func date(_ date: Date) -> String { date.estsTimestamp }

    /// A path segment, percent-encoded.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~@")))
            ?? text
    }
}
