import EmulatorAutomation
import Foundation
import MSAL
import Testing

/// The tutorials' view controllers, run end to end against the emulator: each test taps the buttons
/// a user would (on the main queue) and waits for what the tutorial logs.
@Suite("Tutorials, unchanged but for UIKit, against the emulator", .timeLimit(.minutes(2)))
struct TutorialTests {
    @Test(
        "seed 000: sign in, call Graph, silent token, silent refresh, interactionRequired fallback after revocation, sign out"
    )
    func graphTutorial() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let vc = Seed000ViewController(environment: env)
            await vc.tap { vc.viewDidLoad() }
            try await vc.console.expect("Account signed out. Updating UX")

            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Access token is ")
            let me = try await vc.console.expect("Result from Graph")
            #expect(me.contains("Megan Bowen"))
            #expect(vc.usernameLabel.text == "MeganB@contoso.onmicrosoft.com")
            #expect(try await env.tokenRequests() == ["authorization_code"])

            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Found a signed in account")
            try await vc.console.expect("Refreshed Access token is ")
            try await vc.console.expect("Result from Graph")
            #expect(try await env.tokenRequests() == ["authorization_code"], "the second call is served from the cache")

            env.clock.advance(by: 3600)
            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Refreshed Access token is ")
            try await vc.console.expect("Result from Graph")
            #expect(try await env.tokenRequests() == ["authorization_code", "refresh_token"])

            env.clock.advance(by: 3600)
            try await env.revoke("MeganB@contoso.onmicrosoft.com")
            env.user.then(TutorialEnvironment.megan)
            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Access token is ")
            try await vc.console.expect("Result from Graph")
            #expect(
                try await env.tokenRequests() == [
                    "authorization_code", "refresh_token", "refresh_token", "authorization_code",
                ])

            await vc.tap { vc.signOut(vc.signOutButton) }
            try await vc.console.expect("Sign out completed successfully")
            await vc.settle()
            #expect(vc.usernameLabel.text == "Signed out")
            #expect(!vc.signOutButton.isEnabled)
            await vc.tap { vc.loadCurrentAccount() }
            try await vc.console.expect("Account signed out. Updating UX")
            #expect(try await vc.applicationContext?.allAccounts().isEmpty == true)

            await vc.tap { vc.getDeviceMode(vc.callGraphButton) }
            try await vc.console.expect("Received device info. Device is in the private mode.")
        }
    }

    @Test("seed 003 (2019): allAccounts, parameters without a web view, a resource-qualified scope, remove")
    func olderTutorial() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let vc = Seed003ViewController(environment: env)
            await vc.tap { vc.viewDidLoad() }

            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Access token is ")
            let me = try await vc.console.expect("Result from Graph")
            #expect(me.contains("MeganB@contoso.onmicrosoft.com"))
            await vc.settle()
            #expect(vc.signOutButton.isEnabled)

            await vc.tap { vc.callGraphAPI(vc.callGraphButton) }
            try await vc.console.expect("Refreshed Access token is ")
            try await vc.console.expect("Result from Graph")
            let grants = try await env.tokenRequests()
            #expect(grants == ["authorization_code"])

            await vc.tap { vc.signOut(vc.signOutButton) }
            #expect(vc.loggingText.text == "")
            #expect(!vc.signOutButton.isEnabled)
            #expect(try await vc.applicationContext?.allAccounts().isEmpty == true)
        }
    }

    @Test(
        "seed 002: sign in, preferred_username from the claims, silent sign-in, sign out, the previous account reported"
    )
    func workforceSignInTutorial() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.megan) { env in
            let vc = Seed002ViewController(environment: env)
            await vc.tap {
                try? vc.initMSAL()
                vc.getDeviceMode()
            }
            try await vc.console.expect("Device mode: private")

            await vc.tap { vc.acquireTokenInteractively() }
            try await vc.console.expect("Access token is ")
            try await vc.console.expect("preferred_username: MeganB@contoso.onmicrosoft.com")

            await vc.tap { vc.acquireTokenSilently() }
            try await vc.console.expect("Refreshed Access token is ")
            try await vc.console.expect("Refreshed Access token is ")  // loadCurrentAccount and its completion both ask
            #expect(try await env.tokenRequests() == ["authorization_code"])

            await vc.tap { vc.signOut(vc.signOutButton) }
            try await vc.console.expect("Sign out completed successfully")
            #expect(env.user.pagesSeen.last != "signedout", "a private device keeps the browser session")
            await vc.tap { vc.loadCurrentAccount() }
            try await vc.console.expect(
                #"The account with username Optional("MeganB@contoso.onmicrosoft.com") has been signed out."#)
            #expect(vc.usernameLabel.text == "Signed out")
        }
    }

    @Test(
        "seed 004: External ID on a shared device: sign in, claims, sign out from the browser, the previous account reported"
    )
    func sharedDeviceTutorial() async throws {
        try await TutorialEnvironment.with(TutorialEnvironment.jane, deviceMode: .shared) { env in
            let vc = Seed004ViewController(environment: env)
            await vc.tap {
                try? vc.initMSAL()
                vc.getDeviceMode()
            }
            try await vc.console.expect("Device mode: shared")

            await vc.tap { vc.acquireTokenInteractively() }
            try await vc.console.expect("Access token is ")
            try await vc.console.expect("preferred_username: jane@example.com")

            await vc.tap { vc.signOut(vc.signOutButton) }
            try await vc.console.expect("Sign out completed successfully")
            #expect(env.user.pagesSeen.last == "signedout")
            await vc.tap { vc.loadCurrentAccount() }
            try await vc.console.expect(#"The account with username Optional("jane@example.com") has been signed out."#)

            await vc.tap { vc.acquireTokenSilently() }
            try await vc.console.expect("No token found, try to acquire a token interactively first")
        }
    }
}
