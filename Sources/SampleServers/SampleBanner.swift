import Foundation

/// What a sample prints once it listens: its URL (the first line, `NAME listening on URL`, is the one a script
/// reads), its routes, the identity provider it uses and, against the emulator, a demo user to sign in as.
package struct SampleBanner: Sendable {
    /// One route: its method, its path and what it does.
    package struct Route: Sendable, Equatable {
        /// `GET`, `POST`, `GET|POST`…
        package let method: String
        /// The path, with `{id}` for a parameter.
        package let path: String
        /// What it does, in a few words.
        package let purpose: String

        /// A route.
        package init(_ method: String, _ path: String, _ purpose: String) {
            self.method = method
            self.path = path
            self.purpose = purpose
        }
    }

    /// The sample's name (`webapp-sample`).
    package let name: String
    /// Where it listens.
    package let url: URL
    /// Its routes.
    package let routes: [Route]
    /// Lines about whom it trusts and what it calls (`Identity provider: …`).
    package let details: [String]
    /// A user of the emulator's directory, and their password, to sign in as; `nil` away from the emulator.
    package let demoUser: (username: String, password: String)?
    /// What to do first (`Open … in a browser.`).
    package let next: String?

    /// A banner.
    package init(
        name: String, url: URL, routes: [Route], details: [String], demoUser: (username: String, password: String)?,
        next: String? = nil
    ) {
        self.name = name
        self.url = url
        self.routes = routes
        self.details = details
        self.demoUser = demoUser
        self.next = next
    }

    /// The banner's lines.
    package var text: String {
        let base = url.absoluteString
        var lines = ["\(name) listening on \(base)"]
        if let next { lines.append(next) }
        lines += ["", "Routes:"]
        let methodWidth = routes.map(\.method.count).max() ?? 0
        let pathWidth = routes.map(\.path.count).max() ?? 0
        for route in routes {
            lines.append(
                "  " + route.method.padding(toLength: methodWidth, withPad: " ", startingAt: 0) + "  "
                    + route.path.padding(toLength: pathWidth, withPad: " ", startingAt: 0) + "  " + route.purpose)
        }
        lines += [""] + details
        if let demoUser {
            lines.append("Demo user (the emulator's built-in directory): \(demoUser.username)  \(demoUser.password)")
        }
        lines.append("Press Ctrl-C to stop.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the banner to standard output at once, unbuffered, so that a script reading a pipe sees it.
    package func print() {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
