import WebText

/// The page frame shared by every emulator page (text in it is escaped with `HTMLText.escape`).
enum HTML {
    /// A complete page: plain server-rendered HTML that works without JavaScript. With `autoSubmit`, a script
    /// submits the page's first form through `HTMLFormElement`'s own `submit`, which no control of the form can
    /// shadow (a control named or identified `submit` replaces `form.submit` in the DOM).
    static func page(title: String, body: String, autoSubmit: Bool = false) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;background:#f2f2f2;margin:0}
        main{max-width:440px;margin:48px auto;background:#fff;padding:32px 40px;box-shadow:0 2px 6px rgba(0,0,0,.2)}
        h1{font-size:22px;font-weight:600}label{display:block;margin:12px 0 4px}
        input[type=text],input[type=email],input[type=password]{width:100%;padding:8px;box-sizing:border-box}
        button{margin:16px 8px 0 0;padding:8px 20px}.primary{background:#0067b8;color:#fff;border:0}
        .error{color:#e81123}.muted{color:#666;font-size:13px}ul{padding-left:20px}
        </style></head>
        <body><main>
        <p class="muted">identity-emulator</p>
        \(body)
        </main>\(autoSubmit ? "<script>HTMLFormElement.prototype.submit.call(document.forms[0])</script>" : "")
        </body></html>
        """
    }

    /// A hidden input.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(HTMLText.escape(name))\" value=\"\(HTMLText.escape(value))\">"
    }
}
