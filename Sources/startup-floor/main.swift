import Foundation

// `startup-floor FILE`: prints a file and exits. msal-bench's cli section starts it, built in release with the
// Swift runtime and Foundation linked statically as `msal` is, as the floor under a whole-process command.
let path = CommandLine.arguments.dropFirst().first ?? "/dev/null"
guard let contents = FileManager.default.contents(atPath: path) else { exit(1) }
FileHandle.standardOutput.write(contents)
