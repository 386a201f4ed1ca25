import MSAL

// Makes a public client application for the emulator's demo app: proof that the core library compiles and links on
// its own. Nothing is sent: the application talks to its authority only when asked for a token.
let configuration = try PublicClientApplicationConfiguration(
    clientID: "9f1b8c3e-2d4a-4b6e-8f0a-1c2d3e4f5a6b",
    authority: Authority("http://127.0.0.1:8400/contoso.onmicrosoft.com"))
let application = try PublicClientApplication(configuration: configuration)
print("made a public client application for \(application.configuration.clientID)")
