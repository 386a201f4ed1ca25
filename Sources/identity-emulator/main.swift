import NIOCore
import NIOPosix

// Run Swift concurrency on NIO's event loops, so a request does not hop between the socket's thread
// and the cooperative pool (about a third more refresh grants per second on 2 cores). It must be the
// first thing the process does.
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
await IdentityEmulatorCommand.main()
