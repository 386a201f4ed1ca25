import Foundation
import Locking

/// One to-do item.
public struct TodoItem: Codable, Sendable, Equatable {
    /// Its number, unique in its list.
    public let id: Int
    /// What to do.
    public var description: String
    /// Whether it is done.
    public var done: Bool
}

/// The to-do lists, in memory: one per user (their object id) in each API.
final class TodoStore: Sendable {
    private struct Lists {
        var items: [String: [TodoItem]] = [:]
        var nextID = 1
    }

    private let lists = Locked(Lists())

    /// The user's list.
    func list(owner: String) -> [TodoItem] {
        lists.withLock { $0.items[owner] ?? [] }
    }

    /// Every user's list, by owner (for daemons with the read-all role).
    func all() -> [String: [TodoItem]] {
        lists.withLock { $0.items }
    }

    /// Adds an item to the user's list.
    func add(_ description: String, owner: String) -> TodoItem {
        lists.withLock { lists in
            let item = TodoItem(id: lists.nextID, description: description, done: false)
            lists.nextID += 1
            lists.items[owner, default: []].append(item)
            return item
        }
    }

    /// Removes an item from the user's list; `false` when the list has none with that id.
    func remove(_ id: Int, owner: String) -> Bool {
        lists.withLock { lists in
            guard let index = lists.items[owner]?.firstIndex(where: { $0.id == id }) else { return false }
            lists.items[owner]!.remove(at: index)
            return true
        }
    }
}
