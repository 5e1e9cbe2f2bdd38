import Foundation
import SwiftData

// The Core Data + SwiftData guide's step 1: one @Model per entity, identical names and types.
@Model
final class Book {
    var title: String
    var isbn: String
    var publishedOn: Date?
    @Relationship(deleteRule: .nullify, inverse: \Loan.book)
    var loans: [Loan] = []

    init(title: String, isbn: String) {
        self.title = title
        self.isbn = isbn
    }
}

@Model
final class Loan {
    var memberName: String
    var dueAt: Date
    @Relationship(deleteRule: .nullify)
    var book: Book?

    init(memberName: String, dueAt: Date) {
        self.memberName = memberName
        self.dueAt = dueAt
    }
}
