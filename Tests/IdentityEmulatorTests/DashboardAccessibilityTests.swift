import Foundation
import IdentityEmulator
import Testing

/// Accessibility basics of every dashboard page, read from the HTML and the stylesheet the emulator serves: the
/// document's language, one `h1` and headings that descend one level at a time, a label for every control, and text
/// colours with a contrast of at least 4.5:1 on their backgrounds (WCAG 2.2 AA).
@Suite("Emulator dashboard: accessibility basics")
struct DashboardAccessibilityTests {
    /// Every page, in each of its states worth checking.
    private func pages(_ emulator: TestEmulator) async throws -> [(String, String)] {
        let dashboard = DashboardSession(emulator: emulator)
        let token = try await dashboard.token()
        let accessToken = try #require(try await emulator.passwordGrant().string("access_token"))
        let megan = try #require(
            emulator.running.directory.users.first { $0.userPrincipalName == "MeganB@contoso.onmicrosoft.com" }
        ).id
        let lee = try #require(emulator.running.directory.users.first { $0.userPrincipalName == emulator.ids.mfaUser })
            .id
        try await emulator.scenario("token", "delay")
        var pages: [(String, String)] = []
        for path in DashboardSession.fixedPages + [
            "/_emulator/ui/apps/\(emulator.ids.publicClient)", "/_emulator/ui/apps/\(emulator.ids.confidentialClient)",
            "/_emulator/ui/users/\(megan)", "/_emulator/ui/users/\(lee)", "/_emulator/ui/log/1",
        ] {
            pages.append((path, try await dashboard.page(path).body))
        }
        let inspected = try await dashboard.post("/_emulator/ui/inspector", [("token", accessToken)], token: token)
        pages.append(("inspector with a token", inspected.body))
        let refused = try await dashboard.post("/_emulator/ui/clock", [("offsetSeconds", "x")], token: token)
        pages.append(("controls with an error", refused.body))
        pages.append(("not found", try await emulator.get("/_emulator/ui/users/none").body))
        return pages
    }

    @Test("each page: lang, one h1, headings in order, a label for every control")
    func structure() async throws {
        try await TestEmulator.with { emulator in
            for (name, html) in try await pages(emulator) {
                #expect(html.contains(#"<html lang="en">"#), "\(name): no lang")
                let levels = Page.matches(#"<h([1-6])[ >]"#, in: html).compactMap { Int($0[0]) }
                #expect(levels.first == 1 && levels.filter { $0 == 1 }.count == 1, "\(name): headings \(levels)")
                for (previous, next) in zip(levels, levels.dropFirst()) {
                    #expect(next <= previous + 1, "\(name): h\(previous) is followed by h\(next)")
                }
                let labels = Set(Page.matches(#"<label for="([^"]+)""#, in: html).map { $0[0] })
                for control in Page.matches(#"<(input|select|textarea)\b([^>]*)>"#, in: html) {
                    let attributes = control[1]
                    if attributes.contains(#"type="hidden""#) { continue }
                    let id = Page.matches(#"\bid="([^"]+)""#, in: attributes).first?[0]
                    #expect(id.map(labels.contains) == true, "\(name): <\(control[0])\(attributes)> has no label")
                }
                for button in Page.matches(#"<button\b[^>]*>([^<]*)</button>"#, in: html) {
                    #expect(!button[0].trimmingCharacters(in: .whitespaces).isEmpty, "\(name): a button without text")
                }
            }
        }
    }

    @Test("the stylesheet's text colours contrast at least 4.5:1 with their backgrounds")
    func contrast() async throws {
        try await TestEmulator.with { emulator in
            let css = try await emulator.get("/_emulator/ui/style.css").body
            let pageBackgrounds = ["#ffffff", "#f4f5f7"]
            var checked = 0
            for rule in Page.matches(#"([^{}]+)\{([^}]*)\}"#, in: css) {
                let declarations = rule[1]
                guard let color = Page.matches(#"(?:^|;)color:(#[0-9a-fA-F]{6})"#, in: declarations).first?[0] else {
                    continue
                }
                let background = Page.matches(#"background:(#[0-9a-fA-F]{6})"#, in: declarations).first?[0]
                for back in background.map({ [$0] }) ?? pageBackgrounds {
                    let ratio = Self.contrast(color, back)
                    #expect(ratio >= 4.5, "\(rule[0]): \(color) on \(back) is \(ratio):1")
                    checked += 1
                }
            }
            #expect(checked >= 15, "the stylesheet's colours were read (\(checked) pairs)")
        }
    }

    /// WCAG 2.2's contrast ratio of two `#rrggbb` colours.
    static func contrast(_ a: String, _ b: String) -> Double {
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            let bytes: [Int] = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF]
            let channels: [Double] = bytes.map { byte in
                let c = Double(byte) / 255
                return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            let red: Double = 0.2126 * channels[0]
            let green: Double = 0.7152 * channels[1]
            return red + green + 0.0722 * channels[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
