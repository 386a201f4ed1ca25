import EmulatorAutomation
import Foundation
import Locking
import MSAL

/// Stands in for UIKit's `UIViewController` on Linux. There are no views: the tutorials' widgets become
/// console widgets, and the view controller, passed as `authPresentationViewController`, presents the
/// sign-in pages by handing them to the emulator's scripted user (it is a ``BrowserLauncher``).
///
/// `@unchecked Sendable` invariant (for subclasses too): the tutorial's `var`s are touched by one
/// action at a time. A test taps a button on the main queue and waits for the action's last console
/// line before the next tap; the steps of one action run one after another, each started by the
/// previous one's completion block.
class ConsoleViewController: BrowserLauncher, @unchecked Sendable {
    let environment: TutorialEnvironment
    /// Where the widgets write.
    let console: Console

    init(environment: TutorialEnvironment, console: Console) {
        self.environment = environment
        self.console = console
    }

    /// UIKit calls it when the view loads; the tests call it first.
    func viewDidLoad() {}

    func open(_ url: URL) async throws {
        try await environment.user.open(url)
    }

    /// Runs `action` on the main queue, as a tap would.
    func tap(_ action: @escaping @MainActor () -> Void) async {
        await MainActor.run(body: action)
    }

    /// Returns once the widget updates the tutorial already queued on the main queue have run.
    func settle() async {
        await MainActor.run {}
    }
}

/// `UITextView`: its text goes to the console.
final class ConsoleTextView: Sendable {
    private let name: String
    private let console: Console
    private let shown = Locked<String?>(nil)

    init(_ name: String, _ console: Console) {
        self.name = name
        self.console = console
    }

    var text: String? {
        get { shown.withLock { $0 } }
        set {
            shown.withLock { $0 = newValue }
            console.record(name, newValue ?? "")
        }
    }
}

/// `UILabel`: the same, for labels.
typealias ConsoleLabel = ConsoleTextView

/// `UIButton`: only whether it is enabled matters.
final class ConsoleButton: Sendable {
    private let name: String
    private let console: Console
    private let enabled = Locked(true)

    init(_ name: String, _ console: Console) {
        self.name = name
        self.console = console
    }

    var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set {
            enabled.withLock { $0 = newValue }
            console.record(name, newValue ? "enabled" : "disabled")
        }
    }
}
