import Foundation
import TestServers
import Testing

/// webapp-sample's pages as a browser draws them: headless Chromium signs in through the emulator's page, adds and
/// deletes a to-do through todo-api, and saves screenshots of the home page, the to-do list and an error page under
/// `.build/screenshots/webapp-sample/`, each checked to be a PNG of the window with the page's text in the DOM.
@Suite("webapp-sample's pages in a real browser, with screenshots", .timeLimit(.minutes(5)))
struct WebAppScreenshotTests {
    /// `.build/screenshots/webapp-sample` in the package.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/screenshots/webapp-sample")

    /// The width and height a PNG's header gives, after checking its signature and that its first chunk is IHDR;
    /// `nil` when it is no PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 33, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            bytes[12..<16] == Array("IHDR".utf8)[...]
        else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Saves what the window shows as `name`.png, checks it is a PNG of the window, and returns its bytes.
    static func save(_ browser: WebDriver, _ name: String) async throws -> Data {
        let png = try await browser.screenshot()
        let size = try #require(pngSize(png), "\(name) is no PNG")
        #expect(size.width >= 800 && size.width <= 2048 && size.height >= 500, "\(name): \(size)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("\(name).png")
        try png.write(to: file)
        print("screenshot: \(file.path) (\(size.width)×\(size.height), \(png.count) bytes)")
        return png
    }

    @Test("sign in, add and delete a to-do, an error page: each page styled and saved as a PNG")
    func screenshots() async throws {
        try await WebAppSite.with(todoList: .todoAPI) { site in
            try await WebDriver.withHeadlessChromium { browser in
                try await browser.resizeWindow(width: 1024, height: 720)
                try await browser.open(site.url.appendingPathComponent("todos"))
                try await browser.signInJane()
                try await browser.waitFor("#empty")
                #expect(try await browser.currentURL == site.url.appendingPathComponent("todos").absoluteString)
                #expect(try await browser.pageSource.contains("Nothing to do yet"))

                let items = ["Water the plants", "Read the External ID tutorial", "Book the team lunch"]
                for (count, item) in zip(1..., items) {
                    try await browser.type(item, into: "#description")
                    try await browser.click("#add")
                    try await browser.waitFor(#"#count[data-count="\#(count)"]"#)
                    #expect(try await browser.pageSource.contains(#"<span class="item">\#(item)</span>"#))
                }
                try await browser.click("#todo-list li:first-child button.delete")
                try await browser.waitFor(#"#count[data-count="2"]"#)
                let list = try await browser.pageSource
                #expect(!list.contains("Water the plants"))
                #expect(list.contains("2 to-dos"))
                #expect(list.contains(#"<link rel="stylesheet" href="/style.css">"#))
                let todos = try await Self.save(browser, "todos")

                try await browser.open(site.url)
                try await browser.waitFor("#user")
                #expect(try await browser.pageSource.contains("Signed in as jane@example.com"))
                let home = try await Self.save(browser, "home")

                try await browser.open(site.url.appendingPathComponent("todos/999/delete"))
                let error = try await browser.pageSource
                #expect(error.contains("There is nothing at GET /todos/999/delete."))
                #expect(error.contains(#"id="error-code""#))
                let errorPage = try await Self.save(browser, "error")
                #expect(Set([todos, home, errorPage]).count == 3, "three different pages")
            }
        }
    }
}
