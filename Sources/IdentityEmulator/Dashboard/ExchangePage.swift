import WebText

/// One request and its answer (`GET /_emulator/ui/log/{number}`), with every secret, code and token masked as
/// ``RecordedExchange`` recorded them.
struct ExchangePage: Sendable {
    let frame: DashboardFrame
    let exchange: RecordedExchange

    func render() -> String {
        let answer = exchange.recordedAnswer
        func pairs(_ list: [(String, String)]) -> String {
            list.isEmpty
                ? #"<p class="muted">None.</p>"#
                : DashboardFrame.table(
                    ["Name", "Value"], list.map { [DashboardFrame.code($0.0), DashboardFrame.code($0.1)] })
        }
        return frame.page(
            "Request \(exchange.number): \(exchange.method) \(exchange.path)", section: .log,
            body: """
                <p><a href="/_emulator/ui/log">The request log</a></p>
                <section><h2>Request</h2><dl>
                <dt>Time (UTC)</dt><dd>\(DashboardFrame.date(exchange.at))</dd>
                <dt>Method and path</dt><dd>\(DashboardFrame.code("\(exchange.method) \(exchange.path)"))</dd>
                <dt>Grant</dt><dd>\(HTMLText.escape(exchange.grantType ?? "none"))</dd>
                <dt>Client</dt><dd>\(HTMLText.escape(exchange.clientID ?? "none"))</dd>
                <dt>User</dt><dd>\(HTMLText.escape(answer.user ?? "none"))</dd>
                </dl>
                <h3>Query</h3>\(pairs(exchange.query))
                <h3>Form</h3>\(exchange.form.map(pairs) ?? #"<p class="muted">No form body.</p>"#)
                <h3>Headers</h3>\(pairs(exchange.headers))
                </section>
                <section><h2>Answer</h2>
                <p>Status <strong id="status">\(answer.status.map { String($0) } ?? "not answered yet")</strong></p>
                <h3>Headers</h3>\(pairs(answer.headers))
                <h3>Body</h3><pre id="answer-body"><code>\(HTMLText.escape(answer.body ?? "(none)"))</code></pre>
                </section>
                """)
    }
}
