import Foundation
import WebText

/// Faults and scenarios, the clock offset, key rotation and reset (`GET /_emulator/ui/controls`): each form does what
/// the admin API's route of the same name does, through the same functions.
struct ControlsPage: Sendable {
    let frame: DashboardFrame
    let scenarios: [Scenario]
    let now: Date
    let offset: TimeInterval
    let keys: [String]
    let counts: [(String, Int)]

    func render(notice: String? = nil, error: String? = nil) -> String {
        let armed = scenarios.map { scenario in
            [
                DashboardFrame.code(scenario.route.rawValue), DashboardFrame.code(scenario.fault.rawValue),
                "\(scenario.count)", HTMLText.escape(scenario.retryAfter ?? ""),
                scenario.delayMilliseconds.map { "\($0) ms" } ?? "",
            ]
        }
        let routes = Scenario.Route.allCases.map { ($0.rawValue, $0.rawValue) }
        let faults = Scenario.Fault.allCases.map { ($0.rawValue, $0.rawValue) }
        return frame.page(
            "Faults, clock, keys, reset", section: .controls,
            body: """
                <section><h2>Faults and scenarios</h2>
                <p>The next requests to a route misbehave as chosen (<code>POST /_emulator/scenarios</code>).</p>
                \(armed.isEmpty ? #"<p class="muted" id="no-scenarios">No scenario armed.</p>"# : DashboardFrame.table(["Route", "Fault", "Requests left", "Retry-After", "Delay"], armed, id: "scenarios"))
                \(frame.form(
                    action: "/_emulator/ui/scenarios",
                    content: "<div class=\"row\"><div>"
                        + DashboardFrame.select("route", label: "Route", options: routes, selected: "token")
                        + "</div><div>" + DashboardFrame.select("fault", label: "Fault", options: faults)
                        + "</div><div>" + DashboardFrame.field("count", label: "How many requests", value: "1", type: "number")
                        + "</div><div>" + DashboardFrame.field("retryAfter", label: "Retry-After (throttle)")
                        + "</div><div>" + DashboardFrame.field("delayMilliseconds", label: "Delay in milliseconds (delay, slowDrip)", type: "number")
                        + "</div></div>",
                    button: "Arm scenario", id: "add-scenario"))
                \(frame.form(action: "/_emulator/ui/scenarios/clear", button: "Clear every scenario", id: "clear-scenarios", style: "secondary"))
                </section>
                <section><h2>Clock</h2>
                <p>The emulator's time: <strong id="now">\(DashboardFrame.date(now)) UTC</strong>, offset <strong id="offset">\(Int(offset)) s</strong> from the real clock (<code>POST /_emulator/clock</code>).</p>
                \(frame.form(
                    action: "/_emulator/ui/clock",
                    content: DashboardFrame.field("offsetSeconds", label: "Offset in seconds (3600 is an hour ahead; 0 is the real time)", value: String(Int(offset)), type: "number"),
                    button: "Set the clock", id: "set-clock"))
                </section>
                <section><h2>Signing keys</h2>
                <p>Published, newest first (the first signs): \(keys.map(DashboardFrame.code).joined(separator: ", ")).</p>
                \(frame.form(action: "/_emulator/ui/keys/rotate", button: "Rotate the signing key", id: "rotate-keys"))
                </section>
                <section><h2>Reset</h2>
                <p>Back to the directory the emulator started with: forgets users added since, sessions, codes, refresh tokens, consent, the outbox, the request log, scenarios and the clock offset (<code>POST /_emulator/reset</code>).</p>
                \(frame.form(action: "/_emulator/ui/reset", button: "Reset the emulator", id: "reset", style: "danger"))
                <h3>What it holds now</h3>
                \(DashboardFrame.table(["Kind", "Count"], counts.map { [HTMLText.escape($0.0), "\($0.1)"] }, id: "stats"))
                </section>
                """, notice: notice, error: error)
    }
}
