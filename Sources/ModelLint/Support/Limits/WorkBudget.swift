/// The work a reader of untrusted bytes may do, fixed from the size of its input before it starts: a file whose
/// parts reference each other (shared objects, repeated offsets, pointer fans) can describe far more than it
/// holds, and a reader that follows every reference would do work out of all proportion to the file. Spending
/// past the budget throws an error that names what was being read, never an abort.
package struct WorkBudget: Sendable {
    package struct Exceeded: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    package let limit: Int
    package private(set) var spent = 0
    private let what: String

    /// `what` completes "… references more than N …", e.g. "properties (it holds 120 objects)".
    package init(limit: Int, what: String) {
        self.limit = limit
        self.what = what
    }

    package mutating func spend(_ units: Int = 1) throws {
        spent += units
        if spent > limit { throw Exceeded(description: "it references more than \(limit) \(what): refused as crafted") }
    }
}
