import Foundation
import MSAL
import SampleServers

/// How the sample web app is set up.
public struct WebAppSampleConfiguration: Sendable {
    /// The web app's confidential client (its authority, client id and credential).
    public var client: ConfidentialClientApplicationConfiguration
    /// Microsoft Graph's base (`https://graph.microsoft.com/v1.0/`, or the emulator's).
    public var graphBaseURL: URL
    /// API 1's to-do list (`todo-api`'s `/api1/todolist`, or the emulator's built-in route).
    public var todoListURL: URL
    /// API 1's scope for the to-dos: `ToDoList.ReadWrite` to list, add and delete them (`ToDoList.Read` lists only).
    public var todoScope: String
    /// The web framework that serves the app: Hummingbird unless told.
    public var framework = SampleFramework.hummingbird
    /// Where to listen: `127.0.0.1` unless told.
    public var host = "127.0.0.1"
    /// The port; `0` picks a free one.
    public var port = 0
    /// How the identity platform returns the code: `query` unless told.
    public var responseMode = ResponseMode.query

    /// A configuration.
    public init(
        client: ConfidentialClientApplicationConfiguration, graphBaseURL: URL, todoListURL: URL, todoScope: String
    ) {
        self.client = client
        self.graphBaseURL = graphBaseURL
        self.todoListURL = todoListURL
        self.todoScope = todoScope
    }
}
