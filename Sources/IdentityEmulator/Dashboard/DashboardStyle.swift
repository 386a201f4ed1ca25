/// The dashboard's one stylesheet (`/_emulator/ui/style.css`). Every rule that sets a text colour sets the background
/// it is read on too, and each such pair has a contrast of at least 4.5:1 (WCAG 2.2 AA for normal text); the tests
/// compute it from this text.
enum DashboardStyle {
    static let css = """
        html{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:15px;line-height:1.45}
        body{margin:0;color:#1b1b1b;background:#f4f5f7}
        header{color:#ffffff;background:#1f2937;padding:10px 24px}
        header p{margin:0 0 6px;font-weight:600}
        nav a{color:#ffffff;background:#1f2937;margin-right:18px;text-decoration:underline}
        nav a[aria-current=page]{color:#1f2937;background:#ffffff;padding:2px 6px;text-decoration:none}
        main{max-width:1100px;margin:0 auto;padding:16px 24px 48px}
        a{color:#0b57a4;background:transparent}
        h1{font-size:26px;margin:12px 0}h2{font-size:20px;margin:28px 0 8px}h3{font-size:16px;margin:18px 0 6px}
        section{color:#1b1b1b;background:#ffffff;border:1px solid #c9ced6;border-radius:6px;padding:4px 18px 14px;margin:14px 0}
        table{border-collapse:collapse;width:100%;font-size:14px}
        th{color:#1b1b1b;background:#e4e7ec;text-align:left}
        th,td{border:1px solid #c9ced6;padding:5px 8px;vertical-align:top}
        code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px}
        pre{color:#1b1b1b;background:#eef0f3;padding:10px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
        label{display:block;margin:8px 0 3px;font-weight:600}
        input,select,textarea{font:inherit;color:#1b1b1b;background:#ffffff;border:1px solid #6b7280;padding:5px 7px}
        textarea{width:100%;box-sizing:border-box}
        button{font:inherit;color:#ffffff;background:#0b57a4;border:1px solid #0b57a4;padding:6px 14px;margin:8px 6px 0 0;cursor:pointer}
        button.danger{color:#ffffff;background:#a4262c;border-color:#a4262c}
        button.secondary{color:#1b1b1b;background:#e4e7ec;border-color:#6b7280}
        :focus-visible{outline:3px solid #b45309;outline-offset:2px}
        .muted{color:#4b5563;background:transparent}
        .notice{color:#0f5132;background:#d1e7dd;border:1px solid #0f5132;padding:8px 12px}
        .error{color:#842029;background:#f8d7da;border:1px solid #842029;padding:8px 12px}
        .ok{color:#0f5132;background:#d1e7dd;padding:1px 6px}
        .bad{color:#842029;background:#f8d7da;padding:1px 6px}
        td form{display:inline}
        .row{display:flex;flex-wrap:wrap;gap:16px}.row>div{flex:1 1 260px}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px}dt{font-weight:600}dd{margin:0}
        """
}
