#if canImport(Glibc)
    import Foundation
    import Glibc

    /// Makes a `posix_spawn` child close every descriptor but 0, 1 and 2 before it runs its program.
    ///
    /// A child inherits every descriptor of the test process without close-on-exec, among them the pipes of the
    /// processes other tests are running at the same moment. A daemon (a PostgreSQL server, a keyring) keeps them
    /// open for as long as it runs, and those tests never see their processes' output end. glibc 2.34's
    /// `posix_spawn_file_actions_addclosefrom_np` does it in one step; Swift's Glibc module does not import it, so it
    /// is looked up by name, and each descriptor open now is closed one by one where it is missing.
    package func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
#endif
