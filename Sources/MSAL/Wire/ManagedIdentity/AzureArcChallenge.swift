import Foundation
import HTTPTypes

/// Azure Arc's proof that the caller is privileged on the machine: the agent answers a first request with 401 and
/// `WWW-Authenticate: Basic realm=<file>`, a key file it just wrote where only administrators can read; the caller
/// sends the file's content back as `Authorization: Basic <content>`. The file is read only from the agent's folder,
/// only when it is a regular `.key` file of at most 4096 bytes, so a forged challenge cannot make the library read,
/// or send, any other file.
enum AzureArcChallenge {
    static let maximumKeySize = 4096

    /// The key the challenge in `response` names.
    ///
    /// - Parameter folder: the agent's key folder (``ManagedIdentityEndpoint/arcKeyFolder`` on Linux).
    /// - Throws: ``MSALError`` `invalidResponse` for a missing or malformed challenge, a file outside `folder`, not
    ///   a `.key` file, a link, too large, or unreadable.
    static func key(answering response: HTTPResponse, folder: String) throws -> String {
        guard let challenge = response.headerFields[values: .wwwAuthenticate].first else {
            throw refused("its 401 has no WWW-Authenticate challenge")
        }
        let parts = challenge.split(separator: "=", maxSplits: 1)
        guard parts.count == 2,
            parts[0].trimmingCharacters(in: .whitespaces).equalsIgnoringCase("Basic realm")
        else { throw refused("its challenge is not 'Basic realm=<key file>'") }
        let path = parts[1].trimmingCharacters(in: .whitespaces)
        let file = URL(fileURLWithPath: path).standardizedFileURL
        let expectedFolder = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        guard path.hasPrefix("/"), file.deletingLastPathComponent().path == expectedFolder.path else {
            throw refused("its key file \(path) is not in \(folder)")
        }
        guard file.pathExtension == "key" else { throw refused("its key file \(path) is not a .key file") }
        // Opened without following a link, then checked on the open descriptor: what is checked is what is read.
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw refused("its key file \(path) cannot be opened: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw refused("its key file \(path) is not a regular file")
        }
        guard info.st_size <= maximumKeySize else {
            throw refused("its key file \(path) is \(info.st_size) bytes, more than \(maximumKeySize)")
        }
        guard let data = try? handle.read(upToCount: maximumKeySize + 1), data.count <= maximumKeySize,
            let key = String(data: data, encoding: .utf8)
        else { throw refused("its key file \(path) cannot be read") }
        return key
    }

    private static func refused(_ why: String) -> MSALError {
        MSALError.internal(.invalidResponse, "Azure Arc's challenge is refused: \(why).")
    }
}
