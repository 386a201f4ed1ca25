/// The one stylesheet every page of the sample links: system fonts, a narrow column, plain forms. Nothing is
/// fetched from elsewhere.
enum Stylesheet {
    /// Where the app serves it.
    static let path = "/style.css"

    static let css = """
        :root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da;
          --paper: #ffffff; --wash: #f6f8fa; --danger: #cf222e; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
          color: var(--ink); background: var(--wash); }
        header { background: var(--paper); border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; }
        .brand { font-weight: 600; color: var(--ink); text-decoration: none; }
        main { max-width: 40rem; margin: 2rem auto; padding: 1.5rem 2rem; background: var(--paper);
          border: 1px solid var(--line); border-radius: 8px; }
        h1 { font-size: 1.5rem; margin: 0 0 1rem; }
        a { color: var(--accent); }
        .muted { color: var(--muted); font-size: 0.875rem; }
        .error { border-left: 4px solid var(--danger); padding-left: 0.75rem; }
        form { margin: 0; }
        form.add { display: flex; gap: 0.5rem; margin: 1rem 0; }
        input[type=text] { flex: 1; padding: 0.4rem 0.6rem; font: inherit; border: 1px solid var(--line);
          border-radius: 6px; }
        button { padding: 0.4rem 0.9rem; font: inherit; border: 1px solid var(--line); border-radius: 6px;
          background: var(--wash); color: var(--ink); cursor: pointer; }
        button:hover { border-color: var(--muted); }
        button.delete { color: var(--danger); padding: 0.15rem 0.6rem; font-size: 0.875rem; }
        ul.todos { list-style: none; padding: 0; margin: 0; border-top: 1px solid var(--line); }
        ul.todos li { display: flex; justify-content: space-between; align-items: center; gap: 1rem;
          padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
        """

    /// The fields it is answered with: kept for an hour by the browser.
    static let headers = [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "max-age=3600")]
}
