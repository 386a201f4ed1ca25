import ArgumentParser
import Foundation
import MSAL

/// `msal native call`: a protected API with the signed-in customer's token.
struct NativeCall: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call a protected API with the signed-in customer's token and print its answer.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The API's URL.")
    var url: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("The scopes the API needs.", valueName: "scope"))
    var scopes: [String]

    func validate() throws {
        guard let url = URL(string: url), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("\(url) is not an http(s) URL.")
        }
        _ = try ScopeList.required(scopes)
    }

    func run() async throws {
        let (url, scopes, json) = (URL(string: url)!, ScopeList.split(scopes), global.json)
        try await global.values.runNative { context, native in
            let user = try await NativeSignedIn.current(native)
            let (response, body) = try await native.application.send(
                HTTPRequest(method: .get, url: url), scopes: scopes, account: user.account)
            try APIAnswerView.report(body, status: response.status, from: url, json: json, context: context)
        }
    }
}
