import Foundation
import Testing

/// Smart lockout: wrong passwords cannot be tried without limit.
@Suite("Password lockout (AADSTS50053)")
struct PasswordLockoutTests {
    @Test("ten wrong passwords lock the account for a minute, even against the right one; then it signs in again")
    func lockout() async throws {
        try await TestEmulator.with { emulator in
            for _ in 0..<10 {
                let wrong = try await emulator.passwordGrant(password: "Not-Megan-1")
                #expect(wrong.status == 400)
                #expect(try wrong.json["error_codes"] as? [Int] == [50126])
            }
            let locked = try await emulator.passwordGrant()
            #expect(locked.status == 400)
            #expect(try locked.json["error_codes"] as? [Int] == [50053])
            #expect(try locked.string("error") == "invalid_grant")
            // Another user is not affected.
            let adele = try await emulator.passwordGrant(
                user: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")
            #expect(adele.status == 200)
            try await emulator.setClockOffset(61)
            let after = try await emulator.passwordGrant()
            #expect(after.status == 200)
        }
    }

    @Test("a right password resets the count")
    func rightPasswordResets() async throws {
        try await TestEmulator.with { emulator in
            for round in 0..<3 {
                for _ in 0..<9 { _ = try await emulator.passwordGrant(password: "Not-Megan-1") }
                #expect(try await emulator.passwordGrant().status == 200, "round \(round)")
            }
        }
    }
}
