import Foundation
import SwiftData

// Written from memory of the Core Data model: isbn renamed without originalName, dueAt made optional.
@Model
final class Book {
    var title: String
    var isbnCode: String
    var publishedOn: Date?
    @Relationship(deleteRule: .nullify, inverse: \Loan.book)
    var loans: [Loan] = []

    init(title: String, isbn: String) {
        self.title = title
        self.isbnCode = isbn
    }
}

@Model
final class Loan {
    var memberName: String
    var dueAt: Date?
    @Relationship(deleteRule: .nullify)
    var book: Book?

    init(memberName: String, dueAt: Date) {
        self.memberName = memberName
        self.dueAt = dueAt
    }
}

@Model
final class Shelf {
    var code: String = ""
    init() {}
}
