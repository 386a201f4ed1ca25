#if os(Linux)
    extension SystemBrowserLauncher {
        /// What opens the URL when `$BROWSER` is not set: the desktop's handler, found on `PATH`.
        static let opener = "xdg-open"
    }
#endif
