import SwiftData

// The Core Data + SwiftData guide's own example: the store's current shape frozen as LibraryV1, then a
// lightweight stage to LibraryV2 (an attribute with a default, and a new entity).
enum LibraryV1: VersionedSchema {
    static let versionIdentifier: Schema.Version = .init(1, 0, 0)

    static var models: [any PersistentModel.Type] { [Book.self, Loan.self] }
    @Model final class Book {
        var title: String
        var isbn: String
        init(title: String, isbn: String) { self.title = title; self.isbn = isbn }
    }
    @Model final class Loan {
        var memberName: String
        var dueAt: Date
        init(memberName: String, dueAt: Date) { self.memberName = memberName; self.dueAt = dueAt }
    }
}

enum LibraryV2: VersionedSchema {
    static let versionIdentifier: Schema.Version = .init(2, 0, 0)

    static var models: [any PersistentModel.Type] { [Book.self, Loan.self, Shelf.self] }
    @Model final class Book {
        var title: String
        var isbn: String
        var isArchived: Bool = false
        init(title: String, isbn: String) { self.title = title; self.isbn = isbn }
    }
    @Model final class Loan {
        var memberName: String
        var dueAt: Date
        init(memberName: String, dueAt: Date) { self.memberName = memberName; self.dueAt = dueAt }
    }
    @Model final class Shelf {
        var code: String
        init(code: String) { self.code = code }
    }
}

enum LibraryMigration: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [LibraryV1.self, LibraryV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: LibraryV1.self, toVersion: LibraryV2.self)]
    }
}
