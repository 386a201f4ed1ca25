import Foundation
import IdentityEmulator
import Testing

/// `--state FILE`: the directory as changed survives a restart; `GET /_emulator/export` and `POST /_emulator/import`
/// move a directory in and out.
@Suite("The emulator's state file, export and import")
struct StateFileTests {
    /// The directory file `GET /_emulator/export` gives, with one user more (Casey, in Contoso).
    static func withCasey(_ exported: String) throws -> Data {
        var directory = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        var users = try #require(directory["users"] as? [[String: Any]])
        users.append([
            "id": "0f3c2b1a-9e8d-4c7b-a6f5-e4d3c2b1a098", "userPrincipalName": "casey@contoso.onmicrosoft.com",
            "displayName": "Casey Jordan", "tenant": "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b",
            "password": "Casey-Test-Pass7",
        ])
        directory["users"] = users
        return try JSONSerialization.data(withJSONObject: directory)
    }

    /// Runs the emulator with `file` as its state file.
    static func keeping(_ file: URL) -> (inout EmulatorConfiguration) -> Void { { $0.stateFile = file } }

    @Test("an imported directory is served at once, kept in the state file (0600), and served again after a restart")
    func survivesRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emulator-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        try await TestEmulator.with(Self.keeping(file)) { emulator in
            // Written at start: the directory it serves.
            #expect(try Directory.load(contentsOf: file).users.count == Directory.demo.users.count)
            let exported = try await emulator.get("/_emulator/export")
            #expect(exported.status == 200)
            let imported = try await emulator.post(
                "/_emulator/import", json: String(decoding: try Self.withCasey(exported.body), as: UTF8.self))
            #expect(imported.status == 200, "\(imported.body)")
            #expect(try imported.json["users"] as? Int == Directory.demo.users.count + 1)
            let casey = try await emulator.passwordGrant(
                user: "casey@contoso.onmicrosoft.com", password: "Casey-Test-Pass7")
            #expect(casey.status == 200, "\(casey.body)")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try String(contentsOf: file, encoding: .utf8).contains("casey@contoso.onmicrosoft.com"))
        }
        try await TestEmulator.with(Self.keeping(file)) { emulator in
            let casey = try await emulator.passwordGrant(
                user: "casey@contoso.onmicrosoft.com", password: "Casey-Test-Pass7")
            #expect(casey.status == 200, "\(casey.body)")
        }
    }

    @Test("a state file that is not a directory stops the start, naming the file; a bad import is 400 naming the field")
    func refusals() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "emulator-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        try Data("{\"tenants\": [".utf8).write(to: file)
        let error = await #expect(throws: IdentityEmulator.StartError.self) {
            try await TestEmulator.with(Self.keeping(file)) { _ in }
        }
        #expect(error?.description.contains(file.path) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("not valid JSON") == true, "\(error?.description ?? "")")

        try await TestEmulator.with { emulator in
            let answer = try await emulator.post(
                "/_emulator/import", json: #"{"tenants": [], "users": [], "applications": []}"#)
            #expect(answer.status == 400)
            #expect(
                try answer.string("error")?.contains("tenants: at least one tenant is required") == true,
                "\(answer.body)")
            // Nothing changed.
            #expect(try await emulator.passwordGrant().status == 200)
        }
    }
}
