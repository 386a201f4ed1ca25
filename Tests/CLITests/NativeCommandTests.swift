import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import Testing

/// `msal native …` against an in-process emulator's External ID tenant, answering its prompts on
/// standard input with the codes from the emulator's outbox.
@Suite("msal native commands", .timeLimit(.minutes(1)))
struct NativeCommandTests {
    static let api1 = "api://\(Directory.DemoIDs.api1)/ToDoList.Read"

    static func sandbox(_ emulator: RunningEmulator) throws -> CLISandbox {
        try CLISandbox(emulator: emulator, tenant: "contosocustomers.onmicrosoft.com")
    }

    static let client = ["MSAL_CLIENT_ID": Directory.DemoIDs.externalPublicClient]

    @Test("signin with a password, token from the cache, call API 1, signout; wrong answers and unknown users")
    func signInTokenCallSignOut() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            let signIn = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], Self.client,
                input: "Jane-Demo-Pass4")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(signIn.stdout == "Signed in as Jane Customer <jane@example.com>.\n")

            let first = try await Self.json(
                sandbox.msal(["native", "token", "--json", "--scopes", Self.api1], Self.client))
            let second = try await Self.json(
                sandbox.msal(["native", "token", "--json", "--scopes", Self.api1], Self.client))
            #expect(first["source"] as? String == "identity_provider")
            #expect(second["source"] as? String == "cache" && second["token"] as? String == first["token"] as? String)

            let call = try await sandbox.msal(
                [
                    "native", "call", emulator.baseURL.appendingPathComponent("api1/todolist").absoluteString,
                    "--scopes", Self.api1,
                ], Self.client)
            #expect(call.status == 0, "\(call.stderr)")
            #expect(call.stdout.contains("\"user\":\"jane@example.com\""))

            let signOut = try await sandbox.msal(["native", "signout"], Self.client)
            #expect(signOut.stdout == "Signed out jane@example.com.\n")
            let after = try await sandbox.msal(["native", "token", "--scopes", Self.api1], Self.client)
            #expect(after.status == 3)

            let wrong = try sandbox.start(
                ["native", "signin", "--email", "jane@example.com"], Self.client, takingInput: true)
            for _ in 0..<5 {
                _ = try await wrong.waitForOutput { $0.components(separatedBy: "Password: ").count > 1 ? true : nil }
                wrong.send("Not-Her-Pass9")
            }
            let gaveUp = try await wrong.finish()
            #expect(gaveUp.status == 1 && gaveUp.stderr.contains("Too many wrong answers"))
            #expect(gaveUp.stderr.contains("Wrong password."))
            #expect(!gaveUp.stderr.contains("Not-Her-Pass9"))

            let unknown = try await sandbox.msal(
                ["native", "signin", "--email", "nobody@example.com", "--password-stdin"], Self.client,
                input: "x-Y-z-1234")
            #expect(unknown.status == 1 && unknown.stderr.contains("msal native signup --email nobody@example.com"))
        }
    }

    @Test(
        "signup over standard input: the code from the outbox, a weak password refused, a missing attribute asked for")
    func signUpConversation() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            let email = "cli.customer@example.org"
            let process = try sandbox.start(
                ["native", "signup", "--email", email, "--attribute", "displayName=Cli Customer"],
                Self.client, takingInput: true)
            _ = try await process.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            process.send(try await Outbox(base: emulator.baseURL, http: .shared).lastCode(to: email))
            _ = try await process.waitForOutput { $0.contains("Choose a password: ") ? true : nil }
            process.send("weakpassword")
            _ = try await process.waitForOutput { $0.contains("too weak") ? true : nil }
            process.send("Strong-Enough-8")
            _ = try await process.waitForOutput { $0.contains("country (matching ^[A-Z]{2}$): ") ? true : nil }
            process.send("nz")
            _ = try await process.waitForOutput {
                $0.contains("Not accepted: country (the value must match ^[A-Z]{2}$).") ? true : nil
            }
            process.send("NZ")
            let result = try await process.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "Signed up and signed in as Cli Customer <\(email)>.\n")
            #expect(result.stderr.contains("A one-time code (8 digits) was sent to c***@e******.org."))

            let again = try await sandbox.msal(
                ["native", "signup", "--email", email, "--password-stdin"], Self.client, input: "Strong-Enough-8")
            #expect(again.status == 1 && again.stderr.contains("already has an account"))
            let badAttribute = try await sandbox.msal(
                ["native", "signup", "--email", "x@example.org", "--attribute", "shoeSize=44"], Self.client)
            #expect(badAttribute.status == 2 && badAttribute.stderr.contains("shoeSize"))
        }
    }

    @Test(
        "signin with MFA: choose the text message, a wrong code, resend, the right code; then a first method registered"
    )
    func mfaAndRegistration() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            let outbox = Outbox(base: emulator.baseURL, http: .shared)
            let mfa = try sandbox.start(
                ["native", "signin", "--email", "lee@example.com"], Self.client, takingInput: true)
            _ = try await mfa.waitForOutput { $0.contains("Password: ") ? true : nil }
            mfa.send("Lee-Demo-Pass7")
            _ = try await mfa.waitForOutput { $0.contains("Send a code to (1-2): ") ? true : nil }
            mfa.send("2")
            _ = try await mfa.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            let wrong = try await outbox.lastCode(to: "+15555550123") == "00000000" ? "11111111" : "00000000"
            mfa.send(wrong)
            _ = try await mfa.waitForOutput { $0.contains("That code is wrong or has expired.") ? true : nil }
            mfa.send("resend")
            _ = try await mfa.waitForOutput {
                $0.components(separatedBy: "A one-time code (8 digits) was sent to").count > 2 ? true : nil
            }
            mfa.send(try await outbox.lastCode(to: "+15555550123"))
            let signedIn = try await mfa.finish()
            #expect(signedIn.status == 0, "\(signedIn.stderr)")
            #expect(signedIn.stdout.contains("Signed in as Lee Strong <lee@example.com>."))
            #expect(signedIn.stderr.contains("1. email") && signedIn.stderr.contains("2. sms +"))
            #expect(!signedIn.stderr.contains("+15555550123"), "the phone number is shown masked")

            let register = try sandbox.start(
                ["native", "signin", "--email", "noah@example.com"], Self.client, takingInput: true)
            _ = try await register.waitForOutput { $0.contains("Password: ") ? true : nil }
            register.send("Noah-Demo-Pass8")
            _ = try await register.waitForOutput { $0.contains("Register (1-2): ") ? true : nil }
            register.send("1")
            _ = try await register.waitForOutput { $0.contains("Email address: ") ? true : nil }
            register.send("not an address")
            _ = try await register.waitForOutput { $0.contains("That is not a valid email address.") ? true : nil }
            _ = try await register.waitForOutput {
                $0.components(separatedBy: "Register (1-2): ").count > 2 ? true : nil
            }
            register.send("1")
            _ = try await register.waitForOutput {
                $0.components(separatedBy: "Email address: ").count > 2 ? true : nil
            }
            register.send("noah.cli@example.com")
            _ = try await register.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            register.send(try await outbox.lastCode(to: "noah.cli@example.com"))
            let registered = try await register.finish()
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stdout.contains("Signed in as Noah Newmethod <noah@example.com>."))
        }
    }

    @Test("passwords never go on the command line: --password and --new-password are refused as unknown options")
    func noPasswordOptions() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            for arguments in [
                ["native", "signin", "--email", "jane@example.com", "--password", "Jane-Demo-Pass4"],
                ["native", "signup", "--email", "x@example.org", "--password", "Strong-Enough-8"],
                ["native", "reset-password", "--email", "jane@example.com", "--new-password", "Renewed-Pass-77"],
            ] {
                let result = try await sandbox.msal(arguments, Self.client)
                #expect(result.status == 2 && result.stderr.contains("Unknown option"), "\(arguments[1])")
            }
            let empty = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], Self.client, input: "")
            #expect(empty.status == 2 && empty.stderr.contains("--password-stdin found no password"))
        }
    }

    @Test("text from the identity platform reaches the terminal without control characters (ANSI, OSC 52, CR, C1)")
    func controlCharactersStripped() async throws {
        var directory = Directory.demo
        let jane = try #require(directory.users.firstIndex { $0.userPrincipalName == "jane@example.com" })
        directory.users[jane].displayName = "Jane\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\r Cust\u{9B}31m\u{202E}omer"
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, directory: directory)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            let signIn = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], Self.client,
                input: "Jane-Demo-Pass4")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(signIn.stdout == "Signed in as Jane]52;c;ZXZpbA==[2J Cust31momer <jane@example.com>.\n")
            let wrong = try await sandbox.msal(
                ["native", "signin", "--email", "nobody\u{1B}[2J@example.com", "--password-stdin"], Self.client,
                input: "x-Y-z-1234")
            #expect(!wrong.stderr.unicodeScalars.contains { $0.value == 0x1B })
        }
    }

    @Test("reset-password with a resent code, then the new password signs in; a code-only user signs in with a code")
    func resetPasswordAndCodeSignIn() async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            let sandbox = try Self.sandbox(emulator)
            defer { sandbox.remove() }
            let reset = try sandbox.start(
                ["native", "reset-password", "--email", "jane@example.com", "--new-password-stdin"],
                Self.client, takingInput: true)
            reset.send("Renewed-Pass-77")
            _ = try await reset.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            reset.send("resend")
            _ = try await reset.waitForOutput {
                $0.components(separatedBy: "Code (or 'resend'): ").count > 2 ? true : nil
            }
            reset.send(try await Outbox(base: emulator.baseURL, http: .shared).lastCode(to: "jane@example.com"))
            let done = try await reset.finish()
            #expect(done.status == 0, "\(done.stderr)")
            #expect(done.stdout == "Password changed; signed in as Jane Customer <jane@example.com>.\n")
            let old = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], Self.client,
                input: "Jane-Demo-Pass4")
            #expect(old.status != 0)
            let new = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], Self.client,
                input: "Renewed-Pass-77")
            #expect(new.status == 0, "\(new.stderr)")

            let sam = try sandbox.start(
                ["native", "signin", "--email", "sam@example.com"], Self.client, takingInput: true)
            _ = try await sam.waitForOutput { $0.contains("Code (or 'resend'): ") ? true : nil }
            sam.send(try await Outbox(base: emulator.baseURL, http: .shared).lastCode(to: "sam@example.com"))
            let samResult = try await sam.finish()
            #expect(samResult.status == 0, "\(samResult.stderr)")
            #expect(samResult.stdout == "Signed in as Sam Codeonly <sam@example.com>.\n")
        }
    }

    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    }
}
