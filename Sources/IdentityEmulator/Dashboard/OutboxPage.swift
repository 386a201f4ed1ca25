import WebText

/// The outbox (`GET /_emulator/ui/outbox`): the one-time codes the emulator "sent" by email and text message
/// (sign-up, native authentication, MFA), newest first, so a person at the keyboard can type them in.
struct OutboxPage: Sendable {
    let frame: DashboardFrame
    let messages: [OutboxMessage]

    func render() -> String {
        let rows = messages.reversed().map { message in
            [
                DashboardFrame.date(message.sentAt), DashboardFrame.code(message.to), HTMLText.escape(message.subject),
                #"<code class="otp">\#(HTMLText.escape(message.code))</code>"#,
            ]
        }
        return frame.page(
            "Outbox", section: .outbox,
            body: rows.isEmpty
                ? #"<p class="muted" id="empty-outbox">No messages yet.</p>"#
                : DashboardFrame.table(["Sent (UTC)", "To", "Subject", "Code"], rows, id: "outbox"))
    }
}
