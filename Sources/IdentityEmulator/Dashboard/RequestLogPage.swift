import WebText

/// The live request log (`GET /_emulator/ui/log`): the last requests the emulator served, newest first, with their
/// method, path, grant, client, user, status and time; each row opens the request and its answer
/// (``ExchangePage``). Without JavaScript the page is reloaded by hand; with it, a small script reloads the table
/// every two seconds (`/_emulator/ui/live.js`).
struct RequestLogPage: Sendable {
    let frame: DashboardFrame
    let index: DirectoryIndex
    let exchanges: [RecordedExchange]
    let capacity: Int

    func render() -> String {
        frame.page(
            "Request log", section: .log,
            body: """
                <p class="muted">The last \(capacity) requests to the identity platform's endpoints (the dashboard's and the admin API's are not logged), newest first; secrets, codes and tokens are masked. <a href="/_emulator/ui/log">Reload</a></p>
                <div id="live">\(table)</div>
                """, script: "/_emulator/ui/live.js")
    }

    /// The table alone (`GET /_emulator/ui/log-table`, which the script reloads).
    var table: String {
        guard !exchanges.isEmpty else { return #"<p class="muted" id="empty-log">No requests yet.</p>"# }
        let rows = exchanges.map { exchange in
            let answer = exchange.recordedAnswer
            let client =
                exchange.clientID.map { id in
                    index.application(clientID: id).map { "\(HTMLText.escape($0.displayName)) " } ?? ""
                } ?? ""
            return [
                #"<a href="/_emulator/ui/log/\#(exchange.number)">\#(exchange.number)</a>"#,
                DashboardFrame.date(exchange.at), HTMLText.escape(exchange.method), DashboardFrame.code(exchange.path),
                HTMLText.escape(exchange.grantType ?? ""),
                client + (exchange.clientID.map(DashboardFrame.code) ?? ""), HTMLText.escape(answer.user ?? ""),
                answer.status.map { String($0) } ?? "…",
            ]
        }
        return DashboardFrame.table(
            ["#", "Time (UTC)", "Method", "Path", "Grant", "Client", "User", "Status"], rows, id: "requests")
    }

    /// The script that reloads the table: the page works without it.
    static let liveScript = """
        "use strict";
        setInterval(async () => {
          const answer = await fetch("/_emulator/ui/log-table", { cache: "no-store" });
          if (answer.ok) document.getElementById("live").innerHTML = await answer.text();
        }, 2000);
        """
}
