import SwiftData

enum ShelfV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self] }
    @Model final class Book {
        var title: String = ""
        init() {}
    }
}

enum ShelfV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self] }
    @Model final class Book {
        @Attribute(.unique) var title: String = ""
        init() {}
    }
}
