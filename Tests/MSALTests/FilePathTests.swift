import Foundation
import Testing

@testable import MSAL

@Suite("File URLs read and joined as text, as Foundation's path and appendingPathComponent do")
struct FilePathTests {
    @Test(
        "filePath is path, appendingFilePath is appendingPathComponent",
        arguments: ["/tmp/cache/token_cache.json", "relative/file", "/a b/c%20d#e?f.json", "/folder/", "/", "/ü/ñ"])
    func sameAsFoundation(path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(url.filePath == url.path)
        #expect(url.deletingLastPathComponent().filePath == url.deletingLastPathComponent().path)
        for name in ["msal_authority_metadata.json", "msal/config.json", "with space.json"] {
            #expect(url.appendingFilePath(name).filePath == url.appendingPathComponent(name).path)
        }
    }
}
