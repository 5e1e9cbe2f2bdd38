/// The `#if` branches a declaration is inside, outermost first (`DEBUG`, `!(DEBUG)`, `os(iOS)`). Declarations in
/// one branch share its path, so nesting costs each declaration one reference, however deep the `#if`s go.
package struct SwiftConditions: Sendable, Equatable {
    private final class Node: Sendable {
        let condition: String
        let parent: Node?
        let count: Int
        init(_ condition: String, parent: Node?) {
            self.condition = condition
            self.parent = parent
            count = (parent?.count ?? 0) + 1
        }
    }

    private let last: Node?

    /// Outside every `#if`.
    package static let none = SwiftConditions(last: nil)

    private init(last: Node?) { self.last = last }

    package var isEmpty: Bool { last == nil }
    package var count: Int { last?.count ?? 0 }

    /// This path with one more branch inside it.
    func appending(_ condition: String) -> SwiftConditions { SwiftConditions(last: Node(condition, parent: last)) }

    /// The branches' conditions, outermost first.
    package var texts: [String] {
        var result: [String] = []
        var node = last
        while let n = node {
            result.append(n.condition)
            node = n.parent
        }
        return result.reversed()
    }

    package static func == (a: SwiftConditions, b: SwiftConditions) -> Bool { a.last === b.last || a.texts == b.texts }
}
