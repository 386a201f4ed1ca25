#if os(macOS)
    extension SystemBrowserLauncher {
        /// What opens the URL when `$BROWSER` is not set: Launch Services' `open`, which hands it to the
        /// default browser and exits non-zero when it cannot.
        static let opener = "/usr/bin/open"
    }
#endif
